"""Voms services with the database: teams, draw, slips, forfeits, disqualification, corrections, knockout."""

import io

import pytest
from openpyxl import Workbook

from scoring.games.voms import entries as voms_entries
from scoring.games.voms import queries as voms_queries
from scoring.games.voms.services import knockout as voms_knockout
from scoring.games.voms.services import pools as voms_pools
from scoring.games.voms.services import slips as voms_slips
from scoring.games.voms.services import teams as voms_teams
from scoring.games.voms.standings import final_ranking, pool_tables
from scoring.models import ScoreSheet
from tournament.draw.bracket import Qualifier
from tournament.models import AuditEntry, Draw, Match, Stage
from tournament.services.errors import DomainError
from tournament.services.participants import register_team

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401

pytestmark = pytest.mark.django_db


def pool_matches(t, round_number=None):
    qs = Match.objects.filter(stage__tournament=t, stage__kind=Stage.Kind.POOLS, team_b__isnull=False)
    if round_number:
        qs = qs.filter(round__number=round_number)
    return list(qs.select_related("round", "team_a", "team_b").order_by("round__number", "table_number"))


def test_team_registration_and_duplicate_name(voms, director):
    team = register_team(voms, by=director, name="", players=["Naja Lynge", "Malik Kleist"])
    assert team.name == "Naja Lynge & Malik Kleist"
    assert [p.last_name for p in team.members.order_by("number")] == ["Lynge", "Kleist"]
    with pytest.raises(DomainError):
        register_team(voms, by=director, name="naja lynge & malik kleist", players=["A B"])
    with pytest.raises(DomainError):
        register_team(voms, by=director, name="Three", players=["A", "B", "C"])


def test_partners_drawn_by_lot(voms, director):
    for name in ["A One", "B Two", "C Three", "D Four", "E Five"]:
        voms_teams.register_individual(voms, by=director, name=name)
    teams = voms_teams.draw_partners(voms, by=director, seed=5)
    assert sorted(t.members.count() for t in teams) == [1, 2, 2]
    assert Draw.objects.get(tournament=voms, kind=Draw.Kind.PARTNERS).seed == 5
    assert not voms_queries.players_without_team(voms).exists()


def test_import_rejects_everything_when_a_row_is_bad(voms, director):
    csv = b"team;player 1;player 2\nEagles;Ann A;Bob B\n;;\nOwls;;\n"
    report = voms_teams.import_teams(voms, "teams.csv", csv, by=director)
    assert not report.ok and report.rejected[0][0] == 4  # the spreadsheet's row: the blank row 3 counts
    assert not voms.teams.exists()


def test_import_xlsx_teams(voms, director):
    book = Workbook()
    sheet = book.active
    sheet.append(["Team", "Player 1", "Player 2", "Seeded"])
    sheet.append(["Eagles", "Ann Aa", "Bob Bb", "x"])
    sheet.append(["=HYPERLINK(\"x\")", "Cid Cc", None, None])
    data = io.BytesIO()
    book.save(data)
    report = voms_teams.import_teams(voms, "teams.xlsx", data.getvalue(), by=director)
    assert report.ok, report.rejected
    # a formula is never evaluated: without a cached value the team is named after its player
    assert list(voms.teams.values_list("name", "seeded")) == [("Eagles", True), ("Cid Cc", False)]


def test_draw_schedule_and_redo_until_first_slip(drawn, director):
    stage = Stage.objects.get(tournament=drawn, kind=Stage.Kind.POOLS)
    assert stage.rounds.count() == 5
    assert len(pool_matches(drawn)) == 15
    for rnd in stage.rounds.all():
        tables = [m.table_number for m in rnd.matches.all()]
        assert sorted(tables) == [1, 2, 3]
    first = [(m.team_a_id, m.team_b_id) for m in pool_matches(drawn)]
    voms_pools.draw_pools(drawn, by=director, pools=1, seed=11)
    assert [(m.team_a_id, m.team_b_id) for m in pool_matches(drawn)] == first  # same seed, same schedule
    voms_slips.record_slip(pool_matches(drawn, 1)[0], by=director, entry={"lus_a": 9, "lus_b": 5})
    with pytest.raises(DomainError):
        voms_pools.draw_pools(drawn, by=director, pools=1, seed=12)
    assert len(pool_matches(drawn)) == 15


def test_time_slots_follow_start_and_slot_length(drawn):
    rounds = list(Stage.objects.get(tournament=drawn, kind=Stage.Kind.POOLS).rounds.order_by("number"))
    assert (rounds[1].starts_at - rounds[0].starts_at).total_seconds() == 20 * 60


@pytest.mark.parametrize(
    "entry,points",
    [({"lus_a": 9, "lus_b": 5}, ("2", "0")), ({"lus_a": 0, "lus_b": 9}, ("0", "2.5")),
     ({"lus_a": 11, "lus_b": 7}, ("1.5", "0")), ({"lus_a": 11, "lus_b": 0}, ("1.5", "0")),
     ({"absent": "a"}, ("0", "2.5"))],
)
def test_slip_points(drawn, director, entry, points):
    sheet = voms_slips.record_slip(pool_matches(drawn, 1)[0], by=director, entry=entry)
    game = sheet.derived["games"][0]
    assert (game["points_a"], game["points_b"]) == points


