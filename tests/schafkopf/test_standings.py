"""Schafkopf standings: what the stored lists add up to, in a constant number of queries."""

from dataclasses import replace
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.games.schafkopf import services
from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.standings import standings
from scoring.models import ScoreSheet
from scoring.rules.schafkopf import PrizeSpec
from tournament.models import Seat, Table

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401

pytestmark = pytest.mark.django_db


def queries_for(tournament) -> int:
    with CaptureQueriesContext(connection) as captured:
        standings(tournament)
    return len(captured)


def test_query_count_does_not_grow_with_players(schafkopf, make_tournament, director, add_players, enter_all):
    add_players(schafkopf, 16)
    services.draw_seating(schafkopf, by=director, seed=1)
    enter_all(schafkopf)
    bigger = make_tournament(director, name="Big", game="schafkopf")
    del director._tournament_roles  # the role cache of this user object predates the new tournament
    add_players(bigger, 41)
    services.draw_seating(bigger, by=director, seed=1)
    enter_all(bigger)
    assert queries_for(schafkopf) == queries_for(bigger) <= 5


def test_points_per_round_and_counts_come_from_the_lists(drawn, enter_all):
    enter_all(drawn)
    result = standings(drawn)
    assert result.complete and result.final and len(result.rows) == 16
    assert sum(row.values["points"] for row in result.rows) == 0
    sheets = {s.table_id: s.derived for s in ScoreSheet.objects.all()}
    for row in result.rows[:3]:
        expected = []
        for number in (1, 2):
            seat = Seat.objects.get(participant=row.participant, table__round__number=number)
            expected.append(sheets[seat.table_id]["totals"][str(seat.number)])
        assert row.rounds == expected
        assert row.values["round_spread"] == abs(expected[0] - expected[1])
    points = [row.values["points"] for row in result.rows]
    assert points == sorted(points, reverse=True)


def test_after_round_one_only_round_one_counts(drawn, enter_all):
    enter_all(drawn)
    result = standings(drawn, after_round=1)
    assert not result.final and result.prizes is None
    assert all(len(row.rounds) == 1 for row in result.rows)
    assert result.lists_total == 4 and result.lists_entered == 4


def test_provisional_while_lists_are_missing(drawn, director, a_list):
    table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=1)
    services.enter_sheet(table, by=director, mode="games", entries=a_list())
    result = standings(drawn)
    assert not result.complete and (result.lists_entered, result.lists_total) == (1, 8)
    assert len(result.rows) == 16


def test_a_full_tie_goes_to_lot_and_is_marked(drawn, director):
    # Every list all-zero: everyone ties on every step, the lot orders them all.
    for table in Table.objects.filter(round__stage__tournament=drawn):
        services.enter_sheet(table, by=director, mode="totals",
                             entries=[{"seat": s, "total": 0} for s in range(1, 5)])
    result = standings(drawn)
    assert all(row.by_lot for row in result.rows)
    assert [row.rank for row in result.rows] == list(range(1, 17))
    assert result.any_lot and result.lot_seed is not None
    again = standings(drawn)
    assert [r.participant for r in again.rows] == [r.participant for r in result.rows], "the lot is reproducible"


def test_prizes_by_rank(drawn, director, enter_all):
    services.update_settings(drawn, replace(settings_of(drawn), entry_fee=Decimal("10"), prizes=(
        PrizeSpec("percent", Decimal(50)), PrizeSpec("fixed", Decimal(30)))), by=director)
    enter_all(drawn)
    result = standings(drawn)
    assert result.prizes.takings == Decimal("160.00")
    assert [row.prize for row in result.rows[:3]] == [Decimal("80.00"), Decimal("30.00"), None]


# --- a player who goes home, a substitute on his seat ------------------------------------------------


def withdrawn_with_substitute(drawn, director, add_players, *, points_to_substitute=False):
    """Player 3 goes home after round 1; late-comer 40 plays his round-2 seat; every list is entered."""
    from tournament.models import Participant
    from tournament.services.participants import set_participant_status

    (late,) = add_players(drawn, 1, start=40)
    gone = drawn.participants.get(number=3)
    set_participant_status(gone, Participant.Status.WITHDRAWN, by=director)
    seat = Seat.objects.get(participant=gone, table__round__number=2)
    services.set_substitute(seat, late, by=director, points_to_substitute=points_to_substitute)
    return gone, late


def test_withdrawn_player_is_marked_and_his_substitute_is_listed(drawn, director, add_players, enter_all):
    from scoring.games.schafkopf.documents import ranking_document

    gone, late = withdrawn_with_substitute(drawn, director, add_players)
    enter_all(drawn)
    result = standings(drawn)
    by_player = {row.participant: row for row in result.rows}
    # the seat's points stay with the player who left (as the director chose): he is ranked, and marked
    assert by_player[gone].rank is not None and None not in by_player[gone].rounds
    # the substitute played round 2: never silently absent, but without a rank of his own
    assert late in by_player and by_player[late].rank is None and result.rows[-1].participant == late
    assert result.final
    remarks = {row["number"]: str(row["remark"]) for row in ranking_document(drawn).rows}
    assert remarks[3] == "withdrawn, round 2 played by 40 Anna40 Huber40"
    assert remarks[40] == "played round 2 for 3 Anna3 Huber3"
    notes = [str(note) for note in ranking_document(drawn).notes]
    assert any("substitute" in note for note in notes) and not any("no result yet" in note for note in notes)
    # the public standings say the same
    from scoring.games.schafkopf.public import public

    (section,) = public(drawn).standings()
    html = str(section.data["rows_html"])
    assert "3 · withdrawn, round 2 played by 40 Anna40 Huber40" in html
    assert "40 · played round 2 for 3 Anna3 Huber3" in html
    assert section.data["substitutes"] and not section.data["waiting"]


def test_substitute_credited_is_ranked_and_named_with_the_seat(drawn, director, add_players, enter_all):
    from scoring.games.schafkopf.documents import ranking_document

    gone, late = withdrawn_with_substitute(drawn, director, add_players, points_to_substitute=True)
    enter_all(drawn)
    by_player = {row.participant: row for row in standings(drawn).rows}
    assert by_player[late].rank is not None and by_player[late].rounds[0] is None
    assert by_player[gone].rounds[1] is None
    remarks = {row["number"]: str(row["remark"]) for row in ranking_document(drawn).rows}
    assert remarks[3] == "withdrawn, round 2 played by 40 Anna40 Huber40"
    assert remarks[40] == "played round 2 for 3 Anna3 Huber3"
