"""Schafkopf services with the database: settings, draw and redo, substitutes, lists both ways, corrections,
exclusion."""

from dataclasses import replace
from decimal import Decimal
from itertools import combinations

import pytest
from django.utils import translation

from scoring.games.schafkopf import services
from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.standings import standings
from scoring.models import ScoreSheet, SheetRevision
from scoring.results.recording import StaleVersion
from scoring.rules.schafkopf import TARIFF_PRESETS, PrizeSpec
from scoring.seated import services as seated_services
from tournament.models import AuditEntry, Draw, Participant, Round, Seat, Table
from tournament.services import seating as seating_service
from tournament.services.errors import DomainError
from tournament.services.participants import set_participant_status

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401

pytestmark = pytest.mark.django_db

TOUT_IN_GAME_ONE = "No tout may be played in the first game of a round: correct the game."


def first_table(tournament, round_number=1, number=1) -> Table:
    return Table.objects.select_related("round__stage").get(
        round__stage__tournament=tournament, round__number=round_number, number=number
    )


def totals_entries(totals, counts=None):
    counts = counts or {}
    return [{"seat": seat, "total": total, **counts.get(seat, {})} for seat, total in enumerate(totals, start=1)]


# --- settings --------------------------------------------------------------------------------------


def test_new_tournament_has_the_digests_defaults(schafkopf):
    settings = settings_of(schafkopf)
    assert (settings.rounds, settings.games_per_round, settings.games_at_five) == (2, 30, 40)
    assert settings.tariff == TARIFF_PRESETS["standard"]
    assert settings.games_at(5) == 40 and settings.games_at(4) == 30


def test_settings_are_stored_and_audited(schafkopf, director):
    new = replace(settings_of(schafkopf), rounds=3, tariff=TARIFF_PRESETS["scale_15_5"], entry_fee=Decimal("12.50"),
                  prizes=(PrizeSpec("percent", Decimal(40)),))
    seated_services.update_settings(schafkopf, new, by=director)
    schafkopf.refresh_from_db()
    assert settings_of(schafkopf) == new
    entry = AuditEntry.objects.get(action="schafkopf.settings")
    assert entry.before["rounds"] == 2 and entry.after["rounds"] == 3


def test_play_settings_fixed_once_play_started(drawn, director):
    seated_services.start_round(Round.objects.get(stage__tournament=drawn, number=1), by=director)
    with pytest.raises(DomainError):
        seated_services.update_settings(drawn, replace(settings_of(drawn), tariff=TARIFF_PRESETS["tout_24_8"]),
                                        by=director)
    # money can still change
    seated_services.update_settings(drawn, replace(settings_of(drawn), entry_fee=Decimal(5)), by=director)
    drawn.refresh_from_db()
    assert settings_of(drawn).entry_fee == Decimal(5)
    assert settings_of(drawn).tariff == TARIFF_PRESETS["standard"]


def test_changing_the_rounds_removes_a_drawn_seating(drawn, director):
    _tournament, removed = seated_services.update_settings(drawn, replace(settings_of(drawn), rounds=3), by=director)
    assert removed
    assert not Round.objects.filter(stage__tournament=drawn).exists()


def test_assistant_cannot_change_settings(schafkopf, sk_assistant):
    with pytest.raises(DomainError):
        seated_services.update_settings(schafkopf, replace(settings_of(schafkopf), rounds=3), by=sk_assistant)


# --- the seating draw ------------------------------------------------------------------------------


def seats_by_round(tournament):
    result = {}
    for seat in Seat.objects.filter(table__round__stage__tournament=tournament).select_related("table__round",
                                                                                                 "participant"):
        result.setdefault(seat.table.round.number, {}).setdefault(seat.table.number, {})[seat.number] = (
            seat.participant.number
        )
    return result


