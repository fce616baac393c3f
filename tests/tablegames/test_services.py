"""Table-game services with the database: the draw, entering sheets hand by hand, corrections, end of game."""

import dataclasses
from collections import Counter
from itertools import combinations

import pytest
from django.utils import translation

from scoring.games.tablegames import services
from scoring.games.tablegames.config import settings_of
from scoring.models import ScoreSheet, SheetRevision
from scoring.results.recording import StaleVersion
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tournament.models import AuditEntry, Draw, Participant, Round, Table
from tournament.services.errors import DomainError
from tournament.services.participants import set_participant_status

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_rummi  # noqa: F401

pytestmark = pytest.mark.django_db


def rummi_hand(out, *penalties, hand_rummi=False):
    """A rummi hand as the sheet stores it: who went out and each seat's penalty as typed."""
    return {"out": out, "hand_rummi": hand_rummi,
            "penalties": {str(seat): typed for seat, typed in enumerate(penalties, start=1)}}


def per_seat(*values):
    return {str(seat): value for seat, value in enumerate(values, start=1)}


def seated(make_game, add_players, director, key, variant=None, players=4, **rules):
    tournament = make_game(key, variant, **rules)
    add_players(tournament, players)
    seated_services.draw_seating(tournament, by=director, seed=3)
    return tournament


def first_table(tournament, round_number=1):
    return Table.objects.get(round__stage__tournament=tournament, round__number=round_number, number=1)


# --- the draw -----------------------------------------------------------------------------------------------------


def test_draw_seats_everyone_at_tables_of_the_preferred_size(rummi, director, add_players):
    add_players(rummi, 14)
    draw = seated_services.draw_seating(rummi, by=director, seed=11)
    tables = seated_tables(rummi)
    assert sorted(tables) == [1, 2, 3], "three rounds by default"
    for round_tables in tables.values():
        assert [t.size for t in round_tables] == [4, 4, 3, 3]
        assert sorted(s.participant.number for t in round_tables for s in t.seats) == list(range(1, 15))
    assert draw.seed == 11 and draw.params["table_sizes"] == [4, 4, 3, 3]
    assert Draw.objects.filter(tournament=rummi, kind=Draw.Kind.LOT).count() == 1
    assert AuditEntry.objects.filter(tournament=rummi, action="seating.draw").count() == 1


def test_the_same_seed_draws_the_same_seating(rummi, director, add_players):
    add_players(rummi, 12)

    def plan():
        return [[tuple(s.participant.number for s in t.seats) for t in tables]
                for _number, tables in sorted(seated_tables(rummi).items())]

    seated_services.draw_seating(rummi, by=director, seed=5)
    first = plan()
    seated_services.draw_seating(rummi, by=director, seed=6)
    assert plan() != first
    seated_services.draw_seating(rummi, by=director, seed=5)
    assert plan() == first
    assert AuditEntry.objects.filter(tournament=rummi, action="seating.redraw").count() == 2


def test_a_family_sits_at_different_tables(rummi, director, add_players):
    add_players(rummi, 12, groups=("Holm", "Holm", "Holm"))
    seated_services.draw_seating(rummi, by=director, seed=2)
    for tables in seated_tables(rummi).values():
        for table in tables:
            assert sum(s.participant.group == "Holm" for s in table.seats) <= 1


def test_few_repeated_opponents_over_three_rounds(rummi, director, add_players):
    add_players(rummi, 16)
    seated_services.draw_seating(rummi, by=director, seed=8)
    meetings = Counter(
        frozenset(pair) for tables in seated_tables(rummi).values() for table in tables
        for pair in combinations([s.participant_id for s in table.seats], 2)
    )
    assert max(meetings.values()) == 1, "16 players at tables of 4 meet nobody twice in 3 rounds"


def test_a_count_the_preferred_sizes_cannot_seat_gets_other_allowed_sizes(make_game, director, add_players):
    domino = make_game("domino")
    add_players(domino, 5)
    draw = seated_services.draw_seating(domino, by=director, seed=1)
    assert draw.params["table_sizes"] == [3, 2]


def test_a_count_nothing_can_seat_is_refused_with_a_translated_message(rummi, director, add_players):
    add_players(rummi, 1)
    with pytest.raises(DomainError) as english:
        seated_services.draw_seating(rummi, by=director)
    with translation.override("de"), pytest.raises(DomainError) as german:
        seated_services.draw_seating(rummi, by=director)
    assert "cannot be seated" in english.value.message and "Add 1 player(s)" in english.value.message
    assert german.value.message != english.value.message
    assert not Draw.objects.filter(tournament=rummi).exists()


