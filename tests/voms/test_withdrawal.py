"""A Voms team that leaves early is withdrawn from round N (voms.md, Decision "a team leaves early"): its earlier
results stand, every game of it from round N on is a 9:0 forfeit for the opponent without a slip, and it is marked
"withdrawn from round N" wherever it appears; undoing the withdrawal restores what was typed."""

import html
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from documents import render
from scoring.games.voms import entries as voms_entries
from scoring.games.voms import queries as voms_queries
from scoring.games.voms.documents import build
from scoring.games.voms.services import progress as voms_progress
from scoring.games.voms.services import slips as voms_slips
from scoring.games.voms.services import withdrawal
from scoring.games.voms.standings import pool_tables
from tests.pdf_text import page_texts
from tournament.audit_labels import action_label
from tournament.models import AuditEntry, Match, Stage, Team
from tournament.services.errors import DomainError

pytestmark = pytest.mark.django_db

MARK = "Team 1 (withdrawn from round 3)"


def games_of(team, **filters):
    return [m for m in Match.objects.filter(stage__tournament=team.tournament, team_b__isnull=False, **filters)
            .select_related("round", "team_a", "team_b").order_by("round__number")
            if team.pk in (m.team_a_id, m.team_b_id)]


def play_rounds(tournament, director, *numbers):
    """Every game of the rounds still to enter: team A 9, team B 4."""
    state = voms_queries.pool_state(tournament)
    for match in Match.objects.filter(stage__tournament=tournament, team_b__isnull=False, round__number__in=numbers):
        if state.result(match.pk).entered:
            continue  # a withdrawn team's game: there is nothing to enter
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))


@pytest.fixture
def team1(drawn):
    return Team.objects.get(tournament=drawn, name="Team 1")


@pytest.fixture
def left(drawn, director, team1):
    """Rounds 1 and 2 played; Team 1 leaves and is withdrawn from round 3 on."""
    play_rounds(drawn, director, 1, 2)
    withdrawal.withdraw_team(team1, by=director, from_round=3)
    return team1


def opponent_side(match, team):
    return "b" if match.team_a_id == team.pk else "a"


def test_its_games_from_the_round_on_are_forfeits_for_the_opponents_and_its_earlier_results_stand(
        drawn, director, left):
    state = voms_queries.pool_state(drawn)
    assert state.derivation.withdrawn == {left.pk: 3} and state.disqualified == {}
    for match in games_of(left, round__number__gte=3):
        result = state.result(match.pk)
        assert result.outcome == "disqualified_forfeit" and result.entered  # counted as entered, no slip
        side = opponent_side(match, left)
        assert result.game.winner == side and (result.game.lus_a, result.game.lus_b) == (
            (9, 0) if side == "a" else (0, 9))
        assert getattr(result.game, f"points_{side}") == Decimal("2.5")
    for match in games_of(left, round__number__lte=2):
        assert state.result(match.pk).outcome == "as_entered"  # the earlier results stand
    row = next(r for r in pool_tables(drawn)[0].rows if r.participant == left.pk)
    earlier = sum(game.points_a if game.team_a == left.pk else game.points_b
                  for m in games_of(left, round__number__lte=2) if (game := state.result(m.pk).played_game()))
    assert row.values["points"] == earlier and row.values["played"] == 5


def test_a_round_whose_only_missing_games_are_the_withdrawn_teams_is_complete(drawn, director, left):
    for match in Match.objects.filter(stage__tournament=drawn, round__number=3, team_b__isnull=False):
        if left.pk not in (match.team_a_id, match.team_b_id):
            voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=2))
    stage = Stage.objects.get(tournament=drawn, kind=Stage.Kind.POOLS)
    assert voms_queries.current_round(stage).number == 4
    assert voms_progress.round_complete(drawn, stage.rounds.get(number=3))
    progress = voms_progress.progress(drawn)
    assert progress.entered == 3 + 3 + 3 + 2  # rounds 1-3, and Team 1's forfeits of rounds 4 and 5


