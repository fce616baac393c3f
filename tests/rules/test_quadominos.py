import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import quadominos
from scoring.rules.base import RuleError
from scoring.rules.quadominos import QuadRound, QuadSettings, play, score_round, turn_points


def test_defaults_follow_the_digest():
    s = QuadSettings()
    assert s.target == 800 and s.bonus == 25 and s.start_bonus == 25
    assert s.draw_penalty == -20 and s.pass_penalty == -20 and s.max_per_tile == 20
    assert dict(s.tiles_each) == {2: 15, 3: 10, 4: 8, 5: 7, 6: 6, 7: 6, 8: 6}
    assert (s.min_players, s.max_players) == (2, 8)
    beginner = QuadSettings.beginner()
    assert beginner.target == 600 and beginner.tiles_in_set == 70 and beginner.max_per_tile == 16


def test_turn_points_from_the_source():
    # Starting tile with four fives: its sum plus the 25 bonus.
    assert turn_points(20, bonuses=1) == 45
    # No matching tile: two tiles drawn from the well, then a tile with sum 7 laid.
    assert turn_points(7, draws=2) == -33
    # Well empty and nothing fits: a pass costs 20.
    assert turn_points(0, passes=1) == -20


def test_round_winner_gets_the_sum_of_everyone_elses_remaining_tiles():
    entry = QuadRound(turn_points={"a": 120, "b": -15, "c": 60}, winner="a", remaining={"b": 23, "c": 9})
    result = score_round(entry)
    assert result.points == {"a": 120 + 23 + 9, "b": -15, "c": 60}
    assert result.winner == "a"


def test_winners_remaining_may_be_written_as_zero():
    entry = QuadRound(turn_points={"a": 10, "b": 5}, winner="a", remaining={"a": 0, "b": 12})
    assert score_round(entry).points == {"a": 22, "b": 5}


def test_round_nobody_finished_gives_no_bonus():
    entry = QuadRound(turn_points={"a": 10, "b": -40}, winner=None, remaining={"a": 30, "b": 12})
    assert score_round(entry).points == {"a": 10, "b": -40}


# --- validation ------------------------------------------------------------------------------


def test_winner_with_tiles_left_is_refused():
    with pytest.raises(RuleError) as error:
        score_round(QuadRound(turn_points={"a": 10, "b": 5}, winner="a", remaining={"a": 4, "b": 12}))
    assert error.value.code == "winner_has_tiles"
    assert "must be 0, not 4" in str(error.value)


def test_remaining_above_20_per_tile_held_is_refused():
    entry = QuadRound(
        turn_points={"a": 10, "b": 5, "c": 0}, winner="a", remaining={"b": 41, "c": 3},
        tiles_left={"a": 0, "b": 2, "c": 1},
    )
    with pytest.raises(RuleError) as error:
        score_round(entry)
    assert error.value.code == "remaining_too_high"
    assert "41 left on 2 tiles" in str(error.value) and "at most 20" in str(error.value)
    score_round(dataclasses.replace(entry, remaining={"b": 40, "c": 3}))


def test_without_tile_counts_remaining_is_bounded_by_the_most_tiles_a_player_can_hold():
    # 2 players: 15 dealt, so at most 125 - 15 = 110 tiles in one hand.
    assert QuadSettings().max_tiles_held(2) == 110
    score_round(QuadRound(turn_points={"a": 0, "b": 0}, winner="a", remaining={"b": 2200}))
    with pytest.raises(RuleError, match="2201 left on 110 tiles"):
        score_round(QuadRound(turn_points={"a": 0, "b": 0}, winner="a", remaining={"b": 2201}))


def test_beginner_set_allows_at_most_16_per_tile():
    beginner = QuadSettings.beginner()
    entry = QuadRound(turn_points={"a": 0, "b": 0}, winner="a", remaining={"b": 17}, tiles_left={"a": 0, "b": 1})
    with pytest.raises(RuleError, match="at most 16"):
        score_round(entry, beginner)


@pytest.mark.parametrize("value", [2.5, "10", None, False])
def test_turn_points_must_be_whole_numbers(value):
    with pytest.raises(RuleError) as error:
        score_round(QuadRound(turn_points={"a": 10, "b": value}, winner="a", remaining={"b": 1}))
    assert error.value.code == "turn_points_invalid"


def test_negative_remaining_and_missing_remaining_are_refused():
    with pytest.raises(RuleError) as error:
        score_round(QuadRound(turn_points={"a": 1, "b": 1}, winner="a", remaining={"b": -1}))
    assert error.value.code == "remaining_invalid"
    with pytest.raises(RuleError) as error:
        score_round(QuadRound(turn_points={"a": 1, "b": 1, "c": 1}, winner="a", remaining={"b": 1}))
    assert error.value.code == "remaining_missing" and "c" in str(error.value)