def test_only_active_players_are_seated(rummi, director, add_players):
    players = add_players(rummi, 13)
    set_participant_status(players[0], Participant.Status.WITHDRAWN, by=director)
    seated_services.draw_seating(rummi, by=director, seed=4)
    seated_ids = {s.participant_id for t in seated_tables(rummi)[1] for s in t.seats}
    assert players[0].pk not in seated_ids and len(seated_ids) == 12


def test_the_draw_can_be_redone_until_the_first_sheet(drawn, director):
    seated_services.draw_seating(drawn, by=director, seed=9)
    table = first_table(drawn)
    services.enter_sheet(table, by=director, entries=[rummi_hand(1, "0", "5", "5", "5")])
    with pytest.raises(DomainError, match="Play has started"):
        seated_services.draw_seating(drawn, by=director, seed=10)
    assert Draw.objects.filter(tournament=drawn, kind=Draw.Kind.SEATING).latest().seed == 9
    assert Round.objects.get(stage__tournament=drawn, number=1).starts_at is not None


def test_only_a_director_draws(drawn, tg_assistant):
    with pytest.raises(DomainError):
        seated_services.draw_seating(drawn, by=tg_assistant)


def test_a_patience_seats_the_whole_field_on_one_sheet_per_deal(make_game, director, add_players):
    patience = make_game("domino_patience", "bingo", rounds=2)
    players = add_players(patience, 9)
    set_participant_status(players[4], Participant.Status.WITHDRAWN, by=director)
    seated_services.draw_seating(patience, by=director)
    tables = seated_tables(patience)
    assert sorted(tables) == [1, 2]
    for round_tables in tables.values():
        assert len(round_tables) == 1
        assert [s.participant.number for s in round_tables[0].seats] == [1, 2, 3, 4, 6, 7, 8, 9]


# --- settings -------------------------------------------------------------------------------------------------------


def test_settings_keep_every_number_of_the_digest_as_default(make_game):
    rummi = settings_of(make_game("rummi"))
    assert (rummi.rules.joker_points, rummi.rules.limit, rummi.rules.ace_points, rummi.rules.cards_each) == (
        20, 250, 11, 13)
    fives = settings_of(make_game("domino", "femmer", name="Fives"))
    assert fives.rules.target == 100 and dict(fives.rules.tiles_each) == {2: 7, 3: 5, 4: 5}
    beginner = settings_of(make_game("quadominos", "beginner"))
    assert beginner.rules.target == 600 and beginner.rules.max_per_tile == 16


def test_changing_rounds_before_play_removes_the_seating(drawn, director):
    changed = dataclasses.replace(settings_of(drawn), rounds=2)
    _tournament, removed = seated_services.update_settings(drawn, changed, by=director)
    assert removed and not seated_tables(drawn)
    assert settings_of(drawn).rounds == 2


def test_settings_are_fixed_once_play_has_started(drawn, director):
    services.enter_sheet(first_table(drawn), by=director, entries=[rummi_hand(1, "0", "5", "5", "5")])
    changed = dataclasses.replace(settings_of(drawn), rules=dataclasses.replace(settings_of(drawn).rules, limit=300))
    with pytest.raises(DomainError, match="Play has started"):
        seated_services.update_settings(drawn, changed, by=director)
    assert settings_of(drawn).rules.limit == 250


def test_table_sizes_outside_the_game_are_refused(rummi, director):
    with pytest.raises(DomainError) as refused:
        seated_services.update_settings(rummi, dataclasses.replace(settings_of(rummi), table_sizes=(7, 4)), by=director)
    assert refused.value.field == "table_sizes" and "7" in refused.value.message


# --- entry: the digests' worked examples through the service --------------------------------------------------------


def test_rummi_cards_are_added_up_and_stored_as_typed(drawn, director):
    table = first_table(drawn)
    hands = [rummi_hand(1, "0", "35", "K Q 7 JOKER A", "k, q")]
    sheet = services.enter_sheet(table, by=director, entries=hands)
    assert sheet.entries == hands, "what the table wrote, as typed"
    assert sheet.derived["totals"] == per_seat(0, 35, 58, 20)
    assert not sheet.derived["finished"] and sheet.derived["table_points"] == {}


