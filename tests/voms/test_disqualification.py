"""The absence rule with the database: every case of the digest, and where a disqualification shows."""

import pytest
from django.urls import reverse

from scoring.games.voms import queries as voms_queries
from scoring.games.voms.documents import build
from scoring.games.voms.public import public
from scoring.games.voms.services import pools as voms_pools
from scoring.games.voms.services import settings as voms_settings
from scoring.games.voms.services import slips as voms_slips
from scoring.games.voms.standings import pool_tables
from scoring.progress import result_progress
from tournament.models import AuditEntry, Match, Stage
from tournament.services.errors import DomainError
from tournament.services.participants import register_team

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401

pytestmark = pytest.mark.django_db


def games_of(t, team):
    """The pool games of `team` in round order (6 teams, one pool: 5 rounds, one game each)."""
    return [m for m in Match.objects.filter(stage__tournament=t, stage__kind=Stage.Kind.POOLS, team_b__isnull=False)
            .select_related("round", "team_a", "team_b", "stage__tournament").order_by("round__number")
            if team.pk in (m.team_a_id, m.team_b_id)]


def side(match, team):
    return "a" if match.team_a_id == team.pk else "b"


def other(match, team):
    return "b" if match.team_a_id == team.pk else "a"


def row_of(t, team):
    table = pool_tables(t)[0]
    return next(r for r in table.rows if r.participant == team.pk), table


def absent(match, team, director, **kwargs):
    return voms_slips.record_slip(match, by=director, entry={"absent": side(match, team)}, **kwargs)


def won(match, team, director, lus=4, **kwargs):
    entry = {"lus_a": 9, "lus_b": lus} if side(match, team) == "a" else {"lus_a": lus, "lus_b": 9}
    return voms_slips.record_slip(match, by=director, entry=entry, **kwargs)


def test_out_of_order_slip_typed_before_the_third_absence(drawn, director):
    x = drawn.teams.get(name="Team 1")
    g = games_of(drawn, x)
    won(g[3], x, director)  # round 4 typed first: X wins 9:4
    absent(g[0], x, director)
    absent(g[1], x, director)
    assert row_of(drawn, x)[0].values["points"] == 2
    with pytest.raises(voms_slips.DisqualificationUnconfirmed) as asked:
        absent(g[2], x, director)  # the third absence, in round 3, typed last
    assert "round 3" in asked.value.message or "3" in asked.value.message
    sheet = absent(g[2], x, director, confirm_disqualify=True)
    assert sheet.disqualified == {x.pk: g[2].round.number}
    row, table = row_of(drawn, x)
    assert (row.values["points"], row.values["wins"], row.values["lus_for"]) == (0, 0, 0)
    assert table.disqualified == {x.pk: g[2].round.number}
    # the typed 9:4 stays in the history
    assert g[3].sheet.entries[0]["lus_a"] + g[3].sheet.entries[0]["lus_b"] == 13
    assert AuditEntry.objects.filter(action="team.disqualify").count() == 1


def test_correction_creates_then_removes_the_third_absence(drawn, director):
    x = drawn.teams.get(name="Team 1")
    g = games_of(drawn, x)
    absent(g[0], x, director)
    absent(g[1], x, director)
    won(g[2], x, director)
    won(g[3], x, director)
    assert voms_queries.disqualifications(drawn) == {}
    with pytest.raises(voms_slips.DisqualificationUnconfirmed):
        voms_slips.record_slip(g[2], by=director, entry={"absent": side(g[2], x)}, expected_version=1,
                             reason="X was not there")
    assert voms_queries.disqualifications(drawn) == {}  # nothing saved
    voms_slips.record_slip(g[2], by=director, entry={"absent": side(g[2], x)}, expected_version=1,
                         reason="X was not there", confirm_disqualify=True)
    assert voms_queries.disqualifications(drawn) == {x.pk: 3}
    assert row_of(drawn, x)[0].values["points"] == 0
    # and back: the typed lus of round 4 count again
    sheet = won(g[2], x, director, expected_version=2, reason="it was the other table")
    assert sheet.reinstated == {x.pk: 3}
    assert voms_queries.disqualifications(drawn) == {}
    assert row_of(drawn, x)[0].values["points"] == 4
    assert AuditEntry.objects.filter(action="team.reinstate").count() == 1