def test_winner_and_players_must_be_at_the_table():
    with pytest.raises(RuleError) as error:
        score_round(QuadRound(turn_points={"a": 1, "b": 1}, winner="z", remaining={"b": 1}))
    assert error.value.code == "winner_not_at_table"
    with pytest.raises(RuleError) as error:
        score_round(QuadRound(turn_points={"a": 1, "b": 1}, winner="a", remaining={"b": 1, "z": 3}))
    assert error.value.code == "players_mismatch"
    with pytest.raises(RuleError) as error:
        score_round(QuadRound(turn_points={p: 1 for p in "abcdefghi"}, winner="a", remaining={}))
    assert error.value.code == "player_count"


def test_winner_holding_tiles_is_refused():
    entry = QuadRound(turn_points={"a": 1, "b": 1}, winner="a", remaining={"b": 1}, tiles_left={"a": 2, "b": 1})
    with pytest.raises(RuleError) as error:
        score_round(entry)
    assert error.value.code == "winner_has_tiles_left"


# --- games -----------------------------------------------------------------------------------


def test_game_is_over_at_800():
    rounds = [QuadRound(turn_points={"a": 400, "b": 300}, winner="a", remaining={"b": 20})] * 2
    state = play(rounds[:1])
    assert not state.finished and state.totals == {"a": 420, "b": 300}
    state = play(rounds)
    assert state.finished and state.winner == "a" and state.totals == {"a": 840, "b": 600}
    with pytest.raises(RuleError) as error:
        play(rounds * 2)
    assert error.value.code == "game_over"


def test_several_past_the_target_highest_wins_equal_plays_on():
    first = QuadRound(turn_points={"a": 700, "b": 780}, winner="a", remaining={"b": 0})
    second = QuadRound(turn_points={"a": 90, "b": 30}, winner="a", remaining={"b": 0})
    state = play([first, second])
    assert state.totals == {"a": 790, "b": 810}
    assert state.finished and state.winner == "b"
    tied = QuadRound(turn_points={"a": 100, "b": 20}, winner="a", remaining={"b": 0})
    state = play([first, tied])
    assert state.totals == {"a": 800, "b": 800}
    assert not state.finished and state.extra_hand_needed


def test_beginner_game_ends_at_600_and_totals_can_go_down():
    beginner = QuadSettings.beginner()
    rounds = [
        QuadRound(turn_points={"a": -60, "b": 250}, winner="b", remaining={"a": 50}),
        QuadRound(turn_points={"a": 100, "b": 300}, winner="a", remaining={"b": 10}),
    ]
    state = play(rounds, beginner)
    assert [r["a"] for r in state.running] == [-60, 50]
    assert state.finished and state.winner == "b" and state.totals["b"] == 600


# --- properties ------------------------------------------------------------------------------


@st.composite
def quad_rounds(draw, players):
    turns = {p: draw(st.integers(-200, 300)) for p in players}
    winner = draw(st.sampled_from([None, *players]))
    remaining = {p: draw(st.integers(0, 100)) for p in players if p != winner}
    return QuadRound(turn_points=turns, winner=winner, remaining=remaining)


@st.composite
def quad_games(draw):
    players = [f"p{i}" for i in range(draw(st.integers(2, 8)))]
    return draw(st.lists(quad_rounds(players), min_size=1, max_size=8))


@settings(max_examples=150, deadline=None)
@given(quad_games())
def test_totals_equal_the_sum_of_their_parts(rounds):
    for length in range(1, len(rounds) + 1):
        try:
            state = play(rounds[:length])
        except RuleError as error:
            assert error.code == "game_over" and play(rounds[: length - 1]).finished
            return
        for player, total in state.totals.items():
            turns = sum(r.turn_points[player] for r in rounds[:length])
            bonus = sum(sum(r.remaining.values()) for r in rounds[:length] if r.winner == player)
            assert total == turns + bonus
        reached = max(state.totals.values()) >= 800
        top = sorted(state.totals.values(), reverse=True)
        assert state.finished == (reached and top[0] != top[1])
        assert state.extra_hand_needed == (reached and top[0] == top[1])
        if state.finished:
            assert state.totals[state.winner] == top[0]


def test_specs_share_the_common_shape():
    spec = quadominos.SPECS["quadominos"]
    row = {"turn_points": {"a": 10, "b": 4}, "winner": "a", "remaining": {"b": 7}, "tiles_left": None}
    assert {f.key for f in spec.entry_fields} == set(row)
    assert spec.play([spec.entry_class(**row)], spec.default_settings).totals == {"a": 17, "b": 4}
    assert quadominos.SPECS["quadominos_beginner"].default_settings.target == 600