def test_draw_stores_every_round_with_seed_and_audit(drawn, director):
    rounds = seats_by_round(drawn)
    assert sorted(rounds) == [1, 2]
    for tables in rounds.values():
        assert len(tables) == 4
        assert sorted(n for table in tables.values() for n in table.values()) == list(range(1, 17))
    pairs = [frozenset(pair) for tables in rounds.values() for table in tables.values()
             for pair in combinations(table.values(), 2)]
    assert len(pairs) == len(set(pairs)), "16 players at 4 tables: nobody meets a table-mate twice"
    seats = {}
    for tables in rounds.values():
        for table in tables.values():
            for seat, number in table.items():
                seats.setdefault(number, []).append(seat)
    assert all(len(set(s)) == 2 for s in seats.values()), "nobody on the same seat number twice"
    draw = seating_service.current_draw(drawn)
    assert draw.seed == 7 and draw.params["repeated_pairs"] == 0 and draw.params["seat_repeats"] == 0
    assert AuditEntry.objects.filter(action="seating.draw", tournament=drawn).count() == 1
    assert Draw.objects.filter(tournament=drawn, kind=Draw.Kind.LOT).count() == 1


def test_the_same_seed_reproduces_the_draw(drawn, director):
    before = seats_by_round(drawn)
    seated_services.draw_seating(drawn, by=director, seed=99)
    assert seats_by_round(drawn) != before
    seated_services.draw_seating(drawn, by=director, seed=7)
    assert seats_by_round(drawn) == before
    assert AuditEntry.objects.filter(action="seating.redraw", tournament=drawn).count() == 2


def test_withdrawn_players_are_not_drawn_and_five_tables_fill_in(schafkopf, director, add_players):
    players = add_players(schafkopf, 18)
    set_participant_status(players[0], Participant.Status.WITHDRAWN, by=director)
    seated_services.draw_seating(schafkopf, by=director, seed=3)
    rounds = seats_by_round(schafkopf)
    sizes = sorted(len(table) for table in rounds[1].values())
    assert sizes == [4, 4, 4, 5]  # 17 players: three 4-tables and one 5-table
    assert players[0].number not in {n for table in rounds[1].values() for n in table.values()}


@pytest.mark.parametrize("count", [3, 6, 7, 11])
def test_unseatable_counts_are_refused_with_advice(schafkopf, director, add_players, count):
    add_players(schafkopf, count)
    with pytest.raises(DomainError) as error:
        seated_services.draw_seating(schafkopf, by=director)
    assert f"{count} players cannot be seated" in error.value.message
    assert "Add" in error.value.message
    assert not Table.objects.filter(round__stage__tournament=schafkopf).exists()


def test_clubs_and_groups_sit_apart_and_a_fixed_player_keeps_his_table(schafkopf, director, add_players):
    players = add_players(schafkopf, 20, clubs=("A", "B", "C", "D", "E"))
    seated_services.set_fixed_table(players[0], 2, by=director)
    seated_services.draw_seating(schafkopf, by=director, seed=5)
    rounds = seats_by_round(schafkopf)
    club = {p.number: p.club for p in players}
    for tables in rounds.values():
        for table in tables.values():
            clubs = [club[n] for n in table.values()]
            assert len(clubs) == len(set(clubs))
    assert all(players[0].number in tables[2].values() for tables in rounds.values())


def test_redo_refused_once_round_one_started(drawn, director):
    seated_services.start_round(Round.objects.get(stage__tournament=drawn, number=1), by=director)
    before = seats_by_round(drawn)
    with pytest.raises(DomainError) as error:
        seated_services.draw_seating(drawn, by=director, seed=123)
    assert "substitute" in error.value.message
    assert seats_by_round(drawn) == before


def test_redo_refused_once_a_list_is_entered(drawn, director, a_list):
    services.enter_sheet(first_table(drawn), by=director, mode="games", entries=a_list())
    assert Round.objects.get(stage__tournament=drawn, number=1).starts_at is not None
    with pytest.raises(DomainError):
        seated_services.draw_seating(drawn, by=director)


def test_only_a_director_draws(drawn, sk_assistant):
    with pytest.raises(DomainError):
        seated_services.draw_seating(drawn, by=sk_assistant)


# --- substitutes -----------------------------------------------------------------------------------


def test_substitute_takes_a_seat_and_may_take_its_points(drawn, director, add_players, a_list):
    (late,) = add_players(drawn, 1, start=40)
    seat = Seat.objects.get(table=first_table(drawn), number=2)
    original = seat.participant
    seated_services.set_substitute(seat, late, by=director, points_to_substitute=True, reason="ill")
    seat.refresh_from_db()
    assert seat.substitute == late and seat.points_to_substitute
    assert AuditEntry.objects.get(action="schafkopf.substitute").reason == "ill"
    services.enter_sheet(first_table(drawn), by=director, mode="games", entries=a_list())
    result = standings(drawn, after_round=1)
    by_player = {row.participant: row for row in result.rows}
    total = ScoreSheet.objects.get(table=first_table(drawn)).derived["totals"]["2"]
    assert by_player[late].rounds == [total]
    assert by_player[original].rounds == [None]