def test_forfeits_count_as_entered_and_the_rounds_move_on(drawn, director):
    x = drawn.teams.get(name="Team 1")
    g = games_of(drawn, x)
    for i, m in enumerate(g[:3]):
        absent(m, x, director, confirm_disqualify=i == 2)
    for m in Match.objects.filter(stage__tournament=drawn, team_b__isnull=False, sheet__isnull=True):
        if x.pk not in (m.team_a_id, m.team_b_id):
            voms_slips.record_slip(m, by=director, entry={"lus_a": 9, "lus_b": 2})
    stage = Stage.objects.get(tournament=drawn, kind=Stage.Kind.POOLS)
    assert voms_queries.pool_state(drawn, stage).derivation.missing() == []
    assert pool_tables(drawn)[0].complete
    assert voms_queries.current_round(stage).number == 5  # the last round, not stuck at 4
    # X's later games are no new slips; the opponent's games count 9:0
    with pytest.raises(DomainError) as refused:
        won(g[3], x, director)
    assert "disqualified" in refused.value.message
    found = public(drawn).find("P0")
    team = found.sections[0].data["teams"][0]
    assert team["games"] == [] and "disqualified in round 3" in team["disqualified"]
    # the two games decided by the disqualification have no slip, yet the pools are complete
    pools = result_progress(drawn, after_round=5)
    assert pools.complete and pools.entered == pools.expected == 15
    # the evening goes on: the knockout still to be built counts as a result missing, its final
    progress = result_progress(drawn)
    assert progress.provisional and (progress.entered, progress.expected) == (15, 16)
    assert str(progress.heading()) == "Provisional — after 15 of 16 slips"


def test_absent_opponent_of_a_disqualified_team(drawn, director):
    x = drawn.teams.get(name="Team 1")
    g = games_of(drawn, x)
    for i, m in enumerate(g[:3]):
        absent(m, x, director, confirm_disqualify=i == 2)
    y_side = other(g[3], x)
    y = g[3].team_a if y_side == "a" else g[3].team_b
    voms_slips.record_slip(g[3], by=director, entry={"absent": y_side})
    row, table = row_of(drawn, y)
    state = voms_queries.pool_state(drawn)
    result = state.result(g[3].pk)
    assert result.outcome == "void" and state.derivation.absences[y.pk] == (4,)
    assert (g[3].team_a_id, g[3].team_b_id) in table.void
    results = build(drawn, "results")
    note = next(r for r in results.rows if r["round"] == 4 and r.get("note") and "void" in r["note"])
    assert "lus_a" not in note


def test_two_disqualified_teams_meeting(voms, director):
    for i in range(4):
        register_team(voms, by=director, name=f"T{i}", players=[f"Q{i} A"])
    voms_pools.draw_pools(voms, by=director, pools=1, seed=5)
    voms_settings.update_settings(voms, by=director, changes={"max_absences": 0})
    t0, t1 = voms.teams.get(name="T0"), voms.teams.get(name="T1")
    meeting = next(m for m in games_of(voms, t0) if t1.pk in (m.team_a_id, m.team_b_id))
    first = {t0.pk: None, t1.pk: None}
    for team in (t0, t1):
        first[team.pk] = next(m for m in games_of(voms, team) if m.pk != meeting.pk
                              and m.round.number < meeting.round.number) if meeting.round.number > 1 else None
    if None in first.values():
        pytest.skip("the draw puts their meeting in round 1")
    for team in (t0, t1):
        absent(first[team.pk], team, director, confirm_disqualify=True)
    result = voms_queries.pool_state(voms).result(meeting.pk)
    assert result.outcome == "void" and result.entered
    with pytest.raises(DomainError):
        voms_slips.record_slip(meeting, by=director, entry={"lus_a": 9, "lus_b": 5})
    for team in (t0, t1):
        assert row_of(voms, team)[0].values["points"] == 0


def test_plausible_lus_at_entry(drawn, director):
    match = games_of(drawn, drawn.teams.get(name="Team 1"))[0]
    with pytest.raises(DomainError) as err:
        voms_slips.record_slip(match, by=director, entry={"lus_a": 5, "lus_b": 99})
    assert "at most 20" in err.value.message
    with pytest.raises(DomainError) as err:
        voms_slips.record_slip(match, by=director, entry={"lus_a": 13, "lus_b": 5})
    assert err.value.field == "confirm_high_lus" and "13" in err.value.message
    sheet = voms_slips.record_slip(match, by=director, entry={"lus_a": 13, "lus_b": 5, "confirm_high_lus": True})
    assert sheet.derived["games"][0]["points_a"] == "1.5"


def test_the_last_entered_list_says_what_the_lus_alone_do_not(drawn, director, client):
    """At the referee table a forfeit reads "9 : 0" like a kam, and a slip typed before the disqualification still
    reads as typed although it now counts 9:0 for the opponent: the list of the last slips says so beside the lus."""
    x = drawn.teams.get(name="Team 1")
    g = games_of(drawn, x)
    won(g[3], x, director)  # round 4 typed first: X wins 9:4
    for i, m in enumerate(g[:3]):
        absent(m, x, director, confirm_disqualify=i == 2)
    client.force_login(director)
    page = client.get(reverse("tournament:voms:enter", args=[drawn.slug])).content.decode()
    listed = page[page.index('id="last-entered"'):]
    listed = listed[:listed.index("</table>")]
    rows = {row.split("</td>")[0].split(">")[-1]: row for row in listed.split("<tr>")[2:]}  # round -> its row
    assert "absent: " in rows["1"] and "absent: " in rows["2"]
    assert "counts 9:0 for the opponent" in rows["4"] and "absent" not in rows["4"]