def test_refused_slips_change_nothing(drawn, assistant_voms):
    match = pool_matches(drawn, 1)[0]
    for entry in ({"lus_a": 9, "lus_b": 9}, {"lus_a": 5, "lus_b": 3}, {"lus_a": -1, "lus_b": 9},
                  {"lus_a": 9, "lus_b": 12, "winner": "a"}):
        with pytest.raises(DomainError) as err:
            voms_slips.record_slip(match, by=assistant_voms, entry=entry)
        assert err.value.message
    assert not ScoreSheet.objects.exists()
    sheet = voms_slips.record_slip(match, by=assistant_voms,
                                 entry={"lus_a": 9, "lus_b": 12, "winner": "a", "confirm_low_winner": True})
    assert sheet.derived["winner"] == "a"


def test_winner_asked_when_both_reach_nine(drawn, director):
    match = pool_matches(drawn, 1)[0]
    with pytest.raises(DomainError) as err:
        voms_slips.record_slip(match, by=director, entry={"lus_a": 10, "lus_b": 9})
    assert err.value.field == "winner"
    sheet = voms_slips.record_slip(match, by=director, entry={"lus_a": 10, "lus_b": 9, "winner": "a"})
    assert sheet.derived["games"][0]["points_a"] == "1.5"


def test_correction_by_director_only_with_reason_and_recorded(drawn, director, assistant_voms):
    match = pool_matches(drawn, 1)[0]
    sheet = voms_slips.record_slip(match, by=assistant_voms, entry={"lus_a": 9, "lus_b": 5})
    with pytest.raises(DomainError):
        voms_slips.record_slip(match, by=assistant_voms, entry={"lus_a": 9, "lus_b": 6})
    with pytest.raises(DomainError):
        voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 6}, expected_version=1)
    voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 6}, expected_version=1,
                         reason="typo")
    sheet.refresh_from_db()
    assert sheet.version == 2 and sheet.corrected and sheet.entries == [{"lus_a": 9, "lus_b": 6}]
    assert [r.kind for r in sheet.revisions.all()] == ["entry", "correction"]
    entry = AuditEntry.objects.filter(action="sheet.correction").get()
    assert entry.before["entries"] == [{"lus_a": 9, "lus_b": 5}] and entry.reason == "typo"


def test_stale_version_refused(drawn, director):
    match = pool_matches(drawn, 1)[0]
    voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 5})
    voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 4}, expected_version=1, reason="a")
    with pytest.raises(DomainError) as err:
        voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 3}, expected_version=1, reason="b")
    assert "version 2" in err.value.message
    assert ScoreSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 4}]


def test_third_absence_disqualifies_and_later_games_are_forfeits(drawn, director):
    team = drawn.teams.get(name="Team 1")
    absences = 0
    for match in pool_matches(drawn):
        if team.pk not in (match.team_a_id, match.team_b_id):
            continue
        if absences == 3:
            with pytest.raises(DomainError):
                voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 1})
            continue
        side = "a" if match.team_a_id == team.pk else "b"
        if absences == 2:  # the absence that disqualifies is asked, not saved at once
            with pytest.raises(voms_slips.DisqualificationUnconfirmed) as asked:
                voms_slips.record_slip(match, by=director, entry={"absent": side})
            assert asked.value.field == "confirm_disqualify" and "disqualified in round" in asked.value.message
        voms_slips.record_slip(match, by=director, entry={"absent": side}, confirm_disqualify=absences == 2)
        absences += 1
    dq = voms_queries.disqualifications(drawn)
    assert team.pk in dq
    table = pool_tables(drawn)[0]
    row = next(r for r in table.rows if r.participant == team.pk)
    assert row.values["played"] == 5 and row.values["points"] == 0
    assert row.values["lus_against"] == 45
    assert AuditEntry.objects.filter(action="team.disqualify").count() == 1


def play_pool(t, director, winner_first=True):
    for match in pool_matches(t):
        voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": match.round.number})


