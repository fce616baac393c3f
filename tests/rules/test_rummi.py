import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import rummi
from scoring.rules.base import RuleError
from scoring.rules.rummi import RummiRound, RummiSettings, display_total, parse_cards, play, score_round

JOKER_IN_HAND = RummiSettings(joker_in_hand_variant=True)

# --- cards -----------------------------------------------------------------------------------


def test_digest_example_cards_add_up_to_58():
    assert parse_cards("K Q 7 JOKER A") == 10 + 10 + 7 + 20 + 11 == 58


def test_card_values_from_the_source():
    # Joker 20, two..ten face value, jack/queen/king 10, ace 11.
    assert [parse_cards(str(n)) for n in range(2, 11)] == list(range(2, 11))
    assert parse_cards("J") == parse_cards("Q") == parse_cards("K") == 10
    assert parse_cards("A") == 11
    assert parse_cards("JOKER") == parse_cards("JO") == parse_cards("*") == 20


def test_german_and_danish_tables_write_the_jack_and_the_queen_as_b_and_d():
    """Bube/Bonde and Dame: a German or Danish table writes "K D 7"; it was refused as "D is not a card"."""
    assert parse_cards("B") == parse_cards("D") == parse_cards("J") == 10
    assert parse_cards("K D 7 JOKER A") == parse_cards("k d 7 joker a") == 58
    assert parse_cards("B D K A") == 41


def test_lower_case_commas_and_empty_text_are_accepted():
    assert parse_cards("k, q,7 joker a") == 58
    assert parse_cards("jo 10 *") == 50
    assert parse_cards("") == 0


def test_joker_in_hand_variant_counts_40():
    assert parse_cards("JOKER 2", JOKER_IN_HAND) == 42
    assert JOKER_IN_HAND.max_penalty == 13 * 40
    assert RummiSettings().max_penalty == 13 * 20


@pytest.mark.parametrize("token", ["1", "11", "X", "KK", "ace"])
def test_unknown_token_is_named(token):
    with pytest.raises(RuleError) as error:
        parse_cards(f"K {token} 7")
    assert error.value.code == "unknown_card"
    assert error.value.params["token"] == token
    assert f"{token} is not a card" in str(error.value)


def test_at_most_13_cards():
    assert parse_cards(" ".join(["2"] * 13)) == 26
    with pytest.raises(RuleError) as error:
        parse_cards(" ".join(["2"] * 14))
    assert error.value.code == "too_many_cards"
    assert "at most 13 cards" in str(error.value)


# --- rounds ----------------------------------------------------------------------------------


def test_round_with_numbers_and_cards():
    result = score_round(RummiRound(out="a", penalties={"a": 0, "b": 35, "c": "K Q 7 JOKER A"}))
    assert result.points == {"a": 0, "b": 35, "c": 58}
    assert result.winner == "a" and not result.doubled


def test_hand_rummi_doubles_every_other_players_penalty():
    result = score_round(RummiRound(out="a", penalties={"a": "", "b": 35, "c": "K Q 7 JOKER A"}, hand_rummi=True))
    assert result.points == {"a": 0, "b": 70, "c": 116}
    assert result.doubled


def test_a_text_of_digits_is_a_number():
    assert score_round(RummiRound(out="a", penalties={"a": "0", "b": "58"})).points == {"a": 0, "b": 58}


def test_winner_with_cards_left_is_refused():
    with pytest.raises(RuleError) as error:
        score_round(RummiRound(out="a", penalties={"a": "7", "b": 20}))
    assert error.value.code == "winner_has_penalty"
    assert error.value.field == "penalties"
    assert "must be 0, not 7" in str(error.value)


def test_penalty_above_thirteen_jokers_is_refused_and_the_ceiling_accepted():
    score_round(RummiRound(out="a", penalties={"a": 0, "b": 260}))
    with pytest.raises(RuleError) as error:
        score_round(RummiRound(out="a", penalties={"a": 0, "b": 261}))
    assert error.value.code == "penalty_too_high" and "at most 260" in str(error.value)
    score_round(RummiRound(out="a", penalties={"a": 0, "b": 520}), JOKER_IN_HAND)


@pytest.mark.parametrize("value", [-3, 2.5, None, True])
def test_penalty_must_be_a_whole_number(value):
    with pytest.raises(RuleError) as error:
        score_round(RummiRound(out="a", penalties={"a": 0, "b": value}))
    assert error.value.code == "penalty_invalid"


def test_bad_card_names_the_player_and_the_token():
    with pytest.raises(RuleError) as error:
        score_round(RummiRound(out="a", penalties={"a": 0, "b": "K Z"}))
    assert error.value.code == "unknown_card"
    assert error.value.params == {"player": "b", "token": "Z"}
    assert str(error.value).startswith("Cards of b: Z is not a card")


