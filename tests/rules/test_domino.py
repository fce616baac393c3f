import dataclasses

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.rules import domino
from scoring.rules.base import RuleError
from scoring.rules.domino import (
    ALMINDELIG,
    BLINDE,
    FEMMER,
    SYVER,
    TO_ENS,
    BlindHand,
    DominoHand,
    PatienceEntry,
    default_settings,
    max_pips_in_hand,
    patience_ranking,
    play,
    play_patience,
    round_to_five,
    score_hand,
)
from scoring.rules.standings import LOT_KEY

# --- the digest's numbers --------------------------------------------------------------------


def test_defaults_follow_the_digest():
    assert default_settings(ALMINDELIG).target == 100
    assert default_settings(FEMMER).target == 100
    assert default_settings(SYVER).target == 100
    assert default_settings(TO_ENS).target == 15
    assert default_settings(ALMINDELIG).tiles_each == {2: 5, 3: 5, 4: 5}
    assert default_settings(FEMMER).tiles_each == {2: 7, 3: 5, 4: 5}
    assert default_settings(TO_ENS).tiles_each == {2: 6, 3: 6, 4: 6}
    assert default_settings(BLINDE).tiles_each == {2: 14, 3: 9, 4: 7, 5: 5}
    assert all(default_settings(v).max_pips_per_tile == 12 for v in domino.VARIANTS)


def test_double_six_set_has_28_tiles_and_168_pips():
    tiles = domino.set_tiles(12)
    assert len(tiles) == 28
    assert sum(tiles) == 168
    assert tiles[:3] == [12, 11, 10]


# --- worked examples -------------------------------------------------------------------------


def test_almindelig_winner_gets_sum_of_opponents_pips_when_out():
    result = score_hand(ALMINDELIG, DominoHand(pips={"a": 0, "b": 7, "c": 12}, out="a"))
    assert result.points == {"a": 19, "b": 0, "c": 0}
    assert result.winner == "a" and not result.blocked


def test_almindelig_blocked_winner_gets_differences():
    # Blocked: fewest pips (b, 3) wins; (9 - 3) + (5 - 3) = 8.
    result = score_hand(ALMINDELIG, DominoHand(pips={"a": 9, "b": 3, "c": 5}))
    assert result.blocked and result.winner == "b"
    assert result.points == {"a": 0, "b": 8, "c": 0}


def test_blocked_tie_for_fewest_scores_nothing():
    result = score_hand(ALMINDELIG, DominoHand(pips={"a": 4, "b": 4, "c": 9}))
    assert result.winner is None
    assert result.points == {"a": 0, "b": 0, "c": 0}


def test_fives_rounds_opponents_pips_to_nearest_five():
    # The source's example: seven pips become five points; eight become ten.
    assert round_to_five(7) == 5
    assert round_to_five(8) == 10
    assert [round_to_five(n) for n in (0, 2, 3, 12, 13)] == [0, 0, 5, 10, 15]
    hand = DominoHand(pips={"a": 0, "b": 7, "c": 8}, out="a", play_points={"a": 15, "b": 10, "c": 0})
    assert score_hand(FEMMER, hand).points == {"a": 15 + 5 + 10, "b": 10, "c": 0}


def test_fives_blocked_tie_keeps_points_scored_during_play():
    hand = DominoHand(pips={"a": 6, "b": 6}, play_points={"a": 20, "b": 5})
    assert score_hand(FEMMER, hand).points == {"a": 20, "b": 5}


def test_sevens_winner_gets_other_players_pips():
    result = score_hand(SYVER, DominoHand(pips={"a": 2, "b": 9, "c": 11}))
    assert result.points == {"a": 20, "b": 0, "c": 0}


def test_two_alike_scores_only_during_play():
    hand = DominoHand(pips={"a": 0, "b": 30}, out="a", play_points={"a": 2, "b": 5})
    assert score_hand(TO_ENS, hand).points == {"a": 2, "b": 5}


def test_blind_domino_finishing_order_is_the_result():
    state = play(BLINDE, [BlindHand(tiles_left={"a": 3, "b": 0, "c": 5, "d": 3})])
    assert state.finished and state.winner == "b"
    assert state.finishing_order == (("b",), ("a", "d"), ("c",))
    assert state.lower_is_better


# --- validation ------------------------------------------------------------------------------