def test_no_slip_is_typed_for_its_games_and_undoing_restores_what_was_typed(drawn, director, team1):
    play_rounds(drawn, director, 1, 2)
    typed = games_of(team1, round__number=3)[0]
    voms_slips.record_slip(typed, by=director,
                         entry=voms_entries.slip_entry(lus_a=9, lus_b=3) if typed.team_a_id == team1.pk
                         else voms_entries.slip_entry(lus_a=3, lus_b=9))  # Team 1 won its round-3 game 9:3
    withdrawal.withdraw_team(team1, by=director, from_round=3)
    state = voms_queries.pool_state(drawn)
    assert state.result(typed.pk).outcome == "disqualified_forfeit"  # the typed win no longer counts
    later = games_of(team1, round__number=4)[0]
    with pytest.raises(DomainError, match="withdrawn from round 3: this game counts 9:0"):
        voms_slips.record_slip(later, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=5))
    withdrawal.undo_withdrawal(team1, by=director)
    state = voms_queries.pool_state(drawn)
    assert state.result(typed.pk).outcome == "as_entered" and state.result(typed.pk).game.winner == (
        "a" if typed.team_a_id == team1.pk else "b")
    assert state.result(later.pk).outcome == "missing" and state.marks == {}


def test_the_withdrawal_and_its_undoing_are_audited_with_translated_labels(drawn, director, left):
    withdrawal.undo_withdrawal(left, by=director)
    entries = list(AuditEntry.objects.filter(tournament=drawn, action__in=["team.withdraw_round",
                                                                           "team.withdrawal_undone"])
                   .order_by("pk"))
    assert [(e.action, e.before, e.after) for e in entries] == [
        ("team.withdraw_round", {"withdrawn_from_round": None}, {"withdrawn_from_round": 3}),
        ("team.withdrawal_undone", {"withdrawn_from_round": 3}, {"withdrawn_from_round": None})]
    with translation.override("de"):
        assert action_label("team.withdraw_round") == "Team ab einer Runde zurückgezogen"
    with translation.override("da"):
        assert action_label("team.withdrawal_undone") == "Holdets tilbagetrækning fortrudt"


def test_what_is_refused(drawn, director, assistant_voms, team1):
    with pytest.raises(DomainError, match="Only a director"):
        withdrawal.withdraw_team(team1, by=assistant_voms, from_round=2)
    for number in (0, 6):
        with pytest.raises(DomainError, match="not a round of the pools"):
            withdrawal.withdraw_team(team1, by=director, from_round=number)
    assert Team.objects.get(pk=team1.pk).withdrawn_from_round is None


def test_the_knockout_passes_over_a_withdrawn_team(drawn, director, client):
    play_rounds(drawn, director, 1, 2, 3, 4)
    best = pool_tables(drawn)[0].rows[0].participant
    withdrawal.withdraw_team(Team.objects.get(pk=best), by=director, from_round=5)
    play_rounds(drawn, director, 5)
    table = pool_tables(drawn)[0]
    assert next(r.rank for r in table.rows if r.participant == best) <= 4  # it would qualify on its rank
    client.force_login(director)
    response = client.post(reverse("tournament:voms:knockout", args=[drawn.slug]),
                           {"qualifiers_per_pool": 4, "semifinal": "bracket"})
    assert response.status_code == 302
    stage = Stage.objects.get(tournament=drawn, kind=Stage.Kind.KNOCKOUT)
    picked = [team for _pool, _place, team in stage.settings["qualifiers"]]
    expected = [r.participant for r in table.rows if r.participant != best][:4]
    assert best not in picked and picked == expected
    with pytest.raises(DomainError, match="knockout is built already"):
        withdrawal.undo_withdrawal(Team.objects.get(pk=best), by=director)


# --- the pages -------------------------------------------------------------------------------------------


def page(client, name, tournament, *args, **query):
    return html.unescape(client.get(reverse(name, args=[tournament.slug, *args]), query).content.decode())