def test_rummi_hand_rummi_doubles_every_other_players_penalty(drawn, director):
    sheet = services.enter_sheet(first_table(drawn), by=director,
                                 entries=[rummi_hand(1, "0", "35", "K Q 7 JOKER A", "2", hand_rummi=True)])
    assert sheet.derived["totals"] == per_seat(0, 70, 116, 4)


@pytest.mark.parametrize(("variant", "row", "totals"), [
    # Almindelig: out of tiles, the winner gets the sum of the opponents' pips (less his own, 0).
    ("almindelig", {"pips": per_seat(0, 7, 12), "out": 1}, (19, 0, 0)),
    # Almindelig blocked: fewest pips wins the differences, (9 - 3) + (5 - 3).
    ("almindelig", {"pips": per_seat(9, 3, 5), "out": None}, (0, 8, 0)),
    # Femmer: points during play, and the opponents' pips rounded to 5 (7 -> 5, 8 -> 10).
    ("femmer", {"play_points": per_seat(15, 10, 0), "pips": per_seat(0, 7, 8), "out": 1}, (30, 10, 0)),
    # Syver blocked: the fewest pips wins the others' pips.
    ("syver", {"pips": per_seat(2, 9, 11), "out": None}, (20, 0, 0)),
    # To ens: only points scored during play count.
    ("to_ens", {"play_points": per_seat(2, 5, 0), "pips": per_seat(0, 30, 4), "out": 1}, (2, 5, 0)),
])
def test_domino_hands_score_as_the_digest_says(make_game, add_players, director, variant, row, totals):
    domino = seated(make_game, add_players, director, "domino", variant, players=3)
    sheet = services.enter_sheet(first_table(domino), by=director, entries=[row])
    assert sheet.derived["totals"] == per_seat(*totals)


def test_blind_domino_is_one_hand_whose_finishing_order_is_the_result(make_game, add_players, director):
    blind = seated(make_game, add_players, director, "domino", "blinde", players=4)
    sheet = services.enter_sheet(first_table(blind), by=director, entries=[{"tiles_left": per_seat(3, 0, 5, 3)}])
    derived = sheet.derived
    assert derived["finished"] and derived["winner"] == 2
    assert derived["order"] == [[2], [1, 4], [3]]
    assert derived["table_points"] == per_seat("1.5", "3", "0", "1.5")


def test_quad_ominos_round_winner_gets_everyone_elses_remaining_tiles(make_game, add_players, director):
    quad = seated(make_game, add_players, director, "quadominos", players=3)
    row = {"turn_points": per_seat(120, -15, 60), "winner": 1, "remaining": per_seat(0, 23, 9)}
    sheet = services.enter_sheet(first_table(quad), by=director, entries=[row])
    assert sheet.derived["totals"] == per_seat(152, -15, 60)


def test_patience_results_come_in_one_by_one_and_rank_by_tiles_then_time(make_game, add_players, director):
    patience = make_game("domino_patience", "kabal")
    seated_services.update_settings(patience, dataclasses.replace(settings_of(patience), finish_time=True), by=director)
    add_players(patience, 3)
    seated_services.draw_seating(patience, by=director)
    table = first_table(patience)
    first = [{"seat": 2, "tiles_left": 0, "finish_time": "41:10"}]
    sheet = services.enter_sheet(table, by=director, entries=first)
    assert not sheet.derived["finished"] and sheet.derived["totals"] == {"2": 0}
    everyone = [*first, {"seat": 1, "tiles_left": 0, "finish_time": "38:05"}, {"seat": 3, "tiles_left": 4,
                                                                              "finish_time": "12:00"}]
    sheet = services.enter_sheet(table, by=director, entries=everyone, expected_version=1)
    assert sheet.derived["finished"] and sheet.derived["order"] == [[1], [2], [3]]
    assert sheet.derived["times"] == {"1": 2285, "2": 2470, "3": 720}
    assert [r.kind for r in sheet.revisions.all()] == ["entry", "entry"], "results handed in later only append"


# --- entry: impossible entries get a clear message and save nothing --------------------------------------------------