def test_winner_of_unblocked_hand_must_have_no_pips():
    with pytest.raises(RuleError) as error:
        score_hand(ALMINDELIG, DominoHand(pips={"a": 3, "b": 7}, out="a"))
    assert error.value.code == "winner_has_pips"
    assert error.value.field == "pips"
    assert "must be 0" in str(error.value) and "a" in str(error.value)


def test_pips_beyond_what_a_hand_can_hold_are_refused():
    most = max_pips_in_hand(default_settings(ALMINDELIG), 4)
    # 4 players: 5 dealt + 8 in the boneyard = 13 tiles; the 13 heaviest hold 112 pips.
    assert most == sum(domino.set_tiles(12)[:13]) == 112
    with pytest.raises(RuleError) as error:
        score_hand(ALMINDELIG, DominoHand(pips={"a": 0, "b": most + 1, "c": 1, "d": 1}, out="a"))
    assert error.value.code == "pips_too_many"
    assert "at most 13 tiles and 112 pips" in str(error.value)
    score_hand(ALMINDELIG, DominoHand(pips={"a": 0, "b": most, "c": 1, "d": 1}, out="a"))


def test_without_drawing_a_hand_holds_only_its_deal():
    block = dataclasses.replace(default_settings(ALMINDELIG), draw_from_boneyard=False)
    assert max_pips_in_hand(block, 2) == 12 + 11 + 10 + 10 + 9
    with pytest.raises(RuleError, match="at most 5 tiles"):
        score_hand(ALMINDELIG, DominoHand(pips={"a": 0, "b": 53}, out="a"), block)


def test_pips_together_beyond_the_set_are_refused():
    # Each within a 2-player hand's reach, together more than the 168 pips of the set.
    with pytest.raises(RuleError) as error:
        score_hand(SYVER, DominoHand(pips={"a": 100, "b": 100}))
    assert error.value.code == "pips_more_than_set"


@pytest.mark.parametrize("value", [-1, 2.5, "7", True])
def test_pips_must_be_whole_numbers(value):
    with pytest.raises(RuleError) as error:
        score_hand(ALMINDELIG, DominoHand(pips={"a": 0, "b": value}, out="a"))
    assert error.value.code == "pips_invalid"


def test_fives_points_not_in_fives_are_refused():
    hand = DominoHand(pips={"a": 0, "b": 4}, out="a", play_points={"a": 12, "b": 0})
    with pytest.raises(RuleError) as error:
        score_hand(FEMMER, hand)
    assert error.value.code == "fives_not_multiple"
    assert "multiples of 5" in str(error.value) and "12" in str(error.value)


def test_two_alike_points_of_one_are_refused_but_sums_of_twos_and_threes_accepted():
    for ok in (0, 2, 3, 4, 5, 7):
        score_hand(TO_ENS, DominoHand(pips={"a": 0, "b": 4}, out="a", play_points={"a": ok, "b": 0}))
    with pytest.raises(RuleError) as error:
        score_hand(TO_ENS, DominoHand(pips={"a": 0, "b": 4}, out="a", play_points={"a": 1, "b": 0}))
    assert error.value.code == "two_alike_points"


def test_play_points_where_the_game_has_none_are_refused():
    with pytest.raises(RuleError) as error:
        score_hand(SYVER, DominoHand(pips={"a": 0, "b": 4}, out="a", play_points={"a": 5, "b": 0}))
    assert error.value.code == "no_play_points"


def test_missing_play_points_in_fives_are_refused():
    with pytest.raises(RuleError) as error:
        score_hand(FEMMER, DominoHand(pips={"a": 0, "b": 4}, out="a"))
    assert error.value.code == "play_points_missing"


def test_player_counts_outside_the_game_are_refused():
    with pytest.raises(RuleError) as error:
        score_hand(ALMINDELIG, DominoHand(pips={p: 1 for p in "abcde"}))
    assert error.value.code == "player_count"
    with pytest.raises(RuleError):
        score_hand(ALMINDELIG, DominoHand(pips={"a": 0}, out="a"))


def test_out_must_be_a_player_of_the_hand():
    with pytest.raises(RuleError) as error:
        score_hand(ALMINDELIG, DominoHand(pips={"a": 0, "b": 4}, out="z"))
    assert error.value.code == "out_not_at_table"