def test_the_team_page_leads_to_the_withdrawal_which_is_confirmed_before_it_is_saved(drawn, director, client, team1):
    client.force_login(director)
    address = reverse("tournament:voms:withdraw", args=[drawn.slug, team1.pk])
    entry = page(client, "tournament:desk_entry", drawn, team1.pk)
    assert f'href="{address}"' in entry and "Withdraw from a round on (the team leaves early)" in entry
    play_rounds(drawn, director, 1, 2)
    form = page(client, "tournament:voms:withdraw", drawn, team1.pk)
    assert 'name="from_round"' in form and "autofocus" in form
    assert '<option value="3" selected>3</option>' in form  # the round still to play is offered first
    asked = client.post(address, {"action": "withdraw", "from_round": 3})
    text = html.unescape(asked.content.decode())
    assert asked.status_code == 200 and "Withdraw Team 1 from round 3 on?" in text
    assert "Its results of rounds 1 to 2 stand." in text and "count 9:0 for the opponents, without a slip" in text
    assert "“withdrawn from round 3”" in text and 'name="confirmed" value="1"' in text
    assert Team.objects.get(pk=team1.pk).withdrawn_from_round is None  # nothing saved yet
    done = client.post(address, {"action": "withdraw", "from_round": 3, "confirmed": "1"})
    assert done.status_code == 302 and done["Location"] == reverse("tournament:desk_entry",
                                                                   args=[drawn.slug, team1.pk])
    assert Team.objects.get(pk=team1.pk).withdrawn_from_round == 3
    assert "withdrawn from round 3" in page(client, "tournament:desk_entry", drawn, team1.pk)
    undo = html.unescape(client.post(address, {"action": "undo"}).content.decode())
    assert "Undo the withdrawal of Team 1?" in undo
    client.post(address, {"action": "undo", "confirmed": "1"})
    assert Team.objects.get(pk=team1.pk).withdrawn_from_round is None


def test_a_bad_round_is_refused_with_a_message_and_nothing_changes(drawn, director, client, team1):
    client.force_login(director)
    address = reverse("tournament:voms:withdraw", args=[drawn.slug, team1.pk])
    response = client.post(address, {"action": "withdraw", "from_round": 42, "confirmed": "1"})
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert Team.objects.get(pk=team1.pk).withdrawn_from_round is None


def test_an_assistant_cannot_withdraw_a_team(drawn, assistant_voms, client, team1):
    client.force_login(assistant_voms)
    address = reverse("tournament:voms:withdraw", args=[drawn.slug, team1.pk])
    response = client.post(address, {"action": "withdraw", "from_round": 2, "confirmed": "1"})
    assert response.status_code in (302, 403, 404)
    assert Team.objects.get(pk=team1.pk).withdrawn_from_round is None


def test_the_director_pages_mark_the_withdrawn_team(drawn, director, client, left):
    client.force_login(director)
    board = html.unescape(client.get(reverse("tournament:voms:board_part", args=[drawn.slug, "3"])).content.decode())
    assert "Team 1 withdrawn: counts 9:0 for the opponent" in board
    for name in ("draw", "enter", "schedule", "standings"):
        assert MARK in page(client, f"tournament:voms:{name}", drawn), name
    for name in ("tournament:desk", "tournament:checkin"):
        assert "withdrawn from round 3" in page(client, name, drawn), name


def test_the_printouts_and_the_excel_file_mark_the_withdrawn_team(drawn, director, left):
    for name in ("standings", "schedule", "results", "crosstables", "pools"):
        text = " ".join(" ".join(t.split()) for t in page_texts(render(build(drawn, name), "pdf", tournament=drawn)))
        assert MARK in text, name
    results = " ".join(" ".join(t.split()) for t in page_texts(render(build(drawn, "results"), "pdf",
                                                                          tournament=drawn)))
    assert "forfeit: Team 1 withdrawn" in results
    book = load_workbook(io.BytesIO(render(build(drawn, "standings"), "xlsx", tournament=drawn)))
    cells = [str(value) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True) for value in row]
    assert MARK in cells


def test_the_public_pages_mark_the_withdrawn_team(drawn, director, client, left):
    from tournament.services.publishing import KINDS, set_publication

    set_publication(drawn, by=director, kinds=KINDS)
    for name in ("standings", "schedule", "results", "beamer"):
        assert MARK in page(client, f"public:{name}", drawn), name
    found = page(client, "public:seat", drawn, q="P0 One")
    assert "This team is out of the tournament: withdrawn from round 3." in found


def test_a_tournament_file_keeps_the_withdrawal(drawn, director, left, settings, tmp_path):
    from tournament.transfer import export_tournament, import_tournament

    copy = import_tournament(export_tournament(drawn), by=director, as_new=True)
    assert Team.objects.get(tournament=copy, name="Team 1").withdrawn_from_round == 3
    assert list(voms_queries.marks_of(copy).values()) == ["withdrawn from round 3"]
    assert voms_progress.progress(copy).entered == voms_progress.progress(drawn).entered