@pytest.mark.parametrize(("key", "variant", "row", "message"), [
    ("domino", "almindelig", {"pips": per_seat(0, 200, 5), "out": 1}, "cannot have 200 pips left"),
    ("domino", "femmer", {"play_points": per_seat(7, 0, 0), "pips": per_seat(0, 3, 4), "out": 1},
     "multiples of 5"),
    ("domino", "almindelig", {"pips": per_seat(4, 3, 5), "out": 1}, "must be 0, not 4"),
    ("rummi", None, rummi_hand(1, "K", "5", "5"), "went out, so their penalty must be 0"),
    ("rummi", None, rummi_hand(1, "0", "K X 7", "5"), "X is not a card"),
    ("rummi", None, rummi_hand(1, "0", "261", "5"), "cannot have 261 penalty points"),
    ("rummi", None, rummi_hand(None, "0", "5", "5"), "Enter “Went out”"),
    ("rummi", None, rummi_hand(1, "0", "", "5"), "is missing for Ida"),
    ("quadominos", None, {"turn_points": per_seat(50, 40, 30), "winner": 1, "remaining": per_seat(7, 2, 3)},
     "remaining sum must be 0"),
])
def test_impossible_entries_are_refused_and_nothing_is_saved(make_game, add_players, director, key, variant, row,
                                                             message):
    tournament = seated(make_game, add_players, director, key, variant, players=3)
    with pytest.raises(services.SheetRefused) as refused:
        services.enter_sheet(first_table(tournament), by=director, entries=[row])
    assert message in refused.value.message
    assert refused.value.row == 1
    assert not ScoreSheet.objects.exists()


def test_a_refused_hand_leaves_the_saved_sheet_as_it_was(drawn, director):
    table = first_table(drawn)
    good = [rummi_hand(1, "0", "5", "5", "5")]
    services.enter_sheet(table, by=director, entries=good)
    with pytest.raises(services.SheetRefused) as refused:
        services.enter_sheet(table, by=director, entries=[*good, rummi_hand(2, "5", "7", "5", "5")])
    assert refused.value.row == 2
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.entries == good and sheet.version == 1 and sheet.revisions.count() == 1


def test_the_rules_messages_are_translated_and_name_the_player(drawn, director):
    with translation.override("de"), pytest.raises(services.SheetRefused) as refused:
        services.enter_sheet(first_table(drawn), by=director, entries=[rummi_hand(1, "0", "5", "Q Z", "5")])
    assert "Ida" in refused.value.message and "Z" in refused.value.message


# --- appending is entry, changing is a director's correction ---------------------------------------------------------


def test_an_assistant_adds_hands_but_cannot_change_them(drawn, director, tg_assistant):
    table = first_table(drawn)
    one = [rummi_hand(1, "0", "5", "5", "5")]
    two = [*one, rummi_hand(2, "10", "0", "10", "10")]
    services.enter_sheet(table, by=tg_assistant, entries=one)
    sheet = services.enter_sheet(table, by=tg_assistant, entries=two, expected_version=1)
    assert sheet.version == 2 and not sheet.corrected
    changed = [rummi_hand(1, "0", "6", "5", "5"), two[1]]
    with pytest.raises(DomainError, match="only a director can correct"):
        services.enter_sheet(table, by=tg_assistant, entries=changed, expected_version=2)
    assert ScoreSheet.objects.get(table=table).entries == two


def test_a_director_corrects_with_a_reason(drawn, director):
    table = first_table(drawn)
    services.enter_sheet(table, by=director, entries=[rummi_hand(1, "0", "5", "5", "5")])
    corrected = [rummi_hand(1, "0", "15", "5", "5")]
    with pytest.raises(DomainError) as no_reason:
        services.enter_sheet(table, by=director, entries=corrected, expected_version=1)
    assert no_reason.value.field == "reason"
    sheet = services.enter_sheet(table, by=director, entries=corrected, expected_version=1, reason="misread 5")
    assert sheet.corrected and sheet.derived["totals"]["2"] == 15
    assert [r.kind for r in sheet.revisions.all()] == [SheetRevision.Kind.ENTRY, SheetRevision.Kind.CORRECTION]
    assert AuditEntry.objects.filter(action="sheet.correction", reason="misread 5").exists()


def test_a_sheet_saved_meanwhile_is_a_conflict(drawn, director, tg_assistant):
    table = first_table(drawn)
    one = [rummi_hand(1, "0", "5", "5", "5")]
    services.enter_sheet(table, by=director, entries=one, expected_version=0)
    with pytest.raises(StaleVersion):
        services.enter_sheet(table, by=tg_assistant, entries=[rummi_hand(2, "5", "0", "5", "5")], expected_version=0)
    services.enter_sheet(table, by=director, entries=[*one, one[0]], expected_version=1)
    with pytest.raises(StaleVersion):
        services.enter_sheet(table, by=tg_assistant, entries=[*one, one[0], one[0]], expected_version=1)