def test_blind_domino_needs_exactly_one_player_out_and_tiles_within_the_deal():
    with pytest.raises(RuleError) as error:
        score_hand(BLINDE, BlindHand(tiles_left={"a": 0, "b": 0, "c": 2}))
    assert error.value.code == "blind_one_out"
    with pytest.raises(RuleError) as error:
        score_hand(BLINDE, BlindHand(tiles_left={"a": 0, "b": 10, "c": 2}))
    assert error.value.code == "blind_tiles_invalid" and "9 tiles" in str(error.value)


def test_unknown_variant_is_refused():
    with pytest.raises(RuleError) as error:
        score_hand("mexican_train", DominoHand(pips={"a": 0, "b": 1}, out="a"))
    assert error.value.code == "unknown_variant"


# --- whole games -----------------------------------------------------------------------------


def out_hand(winner, pips):
    return DominoHand(pips={**pips, winner: 0}, out=winner)


def test_game_ends_when_a_player_reaches_100():
    hands = [out_hand("a", {"b": 40, "c": 30})] + [out_hand("b", {"a": 20, "c": 10})] * 1
    state = play(ALMINDELIG, hands)
    assert state.totals == {"a": 70, "b": 30, "c": 0}
    assert not state.finished and state.winner is None
    state = play(ALMINDELIG, hands + [out_hand("a", {"b": 20, "c": 10})])
    assert state.totals == {"a": 100, "b": 30, "c": 0}
    assert state.finished and state.winner == "a"
    assert state.finishing_order == (("a",), ("b",), ("c",))
    assert state.running == ({"a": 70, "b": 0, "c": 0}, {"a": 70, "b": 30, "c": 0}, {"a": 100, "b": 30, "c": 0})


def test_several_past_the_target_highest_wins():
    hands = [DominoHand(pips={"a": 0, "b": 0}, play_points={"a": 14, "b": 13}),  # blocked tie: only play points
             DominoHand(pips={"a": 0, "b": 3}, out="a", play_points={"a": 2, "b": 4})]
    state = play(TO_ENS, hands)
    assert state.totals == {"a": 16, "b": 17}
    assert state.finished and state.winner == "b"


def test_equal_highest_past_the_target_plays_one_more_hand():
    first = DominoHand(pips={"a": 0, "b": 2}, out="a", play_points={"a": 15, "b": 15})
    state = play(TO_ENS, [first])
    assert not state.finished and state.extra_hand_needed and state.winner is None
    decider = DominoHand(pips={"a": 0, "b": 2}, out="a", play_points={"a": 2, "b": 0})
    state = play(TO_ENS, [first, decider])
    assert state.finished and state.winner == "a" and not state.extra_hand_needed


def test_hands_after_the_game_is_over_are_refused():
    hands = [out_hand("a", {"b": 100}), out_hand("b", {"a": 5})]
    with pytest.raises(RuleError) as error:
        play(ALMINDELIG, hands)
    assert error.value.code == "game_over"
    assert "after hand 1" in str(error.value)


def test_time_boxed_game_ends_after_max_hands_with_shared_place_on_a_tie():
    boxed = dataclasses.replace(default_settings(SYVER), max_hands=2)
    hands = [out_hand("a", {"b": 5, "c": 1}), out_hand("b", {"a": 5, "c": 1})]
    state = play(SYVER, hands, boxed)
    assert state.finished and state.winner is None
    assert [set(group) for group in state.finishing_order] == [{"a", "b"}, {"c"}]


def test_players_must_stay_the_same_through_a_game():
    with pytest.raises(RuleError) as error:
        play(SYVER, [out_hand("a", {"b": 5}), out_hand("a", {"c": 5})])
    assert error.value.code == "players_mismatch"


# --- properties ------------------------------------------------------------------------------

PLAYERS = st.integers(min_value=2, max_value=4)


@st.composite
def scored_hands(draw):
    variant = draw(st.sampled_from([ALMINDELIG, FEMMER, SYVER, TO_ENS]))
    count = draw(PLAYERS)
    players = [f"p{i}" for i in range(count)]
    pips = {p: draw(st.integers(0, 40)) for p in players}
    out = draw(st.sampled_from([None, *players]))
    if out is not None:
        pips[out] = 0
    play_points = None
    if variant == FEMMER:
        play_points = {p: 5 * draw(st.integers(0, 10)) for p in players}
    elif variant == TO_ENS:
        play_points = {p: draw(st.integers(0, 20).filter(lambda n: n != 1)) for p in players}
    return variant, DominoHand(pips=pips, out=out, play_points=play_points)


