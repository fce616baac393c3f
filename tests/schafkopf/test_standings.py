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
from scoring.seated import services as seated_services
from tournament.models import Seat, Table

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401

pytestmark = pytest.mark.django_db


def queries_for(tournament) -> int:
    with CaptureQueriesContext(connection) as captured:
        standings(tournament)
    return len(captured)


def test_query_count_does_not_grow_with_players(schafkopf, make_tournament, director, add_players, enter_all):
    add_players(schafkopf, 16)
    seated_services.draw_seating(schafkopf, by=director, seed=1)
    enter_all(schafkopf)
    bigger = make_tournament(director, name="Big", game="schafkopf")
    del director._tournament_roles  # the role cache of this user object predates the new tournament
    add_players(bigger, 41)
    seated_services.draw_seating(bigger, by=director, seed=1)
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
    seated_services.update_settings(drawn, replace(settings_of(drawn), entry_fee=Decimal("10"), prizes=(
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
    seated_services.set_substitute(seat, late, by=director, points_to_substitute=points_to_substitute)
    return gone, late


def test_withdrawn_player_is_marked_and_his_substitute_is_listed(drawn, director, add_players, enter_all):
    from scoring.games.schafkopf.documents import PRINTOUTS

    gone, late = withdrawn_with_substitute(drawn, director, add_players)
    enter_all(drawn)
    result = standings(drawn)
    by_player = {row.participant: row for row in result.rows}
    # the seat's points stay with the player who left (as the director chose): he is ranked, and marked
    assert by_player[gone].rank is not None and None not in by_player[gone].rounds
    # the substitute played round 2: never silently absent, but without a rank of his own
    assert late in by_player and by_player[late].rank is None and result.rows[-1].participant == late
    assert result.final
    remarks = {row["number"]: str(row["remark"]) for row in PRINTOUTS.ranking_document(drawn).rows}
    assert remarks[3] == "withdrawn, round 2 played by 40 Anna40 Huber40, did not play every round"
    assert remarks[40] == "played round 2 for 3 Anna3 Huber3"
    notes = [str(note) for note in PRINTOUTS.ranking_document(drawn).notes]
    assert any("substitute" in note for note in notes) and not any("no result yet" in note for note in notes)
    # the public standings say the same
    from scoring.games.schafkopf.public import public

    picture, section = public(drawn).standings()  # the standings round by round, then the table
    assert picture.template == "public/_chart.html"
    html = str(section.data["rows_html"])
    assert "3 · withdrawn, round 2 played by 40 Anna40 Huber40, did not play every round" in html
    assert "40 · played round 2 for 3 Anna3 Huber3" in html
    assert section.data["substitutes"] and not section.data["waiting"]


def test_substitute_credited_is_ranked_and_named_with_the_seat(drawn, director, add_players, enter_all):
    from scoring.games.schafkopf.documents import PRINTOUTS

    gone, late = withdrawn_with_substitute(drawn, director, add_players, points_to_substitute=True)
    enter_all(drawn)
    by_player = {row.participant: row for row in standings(drawn).rows}
    assert by_player[late].rank is not None and by_player[late].rounds[0] is None
    assert by_player[gone].rounds[1] is None
    remarks = {row["number"]: str(row["remark"]) for row in PRINTOUTS.ranking_document(drawn).rows}
    assert remarks[3] == "withdrawn, round 2 played by 40 Anna40 Huber40, did not play every round"
    assert remarks[40] == "played round 2 for 3 Anna3 Huber3, did not play every round"


# --- prizes and players who did not play every round (rules/table-games.md, every seated game) ----------------


def prizes_for_everyone(drawn, director):
    """16 prizes of 16.00 down to 1.00: every ranked player is in the prizes, each place a different amount."""
    amounts = [Decimal(n) for n in range(16, 0, -1)]
    seated_services.update_settings(drawn, replace(settings_of(drawn), entry_fee=Decimal("10"), prizes=tuple(
        PrizeSpec("fixed", amount) for amount in amounts)), by=director)
    return [amount.quantize(Decimal("0.01")) for amount in amounts]


def test_player_who_did_not_play_every_round_wins_no_prize_unless_ticked(drawn, director, add_players, enter_all):
    from scoring.games.schafkopf.documents import PRINTOUTS
    from scoring.withdrawals import set_prize_eligible

    amounts = prizes_for_everyone(drawn, director)
    gone, _late = withdrawn_with_substitute(drawn, director, add_players)
    enter_all(drawn)
    result = standings(drawn)
    ranked = [row for row in result.rows if row.has_result]
    by_player = {row.participant: row for row in ranked}
    assert by_player[gone].missed == [2] and not by_player[gone].prize_eligible
    # ranked where his points put him, but no prize: each prize goes to the next eligible player
    assert by_player[gone].rank is not None and by_player[gone].prize is None
    assert [row.prize for row in ranked if row.participant != gone] == amounts[:len(ranked) - 1]
    assert [row.participant for row in result.not_eligible] == [gone]
    document = PRINTOUTS.ranking_document(drawn)
    remarks = {row["number"]: str(row["remark"]) for row in document.rows}
    assert remarks[3].endswith("not eligible: did not play every round")
    assert any("No prize for 3 Anna3 Huber3: not eligible" in str(note) for note in document.notes)

    set_prize_eligible(gone, True, by=director)
    result = standings(drawn)
    row = next(row for row in result.rows if row.participant == gone)
    assert row.prize_eligible and row.prize == amounts[row.rank - 1] and not result.not_eligible
    remarks = {row["number"]: str(row["remark"]) for row in PRINTOUTS.ranking_document(drawn).rows}
    assert remarks[3].endswith("did not play every round, eligible by the director's decision")


def test_credited_substitute_who_played_one_round_is_not_eligible_either(drawn, director, add_players, enter_all):
    prizes_for_everyone(drawn, director)
    gone, late = withdrawn_with_substitute(drawn, director, add_players, points_to_substitute=True)
    enter_all(drawn)
    by_player = {row.participant: row for row in standings(drawn).rows}
    assert by_player[late].missed == [1] and by_player[late].prize is None
    assert by_player[gone].missed == [2] and by_player[gone].prize is None


def test_prize_tick_is_the_directors_and_audited(drawn, director, django_user_model):
    from scoring.withdrawals import set_prize_eligible
    from tournament.audit_labels import action_label
    from tournament.models import AuditEntry
    from tournament.services.errors import DomainError

    player = drawn.participants.get(number=5)
    stranger = django_user_model.objects.create_user(username="stranger", password="pw-Stranger-1")
    with pytest.raises(DomainError):
        set_prize_eligible(player, True, by=stranger)
    player.refresh_from_db()
    assert not player.prize_eligible
    set_prize_eligible(player, True, by=director, reason="played on after a phone call")
    player.refresh_from_db()
    entry = AuditEntry.objects.filter(action="participant.prize_eligible").get()
    assert player.prize_eligible and entry.before == {"prize_eligible": False}
    assert entry.after == {"prize_eligible": True}
    assert action_label(entry.action) != entry.action  # a translated label, not the key