def test_nobody_else_enters_results(drawn, make_director):
    with pytest.raises(DomainError):
        services.enter_sheet(first_table(drawn), by=make_director("other"), entries=[rummi_hand(1, "0", "5", "5", "5")])


# --- end of game ----------------------------------------------------------------------------------------------------


def test_the_game_ends_at_the_limit_and_no_hand_may_follow(drawn, director):
    table = first_table(drawn)
    hands = [rummi_hand(1, "0", "100", "90", "80"), rummi_hand(2, "100", "0", "90", "80"),
             rummi_hand(4, "60", "10", "90", "0")]
    sheet = services.enter_sheet(table, by=director, entries=hands)
    derived = sheet.derived
    assert derived["totals"] == per_seat(160, 110, 270, 160) and derived["finished"]
    assert derived["winner"] == 2 and derived["order"] == [[2], [1, 4], [3]]
    assert derived["table_points"] == per_seat("1.5", "3", "0", "1.5")
    with pytest.raises(services.SheetRefused, match="already over after hand 3") as refused:
        services.enter_sheet(table, by=director, entries=[*hands, hands[0]], expected_version=1)
    assert refused.value.row == 4


def test_time_is_up_ends_the_game_with_the_totals_as_they_stand(drawn, director, tg_assistant):
    table = first_table(drawn)
    with pytest.raises(DomainError, match="No hand"):
        services.end_game(table, by=tg_assistant)
    services.enter_sheet(table, by=tg_assistant, entries=[rummi_hand(3, "20", "10", "0", "10")])
    sheet = services.end_game(table, by=tg_assistant, expected_version=1)
    derived = sheet.derived
    assert derived["finished"] and derived["ended_early"] and derived["winner"] == 3
    assert derived["order"] == [[3], [2, 4], [1]] and not sheet.corrected
    with pytest.raises(services.SheetRefused, match="ended after hand 1"):
        services.enter_sheet(table, by=director, entries=[sheet.entries[0], sheet.entries[1], sheet.entries[0]],
                             expected_version=2)


def test_a_fixed_number_of_hands_ends_the_game(make_game, add_players, director):
    rummi = seated(make_game, add_players, director, "rummi", players=4, max_rounds=2)
    table = first_table(rummi)
    sheet = services.enter_sheet(table, by=director, entries=[rummi_hand(1, "0", "5", "5", "5")])
    assert not sheet.derived["finished"]
    sheet = services.enter_sheet(table, by=director, entries=[*sheet.entries, rummi_hand(2, "5", "0", "5", "5")],
                                 expected_version=1)
    assert sheet.derived["finished"] and sheet.derived["order"] == [[1, 2], [3, 4]]


def test_an_equal_best_total_past_the_target_plays_one_more_hand(make_game, add_players, director):
    quad = seated(make_game, add_players, director, "quadominos", players=3, target=100)
    table = first_table(quad)
    tie = {"turn_points": per_seat(110, 110, 20), "winner": None, "remaining": per_seat(0, 0, 0)}
    sheet = services.enter_sheet(table, by=director, entries=[tie])
    assert not sheet.derived["finished"] and sheet.derived["extra_hand"]
    decider = {"turn_points": per_seat(5, 30, 5), "winner": None, "remaining": per_seat(0, 0, 0)}
    sheet = services.enter_sheet(table, by=director, entries=[tie, decider], expected_version=1)
    assert sheet.derived["finished"] and sheet.derived["winner"] == 2


@pytest.mark.parametrize("language", ["en", "de", "da"])
def test_the_patience_game_is_not_named_after_one_of_its_patiences(language):
    """A Danish director choosing the game read "Almindelig dominokabal", the name of the first of the six
    patiences: the game of all six has a name of its own in every language."""
    from django.utils import translation

    from scoring.games import get_game
    from scoring.games.tablegames.family import GAMES

    name = get_game("domino_patience").name  # loads the registry
    GAME = GAMES["domino_patience"]

    with translation.override(language):
        variants = [translation.gettext(spec.name) for spec in GAME.variants.values()]
        assert str(name) not in variants
    with translation.override("da"):
        assert str(name) == "Dominokabal"
        assert translation.gettext(GAME.variants["kabal"].name) == "Almindelig dominokabal"