def test_out_must_be_at_the_table_and_player_count_within_2_to_6():
    with pytest.raises(RuleError) as error:
        score_round(RummiRound(out="z", penalties={"a": 0, "b": 5}))
    assert error.value.code == "out_not_at_table"
    with pytest.raises(RuleError) as error:
        score_round(RummiRound(out="a", penalties={p: 0 for p in "abcdefg"}))
    assert error.value.code == "player_count"


# --- games -----------------------------------------------------------------------------------


def rnd(out, **penalties):
    return RummiRound(out=out, penalties={out: 0, **penalties})


def test_game_ends_when_a_total_reaches_250_and_lowest_wins():
    rounds = [rnd("a", b=100, c=40), rnd("c", a=30, b=100)]
    state = play(rounds)
    assert state.totals == {"a": 30, "b": 200, "c": 40}
    assert not state.finished
    state = play(rounds + [rnd("a", b=50, c=5)])
    assert state.totals == {"a": 30, "b": 250, "c": 45}
    assert state.finished and state.winner == "a"
    assert state.finishing_order == (("a",), ("c",), ("b",))
    assert state.lower_is_better
    assert [r["b"] for r in state.running] == [100, 200, 250]


def test_game_of_ten_rounds():
    ten = dataclasses.replace(RummiSettings(), limit=None, max_rounds=10)
    rounds = [rnd("a", b=3)] * 9
    assert not play(rounds, ten).finished
    state = play(rounds + [rnd("b", a=2)], ten)
    assert state.finished and state.winner == "a" and state.totals == {"a": 2, "b": 27}
    with pytest.raises(RuleError) as error:
        play(rounds + [rnd("b", a=2), rnd("b", a=2)], ten)
    assert error.value.code == "game_over"


def test_equal_lowest_total_shares_the_win():
    state = play([rnd("a", b=10, c=200), rnd("a", b=0, c=60)])
    assert state.finished and state.winner == "a"
    state = play([rnd("a", b=10, c=200), rnd("b", a=10, c=60)])
    assert state.finished and state.winner is None
    assert [set(g) for g in state.finishing_order] == [{"a", "b"}, {"c"}]


def test_count_down_display_shows_negative_totals_with_the_same_ranking():
    down = RummiSettings(count_down=True)
    assert display_total(58, down) == -58
    assert display_total(58, RummiSettings()) == 58
    state = play([rnd("a", b=100, c=40)], down)
    assert state.finishing_order == (("a",), ("c",), ("b",))


# --- properties ------------------------------------------------------------------------------

CARD_TOKENS = st.sampled_from(["2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "Q", "K", "b", "D", "a", "JOKER",
                                "jo", "*"])


@st.composite
def rounds(draw):
    players = [f"p{i}" for i in range(draw(st.integers(2, 6)))]
    out = draw(st.sampled_from(players))
    penalties = {}
    for p in players:
        if p == out:
            penalties[p] = draw(st.sampled_from([0, "", "0"]))
        elif draw(st.booleans()):
            penalties[p] = draw(st.integers(0, 260))
        else:
            penalties[p] = " ".join(draw(st.lists(CARD_TOKENS, min_size=1, max_size=13)))
    return RummiRound(out=out, penalties=penalties)


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_hand_rummi_doubles_exactly(entry):
    plain = score_round(entry)
    doubled = score_round(dataclasses.replace(entry, hand_rummi=True))
    assert doubled.points == {p: 2 * v for p, v in plain.points.items()}
    assert plain.points[entry.out] == doubled.points[entry.out] == 0
    assert all(0 <= v <= RummiSettings().max_penalty for v in plain.points.values())


@settings(max_examples=100, deadline=None)
@given(st.lists(CARD_TOKENS, max_size=13))
def test_card_texts_add_up_card_by_card(tokens):
    assert parse_cards(" ".join(tokens)) == sum(parse_cards(t) for t in tokens)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80)), min_size=1, max_size=12))
def test_game_ends_exactly_when_the_limit_is_first_reached(penalties):
    games = [rnd("a", b=b, c=c) for b, c in penalties]
    for length in range(1, len(games) + 1):
        try:
            state = play(games[:length])
        except RuleError as error:
            assert error.code == "game_over" and play(games[: length - 1]).finished
            return
        assert state.finished == (max(state.totals.values()) >= 250)
        assert state.totals["a"] == 0
        if state.finished:
            assert state.winner == "a"


def test_spec_builds_entries_from_its_fields():
    spec = rummi.SPECS["rummi"]
    row = {"out": "a", "hand_rummi": True, "penalties": {"a": 0, "b": "K A"}}
    assert {f.key for f in spec.entry_fields} == set(row)
    assert spec.score_hand(spec.entry_class(**row), spec.default_settings).points == {"a": 0, "b": 42}
    assert spec.lower_is_better and spec.min_players == 2 and spec.max_players == 6