@settings(max_examples=300, deadline=None)
@given(scored_hands())
def test_hand_points_are_never_negative_and_only_the_winner_gains_at_the_end(case):
    variant, hand = case
    result = score_hand(variant, hand)
    assert all(v >= 0 for v in result.points.values())
    during = hand.play_points or {p: 0 for p in hand.pips}
    for player, points in result.points.items():
        if player != result.winner:
            assert points == during[player]
    if hand.out is not None:
        assert result.winner == hand.out and hand.pips[hand.out] == 0


@settings(max_examples=200, deadline=None)
@given(scored_hands(), st.integers(1, 40))
def test_an_unblocked_winner_with_pips_is_always_refused(case, extra):
    variant, hand = case
    assume(hand.out is not None)
    bad = dataclasses.replace(hand, pips={**hand.pips, hand.out: extra})
    with pytest.raises(RuleError) as error:
        score_hand(variant, bad)
    assert error.value.code == "winner_has_pips"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=15))
def test_game_ends_exactly_when_the_target_is_first_reached(outs):
    hands = []
    for winner, x, y in outs:
        others = [p for p in "abc" if p != winner]
        hands.append(out_hand(winner, dict(zip(others, (x, y), strict=True))))
    for length in range(1, len(hands) + 1):
        try:
            state = play(SYVER, hands[:length])
        except RuleError as error:
            assert error.code == "game_over"
            assert play(SYVER, hands[: length - 1]).finished
            return
        reached = max(state.totals.values()) >= 100
        # Only one player scores per hand in sevens, so reaching 100 always ends the game.
        assert state.finished == reached
        if reached:
            assert state.totals[state.winner] == max(state.totals.values())
        assert sum(state.totals.values()) == sum(sum(h.pips.values()) for h in hands[:length])


# --- patiences -------------------------------------------------------------------------------


def test_patience_ranks_fewest_tiles_then_finish_time_then_lot():
    entry = PatienceEntry(
        tiles_left={"a": 3, "b": 0, "c": 3, "d": 3, "e": 7},
        finish_time={"a": 600, "b": 900, "c": 540, "d": 600, "e": 100},
    )
    rows = patience_ranking(entry, seed=7)
    order = [r.participant for r in rows]
    assert order[0] == "b"
    assert order[1] == "c"  # same tiles as a and d, finished earlier
    assert set(order[2:4]) == {"a", "d"} and all(r.by_lot for r in rows[2:4])
    assert rows[3].separated_by == LOT_KEY
    assert order[4] == "e" and rows[4].separated_by == "tiles_left"
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert patience_ranking(entry, seed=7)[2].participant == rows[2].participant


def test_patience_without_times_goes_from_tiles_to_lot():
    entry = PatienceEntry(tiles_left={"a": 2, "b": 2, "c": 0})
    rows = patience_ranking(entry, seed=1)
    assert rows[0].participant == "c"
    assert rows[1].by_lot and rows[2].by_lot
    state = play_patience([entry])
    assert state.finished and state.finishing_order == (("c",), ("a", "b"))


def test_patience_results_are_validated():
    with pytest.raises(RuleError) as error:
        patience_ranking(PatienceEntry(tiles_left={"a": 29}), seed=1)
    assert error.value.code == "patience_tiles_invalid"
    with pytest.raises(RuleError) as error:
        patience_ranking(PatienceEntry(tiles_left={"a": 1, "b": 2}, finish_time={"a": 30}), seed=1)
    assert error.value.code == "finish_time_partial" and "b" in str(error.value)


# --- the common shape ------------------------------------------------------------------------


def test_every_spec_builds_entries_from_its_fields_and_scores_them():
    spec = domino.SPECS[FEMMER]
    assert [f.key for f in spec.entry_fields] == ["play_points", "pips", "out"]
    row = {"play_points": {"a": 10, "b": 0}, "pips": {"a": 0, "b": 7}, "out": "a"}
    assert spec.score_hand(spec.entry_class(**row), spec.default_settings).points == {"a": 15, "b": 0}
    assert spec.play([spec.entry_class(**row)], spec.default_settings).totals == {"a": 15, "b": 0}
    assert set(domino.SPECS) == set(domino.VARIANTS) | set(domino.PATIENCES)
    assert domino.SPECS[BLINDE].lower_is_better and not domino.SPECS[SYVER].lower_is_better
    assert all(s.kind == "patience" for k, s in domino.SPECS.items() if k in domino.PATIENCES)
