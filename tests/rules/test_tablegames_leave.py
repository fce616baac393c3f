"""A player who leaves a table game mid-round (table-games.md, Decision: a player leaves after play started)."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import domino, quadominos, rummi
from scoring.rules.base import RuleError
from scoring.rules.tablegames import (
    GAME_SCORE,
    TOURNAMENT_POINTS,
    check_plays_on,
    present,
    ranking,
    table_points,
)

R = rummi.RummiRound


def hand(out, **penalties):
    return R(out=out, penalties=penalties)


# --- who is at the table ----------------------------------------------------------------------


def test_a_player_who_left_after_hand_3_is_at_the_table_until_hand_3():
    assert present("abcd", {"c": 3}, 3) == list("abcd")
    assert present("abcd", {"c": 3}, 4) == list("abd")


# --- rummi: he has no entry after he left, his score is what he had --------------------------


def test_rummi_plays_on_without_him_and_his_score_is_what_he_had_when_he_left():
    rounds = [
        hand("a", a=0, b=10, c=20, d=30),
        hand("b", a=5, b=0, c=15, d=25),
        hand("c", a=10, b=10, c=0, d=5),
        hand("a", a=0, b=40, d=50),  # c left after hand 3
        hand("d", a=30, b=210, d=0),
    ]
    state = rummi.play(rounds, left={"c": 3})
    assert state.totals == {"a": 45, "b": 270, "c": 35, "d": 110}
    assert state.finished  # b passed the limit of 250
    assert state.winner == "a"
    # c has the second lowest penalty, but he left: behind every opponent at the table
    assert state.finishing_order == (("a",), ("d",), ("b",), ("c",))


def test_his_entry_after_he_left_is_refused():
    rounds = [hand("a", a=0, b=10, c=20), hand("b", a=5, b=0, c=15)]
    with pytest.raises(RuleError) as caught:
        rummi.play(rounds, left={"c": 1})
    assert caught.value.code == "players_mismatch"


def test_a_hand_without_him_before_he_left_is_refused():
    rounds = [hand("a", a=0, b=10, c=20), hand("b", a=5, b=0)]
    with pytest.raises(RuleError) as caught:
        rummi.play(rounds, left={"c": 2})
    assert caught.value.code == "players_mismatch"


def test_leaving_before_the_first_hand_is_an_empty_seat_not_a_departure():
    with pytest.raises(RuleError) as caught:
        rummi.play([hand("a", a=0, b=10)], left={"c": 0})
    assert caught.value.code == "left_not_at_table"
    with pytest.raises(RuleError) as caught:
        rummi.play([hand("a", a=0, b=10, c=5)], left={"c": 0})
    assert caught.value.code == "left_before_play"


def test_leaving_after_the_hand_that_ended_the_game_is_refused():
    rounds = [hand("a", a=0, b=260, c=20)]
    with pytest.raises(RuleError) as caught:
        rummi.play(rounds, left={"c": 1})
    assert caught.value.code == "left_after_end"
    assert caught.value.params["hand"] == 1


def test_the_end_is_decided_among_those_still_at_the_table():
    # d left with the lowest total; the game's winner is the best of those who stayed
    rounds = [hand("d", a=30, b=40, c=50, d=0), hand("a", a=0, b=220, c=10)]
    state = rummi.play(rounds, left={"d": 1})
    assert state.finished and state.winner == "a"
    assert state.finishing_order[-1] == ("d",)


# --- domino and quad-ominos follow the same rule ---------------------------------------------


def test_domino_plays_on_with_three_after_one_left():
    variant = domino.ALMINDELIG
    spec = domino.SPECS[variant]
    first = domino.DominoHand(pips={"a": 0, "b": 10, "c": 12, "d": 8}, out="a")
    second = domino.DominoHand(pips={"a": 7, "b": 0, "c": 9}, out="b")
    state = domino.play(variant, [first, second], spec.default_settings, left={"d": 1})
    assert set(state.running[1]) == set("abcd")
    assert state.running[1]["d"] == state.running[0]["d"]  # frozen at what he had
    assert state.finishing_order[-1] == ("d",)


def test_quadominos_plays_on_after_one_left():
    spec = quadominos.SPECS["quadominos"]
    first = quadominos.QuadRound(turn_points={"a": 30, "b": 20, "c": 10}, winner="a",
                                 remaining={"a": 0, "b": 5, "c": 6})
    second = quadominos.QuadRound(turn_points={"a": 5, "b": 40}, winner="b", remaining={"a": 4, "b": 0})
    state = quadominos.play([first, second], spec.default_settings, left={"c": 1})
    assert state.totals["c"] == 10
    assert state.finishing_order[-1] == ("c",)


# --- the table's tournament points -----------------------------------------------------------


def test_he_finishes_behind_every_opponent_and_each_gains_the_point():
    scores = {"a": 120, "b": 80, "c": 200, "d": 10}  # c led when he left
    assert table_points(scores, lower_is_better=False) == {"a": 2, "b": 1, "c": 3, "d": 0}
    points = table_points(scores, lower_is_better=False, left={"c": 3})
    assert points == {"a": Decimal(3), "b": Decimal(2), "c": Decimal(0), "d": Decimal(1)}


def test_two_who_left_the_one_who_stayed_longer_is_ahead_then_the_score():
    scores = {"a": 50, "b": 10, "c": 20, "d": 30}  # rummi: lower is better
    points = table_points(scores, lower_is_better=True, left={"b": 2, "c": 4})
    assert points == {"a": Decimal(2), "b": Decimal(0), "c": Decimal(1), "d": Decimal(3)}
    same_hand = table_points(scores, lower_is_better=True, left={"b": 2, "c": 2})
    assert same_hand["b"] == Decimal(1) and same_hand["c"] == Decimal(0)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 300), min_size=2, max_size=6),
    st.data(),
    st.booleans(),
)
def test_leaving_never_pays_and_the_points_stay_one_per_pair(scores, data, lower):
    leavers = data.draw(st.sets(st.sampled_from(sorted(scores))))
    left = {p: data.draw(st.integers(1, 9)) for p in leavers}
    points = table_points(scores, lower_is_better=lower, left=left)
    n = len(scores)
    assert sum(points.values()) == Decimal(n * (n - 1)) / 2
    for player in leavers:
        stayed = [p for p in scores if p not in left]
        # behind every opponent still at the table, whatever the scores
        assert points[player] <= n - 1 - len(stayed)
        assert all(points[p] >= len(leavers) for p in stayed)


# --- whether the table can play on ----------------------------------------------------------


@pytest.mark.parametrize("spec", [rummi.SPECS["rummi"], quadominos.SPECS["quadominos"]], ids=["rummi", "quadominos"])
def test_a_table_of_two_needs_a_substitute(spec):
    with pytest.raises(RuleError) as caught:
        check_plays_on(["a", "b"], {"b": 2}, spec.min_players)
    assert caught.value.code == "substitute_needed"
    assert caught.value.params["count"] == 1 and caught.value.params["min"] == 2
    check_plays_on(["a", "b", "c"], {"b": 2}, spec.min_players)  # three: two play on


# --- the tournament ranking: a smaller table later -------------------------------------------


def test_a_later_round_with_his_seat_empty_is_a_smaller_table():
    players = ["a", "b", "c", "d"]
    round_1 = {"a": 30, "b": 40, "c": 10, "d": 90}
    round_2 = {"a": 30, "b": 40, "c": 10, "d": 90}
    round_3 = {"a": 60, "b": 20, "d": 50}  # c is gone: a table of three, points among those present
    ranked = ranking(players, [round_1, round_2, round_3], lower_is_better=True, seed=1,
                     left=[{}, {"c": 3}, {}])
    by_player = {s.participant: s.values for s in ranked}
    assert by_player["c"][TOURNAMENT_POINTS] == Decimal(3)  # round 1 only; round 2 behind everyone
    assert by_player["c"][GAME_SCORE] == 20  # his score when he left counts
    # round 2: each of a, b, d gains the point over c; round 3 shares 3 points among the three present
    assert by_player["a"][TOURNAMENT_POINTS] == Decimal(2) + Decimal(3) + Decimal(0)
    assert by_player["b"][TOURNAMENT_POINTS] == Decimal(1) + Decimal(2) + Decimal(2)
    assert by_player["d"][TOURNAMENT_POINTS] == Decimal(0) + Decimal(1) + Decimal(1)