def test_standings_complete_and_knockout_to_final_ranking(voms, director):
    for i in range(8):
        register_team(voms, by=director, name=f"T{i}", players=[f"A{i} B"])
    voms_pools.draw_pools(voms, by=director, pools=2, seed=3)
    play_pool(voms, director)
    tables = pool_tables(voms)
    assert all(t.complete for t in tables)
    qualifiers = [Qualifier(t.pool.index, r.rank, r.participant) for t in tables for r in t.rows if r.rank <= 2]
    stage = voms_knockout.create_knockout(voms, by=director, qualifiers=qualifiers, third_place=True,
                                          semifinal="bracket")
    semis = {m.key: m for m in stage.matches.all()}
    a1, b1 = tables[0].rows[0].participant, tables[1].rows[0].participant
    a2, b2 = tables[0].rows[1].participant, tables[1].rows[1].participant
    assert {(semis["SF1"].team_a_id, semis["SF1"].team_b_id), (semis["SF2"].team_a_id, semis["SF2"].team_b_id)} == {
        (a1, b2), (b1, a2)}
    for key in ("SF1", "SF2", "3P", "F"):
        match = Match.objects.get(stage=stage, key=key)
        games = []
        for _ in range(2):
            games.append({"lus_a": 9, "lus_b": 4})
            sheet = voms_knockout.record_series(match, by=director, games=games,
                                           expected_version=getattr(getattr(match, "sheet", None), "version", None))
            match.refresh_from_db()
        assert sheet.derived["finished"] and sheet.derived["winner"] == "a"
        with pytest.raises(DomainError):
            voms_knockout.record_series(match, by=director, games=[*games, {"lus_a": 9, "lus_b": 1}])
    ranking = final_ranking(voms)
    assert [place for place, _team, _how in ranking] == list(range(1, 9))
    final = Match.objects.get(stage=stage, key="F")
    assert ranking[0][1].pk == final.team_a_id


def test_assistant_cannot_draw_or_register(drawn, assistant_voms):
    with pytest.raises(DomainError):
        voms_pools.draw_pools(drawn, by=assistant_voms, pools=1)
    with pytest.raises(DomainError):
        register_team(drawn, by=assistant_voms, name="X", players=["A B"])


def test_semifinal_round_robin_then_final(voms, director):
    for i in range(8):
        register_team(voms, by=director, name=f"T{i}", players=[f"A{i} B"])
    voms_pools.draw_pools(voms, by=director, pools=2, seed=3)
    play_pool(voms, director)
    tables = pool_tables(voms)
    qualifiers = [Qualifier(t.pool.index, r.rank, r.participant) for t in tables for r in t.rows if r.rank <= 2]
    voms_knockout.create_knockout(voms, by=director, qualifiers=qualifiers, third_place=True, semifinal="round_robin")
    sf = Match.objects.filter(stage__tournament=voms, stage__kind=Stage.Kind.SEMIFINAL_POOL)
    assert sf.count() == 6 and all(m.best_of == 3 for m in sf)
    ko = voms_queries.knockout_stage(voms)
    for match in sf:
        assert not ko.matches.exists()
        voms_knockout.record_series(match, by=director, games=[{"lus_a": 9, "lus_b": 2}, {"lus_a": 9, "lus_b": 3}])
    sf_table = pool_tables(voms, Stage.objects.get(tournament=voms, kind=Stage.Kind.SEMIFINAL_POOL))[0]
    order = [r.participant for r in sf_table.rows]
    final = ko.matches.get(key="F")
    assert (final.team_a_id, final.team_b_id) == (order[0], order[1])
    assert ko.matches.get(key="3P").team_a_id == order[2]
    for key in ("F", "3P"):
        voms_knockout.record_series(ko.matches.get(key=key), by=director,
                               games=[{"lus_a": 2, "lus_b": 9}, {"lus_a": 1, "lus_b": 9}])
    ranking = final_ranking(voms)
    assert [team.pk for _p, team, _h in ranking[:4]] == [order[1], order[0], order[3], order[2]]
    assert [p for p, _t, _h in ranking] == list(range(1, 9))


def test_backup_scheduled_when_a_round_is_complete(drawn, director, monkeypatch):
    calls = []
    monkeypatch.setattr(voms_slips, "schedule_backup_after_round", lambda t, n: calls.append((t.pk, n)))
    first, *rest = pool_matches(drawn, 1)
    voms_slips.record_slip(first, by=director, entry={"lus_a": 9, "lus_b": 1})
    assert calls == []
    for match in rest:
        voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 1})
    assert calls == [(drawn.pk, 1)]


def test_find_my_seat_moves_past_a_bye_once_its_round_is_over(voms, director):
    """Five teams: one sits out each round. Once that round is over, "find my seat" shows the team's real next game,
    not "Round 1: bye" for the rest of the evening; with every pool game in, no game is left (it said "Next game:
    Round 4: bye" to the winner of the whole tournament)."""
    from scoring.games.voms.public import public

    for i in range(5):
        register_team(voms, by=director, name=f"T{i}", players=[f"Player{i} Bye"])
    voms_pools.draw_pools(voms, by=director, pools=1, seed=1)
    pool_games = Match.objects.filter(stage__tournament=voms, stage__kind=Stage.Kind.POOLS)
    bye = pool_games.get(round__number=1, team_b__isnull=True)
    sitting_out = bye.team_a

    def next_games():
        found = public(voms).find(sitting_out.members.get().name)
        return found.sections[0].data["teams"][0]["games"]

    assert next_games()[0]["bye"] and next_games()[0]["round"] == 1  # round 1 still on: the bye is its "game"
    for match in pool_games.filter(round__number=1, team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))
    upcoming = next_games()
    assert upcoming[0]["round"] == 2 and not upcoming[0]["bye"]
    assert all(game["round"] >= 2 for game in upcoming)
    for match in pool_games.filter(team_b__isnull=False, sheet__isnull=True):
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))
    assert next_games() == []