def test_substitute_already_playing_in_the_round_refused(drawn, director):
    seat = Seat.objects.get(table=first_table(drawn), number=1)
    elsewhere = Seat.objects.get(table=first_table(drawn, number=2), number=1).participant
    with pytest.raises(DomainError):
        seated_services.set_substitute(seat, elsewhere, by=director)
    with pytest.raises(DomainError):
        seated_services.set_substitute(seat, seat.participant, by=director)


# --- score lists -----------------------------------------------------------------------------------


def test_list_game_by_game_derives_totals_and_counts(drawn, director, a_list):
    entries = a_list()
    sheet = services.enter_sheet(first_table(drawn), by=director, mode="games", entries=entries)
    assert sheet.mode == "games" and sheet.entries == entries and sheet.version == 1
    assert sum(sheet.derived["totals"].values()) == 0
    solos = sum(1 for e in entries if e["game_type"] != "ruf")
    assert sum(c["solo_played"] for c in sheet.derived["counts"].values()) == solos
    assert AuditEntry.objects.filter(action="sheet.entry").count() == 1


def test_list_totals_only(drawn, director):
    counts = {1: {"solo_played": 3, "solo_won": 2, "tout_played": 1, "tout_won": 1}}
    sheet = services.enter_sheet(first_table(drawn), by=director, mode="totals",
                                 entries=totals_entries([20, -4, -6, -10], counts))
    assert sheet.derived["totals"] == {"1": 20, "2": -4, "3": -6, "4": -10}
    assert sheet.derived["counts"]["1"] == counts[1]
    assert sheet.derived["counts"]["2"]["solo_played"] == 0


def test_totals_that_do_not_sum_to_zero_are_refused(drawn, director):
    with pytest.raises(services.ListRefused) as error:
        services.enter_sheet(first_table(drawn), by=director, mode="totals", entries=totals_entries([20, -4, -6, -9]))
    assert "add up to 1 instead of 0" in error.value.message
    assert not ScoreSheet.objects.exists()


def test_tout_in_game_one_refused_translated_and_nothing_saved(drawn, director, a_list):
    entries = a_list()
    entries[0] = {**entries[0], "game_type": "solo", "partner": None, "tout": True, "tout_initials": "MH",
                  "declarer": 2}
    with translation.override("de"):
        with pytest.raises(services.ListRefused) as error:
            services.enter_sheet(first_table(drawn), by=director, mode="games", entries=entries)
        expected = translation.gettext(TOUT_IN_GAME_ONE)
    assert error.value.message == expected != TOUT_IN_GAME_ONE
    assert error.value.game_number == 1
    assert not ScoreSheet.objects.exists() and not SheetRevision.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="sheet").exists()


def test_a_list_needs_every_game(drawn, director, a_list):
    with pytest.raises(services.ListRefused) as error:
        services.enter_sheet(first_table(drawn), by=director, mode="games", entries=a_list()[:29])
    assert "29 games" in error.value.message and "30" in error.value.message


def test_five_table_plays_forty_games_and_the_dealer_sits_out(schafkopf, director, add_players, a_list):
    add_players(schafkopf, 17)
    seated_services.draw_seating(schafkopf, by=director, seed=2)
    five = Table.objects.filter(round__stage__tournament=schafkopf, round__number=1, seats__number=5).get()
    entries = a_list(40, 5)
    entries[0] = {**entries[0], "declarer": 1}  # seat 1 deals game 1 and sits out
    with pytest.raises(services.ListRefused) as error:
        services.enter_sheet(five, by=director, mode="games", entries=entries)
    assert error.value.game_number == 1 and "sits it out" in error.value.message
    services.enter_sheet(five, by=director, mode="games", entries=a_list(40, 5))