# --- the turns as the players noted them (`parse_turns`) ------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    # a plain signed number: the points from turns as they are
    ("0", 0), ("135", 135), ("-40", -40), ("−40", -40), ("+40", 40), (" 7 ", 7),
    # tile sums are added; letters count their settings (defaults: 25, 25, -20, -20)
    ("18 b 12 d", 35), ("18 b 12 d d", 15), ("18+b+12-d-d", 15), ("18 + b + 12 - d - d", 15),
    ("s 20", 45), ("S 20 B", 70), ("18 B 12 D", 35), ("p", -20), ("d p", -40), ("-d", -20),
    ("dd", -40), ("18b12dd", 15), ("18, b, 12; d", 35), ("0 0 20", 20), ("18 – d", -2), ("18 − d", -2),
    ("5 7 9", 21), ("b b b", 75),
])
def test_parse_turns(text, expected):
    assert quadominos.parse_turns(text) == expected


@pytest.mark.parametrize(("text", "code", "token"), [
    ("", "turns_empty", None),
    ("   ", "turns_empty", None),
    ("+ -", "turns_empty", None),
    ("18 x 12", "turns_unknown_token", "x"),
    ("18 bonus", "turns_unknown_token", "bonus"),
    ("18 db2 q", "turns_unknown_token", "q"),
    ("18 é", "turns_unknown_token", "é"),
    ("18 ? b", "turns_unknown_token", "?"),
    ("25 b", "tile_sum_too_high", "25"),
    ("18 21", "tile_sum_too_high", "21"),
    ("b " + "9" * 5000, "tile_sum_too_high", "9999999999…"),
    ("18 -5", "turns_minus_tile", "5"),
    ("18 - 5 d", "turns_minus_tile", "5"),
    ("12345678", "tile_sum_too_high", "12345678"),  # too long for a plain number, and no tile sum either
])
def test_parse_turns_refuses_with_a_message_naming_the_token(text, code, token):
    with pytest.raises(RuleError) as refused:
        quadominos.parse_turns(text)
    assert refused.value.code == code
    if token is not None:
        assert refused.value.params["token"] == token
        assert token in str(refused.value)
    # every message says how to write it
    assert any(hint in str(refused.value) for hint in ("18 b 12 d", "b, s, d or p", "d for a tile drawn"))


def test_parse_turns_uses_the_tournaments_numbers():
    changed = QuadSettings(start_bonus=50, bonus=30, draw_penalty=-10, pass_penalty=-15)
    assert quadominos.parse_turns("s 18 b 12 d p", changed) == 50 + 18 + 30 + 12 - 10 - 15
    assert quadominos.parse_turns("-40", changed) == -40  # a plain number is not touched by the settings
    beginner = QuadSettings.beginner()
    assert quadominos.parse_turns("16 b", beginner) == 41
    with pytest.raises(RuleError, match="at most 16"):
        quadominos.parse_turns("17 b", beginner)


_LETTER_COUNT = {"s": "starts", "b": "bonuses", "d": "draws", "p": "passes"}


@settings(derandomize=True, max_examples=300, deadline=None, database=None)
@given(
    tokens=st.lists(st.one_of(st.integers(0, 20).map(str), st.sampled_from("sbdpSBDP")), min_size=2, max_size=12),
    separators=st.lists(st.sampled_from([" ", "+", "-", " + ", ", ", "  "]), min_size=12, max_size=12),
    numbers=st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(-60, 0), st.integers(-60, 0)),
)
def test_parse_turns_equals_turn_points_of_the_tokens(tokens, separators, numbers):
    start_bonus, bonus, draw_penalty, pass_penalty = numbers
    rules = QuadSettings(start_bonus=start_bonus, bonus=bonus, draw_penalty=draw_penalty, pass_penalty=pass_penalty)
    # a minus only before letters (before a tile sum it is refused), a plus or space anywhere
    text = tokens[0]
    for token, separator in zip(tokens[1:], separators, strict=False):
        text += (separator if not token.isdigit() else separator.replace("-", "+")) + token
    counts = {name: sum(t.lower() == letter for t in tokens) for letter, name in _LETTER_COUNT.items()}
    tile_sum = sum(int(t) for t in tokens if t.isdigit())
    assert quadominos.parse_turns(text, rules) == turn_points(tile_sum, settings=rules, **counts)


def test_turn_points_counts_the_start_bonus():
    assert turn_points(20, starts=1) == 45
    assert turn_points(20, starts=1, settings=QuadSettings(start_bonus=40)) == 60
