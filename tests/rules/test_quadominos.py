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