def test_assistant_enters_but_only_a_director_corrects_with_reason(drawn, director, sk_assistant, a_list):
    table = first_table(drawn)
    sheet = services.enter_sheet(table, by=sk_assistant, mode="games", entries=a_list(), expected_version=0)
    changed = a_list(seed=2)
    with pytest.raises(DomainError):
        services.enter_sheet(table, by=sk_assistant, mode="games", entries=changed, expected_version=1)
    with pytest.raises(DomainError) as error:
        services.enter_sheet(table, by=director, mode="games", entries=changed, expected_version=1)
    assert error.value.field == "reason"
    sheet = services.enter_sheet(table, by=director, mode="games", entries=changed, expected_version=1,
                                 reason="game 7 was a Wenz")
    assert sheet.corrected and sheet.version == 2 and sheet.entries == changed
    correction = SheetRevision.objects.get(sheet=sheet, version=2)
    assert correction.kind == "correction" and correction.by == director and correction.reason == "game 7 was a Wenz"
    audit = AuditEntry.objects.get(action="sheet.correction")
    assert audit.user == director and audit.before["entries"] != audit.after["entries"]
    assert standings(drawn, after_round=1).corrected_lists == [(1, 1)]


def test_a_reason_with_control_characters_is_stored_without_them(drawn, director, a_list):
    """A pasted NUL would make PostgreSQL refuse the row (a 500); a reason of control characters only is none."""
    table = first_table(drawn)
    services.enter_sheet(table, by=director, mode="games", entries=a_list(), expected_version=0)
    with pytest.raises(DomainError) as error:
        services.enter_sheet(table, by=director, mode="games", entries=a_list(seed=2), expected_version=1,
                             reason="\x00\x07")
    assert error.value.field == "reason"
    sheet = services.enter_sheet(table, by=director, mode="games", entries=a_list(seed=2), expected_version=1,
                                 reason="game\x00 7\nwas a Wenz")
    assert SheetRevision.objects.get(sheet=sheet, version=2).reason == "game 7\nwas a Wenz"


def test_stale_version_is_a_conflict(drawn, director, a_list):
    table = first_table(drawn)
    services.enter_sheet(table, by=director, mode="games", entries=a_list(), expected_version=0)
    with pytest.raises(StaleVersion):
        services.enter_sheet(table, by=director, mode="games", entries=a_list(seed=3), expected_version=0,
                             reason="mine")
    assert ScoreSheet.objects.get(table=table).version == 1


# --- exclusion -------------------------------------------------------------------------------------


def test_excluded_player_stays_on_the_lists_marked_last_and_without_prize(drawn, director, enter_all):
    seated_services.update_settings(drawn, replace(settings_of(drawn), entry_fee=Decimal(10),
                                            prizes=(PrizeSpec("fixed", Decimal(50)),)), by=director)
    enter_all(drawn)
    winner = standings(drawn).rows[0].participant
    with pytest.raises(DomainError):
        set_participant_status(winner, Participant.Status.EXCLUDED, by=director)  # a reason is needed
    set_participant_status(winner, Participant.Status.EXCLUDED, by=director, reason="marked cards")
    result = standings(drawn)
    last = result.rows[-1]
    assert last.participant == winner and last.excluded and last.prize is None
    assert result.rows[0].prize == Decimal("50.00")
    assert result.prizes.takings == Decimal("160.00")  # the excluded player's fee is not refunded
    assert len(result.rows) == 16


def test_laufende_count_from_the_threshold_when_the_tariff_says_so(drawn, director, a_list):
    from scoring.rules.schafkopf import Tariff

    tariff = Tariff("with Laufende", laufende_from=3, laufende_value=1)
    seated_services.update_settings(drawn, replace(settings_of(drawn), tariff=tariff), by=director)
    entries = a_list()
    entries[1] = {**entries[1], "game_type": "solo", "partner": None, "won": True, "schneider": False,
                  "schwarz": False, "tout": False, "tout_initials": "", "laufende": 4}
    sheet = services.enter_sheet(first_table(drawn), by=director, mode="games", entries=entries)
    plain = [{**e, "laufende": 0} for e in entries]
    without = services.make_derive(replace(settings_of(drawn), tariff=tariff), 4)(plain, "games")
    declarer = str(entries[1]["declarer"])
    assert sheet.derived["totals"][declarer] - without["totals"][declarer] == 3 * 4  # 4 Laufende, 1 each x 3
