"""Season-long seating (issue 14): the social-golfer limits at tables of 4, even repeats beyond them, and
earlier evenings' meetings (`avoid`) with players who come and go. Pure, no database."""

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.base import RuleError
from tournament.draw.designs import BASE_BLOCKS, SYMMETRIC_BLOCKS, golfer_rounds, multiplier_index, resolvable_rounds
from tournament.draw.seating import draw_seating, table_sizes


def meetings(rounds):
    return Counter(frozenset(pair) for tables in rounds for table in tables for pair in combinations(table, 2))


def assert_everyone_once_per_round(seating, players):
    sizes = table_sizes(len(players))
    for tables in seating.rounds:
        assert sorted(p for table in tables for p in table) == sorted(players)
        assert sorted(map(len, tables), reverse=True) == sizes


# --- the designs --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [16, 28, 40, 52, 64, 76, 88, 100, 112, 124, 136, 148, 160, 172, 184, 196])
def test_every_design_seats_everyone_each_round_and_every_pair_exactly_once(n):
    rounds = resolvable_rounds(n)
    assert rounds is not None and len(rounds) == (n - 1) // 3
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(n))
        assert {len(table) for table in tables} == {4}
    met = meetings(rounds)
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}


def test_the_stored_base_blocks_have_the_shape_the_construction_expects():
    for q, blocks in BASE_BLOCKS.items():
        assert q % 4 == 1 and len(blocks) == 3 * multiplier_index(q) // 4
        assert all(0 < x < q for block in blocks for x in block)


def test_every_count_4_mod_12_up_to_196_has_a_design():
    assert [n for n in range(16, 197, 12) if resolvable_rounds(n) is None] == []


def test_the_stored_symmetric_blocks_have_the_shape_the_construction_expects():
    for q, blocks in SYMMETRIC_BLOCKS.items():
        assert q % 4 == 1 and len(blocks) == 3 * (q - 1) // 4
        assert all(0 < x <= q // 2 for block in blocks for x in block)


def test_32_players_have_10_rounds_without_a_repeated_pair():
    """Social golfer 8-4-10: the bound (32 - 1) // 3 = 10 is reached; 16 pairs never meet."""
    rounds = golfer_rounds(32)
    assert rounds is not None and len(rounds) == 10
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(32))
        assert {len(table) for table in tables} == {4}
    met = meetings(rounds)
    assert set(met.values()) == {1} and len(met) == 10 * 8 * 6
    assert resolvable_rounds(32) is None, "not a design: not every pair meets"


def test_no_design_for_counts_without_one():
    assert all(golfer_rounds(n) is None for n in (17, 20, 24, 36, 44, 200))


# --- the limits at tables of 4 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "limit"), [(16, 5), (28, 9), (40, 13), (52, 17), (64, 21), (100, 33)])
def test_the_social_golfer_limit_is_reached_at_tables_of_four(n, limit):
    players = list(range(1, n + 1))
    seating = draw_seating(players, limit, seed=n)
    assert_everyone_once_per_round(seating, players)
    assert seating.repeated_pairs() == 0
    assert set(meetings(seating.rounds).values()) == {1}, "at the limit everyone has met everyone once"


@pytest.mark.parametrize(("n", "rounds"), [(16, 7), (16, 10), (28, 12), (40, 15)])
def test_beyond_the_limit_nobody_meets_anyone_thrice_while_a_pair_met_only_once(n, rounds):
    players = list(range(1, n + 1))
    seating = draw_seating(players, rounds, seed=3)
    assert_everyone_once_per_round(seating, players)
    met = meetings(seating.rounds)
    assert len(met) == n * (n - 1) // 2, "everyone met everyone"
    assert max(met.values()) <= 2
    limit = (n - 1) // 3
    assert seating.repeated_pairs() == (rounds - limit) * n * 3 // 2, "no more repeats than the rounds force"


def test_32_players_reach_10_rounds_and_beyond_them_nobody_meets_anyone_thrice():
    players = list(range(1, 33))
    seating = draw_seating(players, 10, seed=32)
    assert_everyone_once_per_round(seating, players)
    assert seating.repeated_pairs() == 0
    beyond = draw_seating(players, 14, seed=5)
    assert_everyone_once_per_round(beyond, players)
    assert max(meetings(beyond.rounds).values()) == 2


@pytest.mark.parametrize(("n", "before", "limit"), [(32, 3, 10), (52, 4, 17)])
def test_an_evening_at_the_limit_after_another_with_players_who_come_and_go(n, before, limit):
    """The design's rounds still seat nobody twice tonight, and a pair who met on the first evening meets at
    most once more (52: every pair meets tonight, so exactly once more; nobody a third time)."""
    rng = random.Random(n)
    players = list(range(1, n + 1))
    _first, met = evening_after(players, before, seed=1)
    leaving = set(rng.sample(players, 4))
    tonight = [p for p in players if p not in leaving] + [n + 1 + i for i in range(4)]
    seating = draw_seating(tonight, limit, seed=2, avoid=met)
    assert_everyone_once_per_round(seating, tonight)
    assert seating.repeated_pairs() == 0
    season = Counter(met) + seating.pair_meetings()
    assert max(season.values()) == 2
    if n == 52:
        present = sum(1 for pair in met if pair <= set(tonight))
        assert seating.met_again(met) == present


def test_beyond_the_limit_seat_numbers_stay_as_even_as_the_rounds_allow():
    seating = draw_seating(list(range(28)), 9, seed=1)
    for player in range(28):
        seats = Counter(seat for _round, _table, seat in seating.where(player))
        assert max(seats.values()) - min(seats.get(s, 0) for s in range(1, 5)) <= 1


def test_a_fixed_player_keeps_his_table_at_the_limit():
    seating = draw_seating(list(range(1, 29)), 9, seed=4, fixed={7: 3})
    assert {table for _round, table, _seat in seating.where(7)} == {3}
    assert seating.repeated_pairs() == 0


# --- earlier evenings ---------------------------------------------------------------------------------------


def evening_after(players, rounds, seed, avoid=None):
    seating = draw_seating(players, rounds, seed=seed, avoid=avoid)
    return seating, Counter(avoid or {}) + seating.pair_meetings()


def change_attendance(players, rng, leave, join, pool):
    stay = [p for p in players if p not in rng.sample(players, leave)]
    return stay + rng.sample([p for p in pool if p not in players], join)


@given(n=st.integers(40, 90), first=st.integers(2, 3), second=st.integers(2, 3), churn=st.integers(0, 8),
       seed=st.integers(0, 10**6))
@settings(max_examples=12, deadline=None)
def test_a_second_evening_seats_nobody_with_someone_met_on_the_first(n, first, second, churn, seed):
    rng = random.Random(seed)
    players = rng.sample(range(1, 200), n)
    _seating, met = evening_after(players, first, seed)
    tonight = change_attendance(players, rng, churn, churn, range(1, 200))
    seating = draw_seating(tonight, second, seed=seed + 1, avoid=met)
    assert_everyone_once_per_round(seating, tonight)
    assert seating.repeated_pairs() == 0
    assert seating.met_again(met) == 0


@given(n=st.integers(20, 36), seed=st.integers(0, 10**6))
@settings(max_examples=4, deadline=None)
def test_over_a_season_each_evening_seats_fewer_pairs_who_met_before(n, seed):
    """Four evenings of four rounds with players coming and going: over the season the draws that know the
    earlier meetings seat clearly fewer pairs who met before than the same draws without them."""
    rng = random.Random(seed)
    pool = list(range(1, 60))
    players = rng.sample(pool, n if _seatable(n) else 24)
    met: Counter = Counter()
    again = blind_again = 0
    for evening in range(4):
        seating, after = evening_after(players, 4, seed + evening, dict(met))
        assert_everyone_once_per_round(seating, players)
        again += seating.met_again(met)
        blind_again += draw_seating(players, 4, seed=seed + evening).met_again(met)
        met = after
        players = change_attendance(players, rng, 2, 2, pool)
    assert again < blind_again


def _seatable(n):
    try:
        table_sizes(n)
    except RuleError:
        return False
    return True


def test_pairs_of_people_not_present_are_ignored():
    players = list(range(1, 33))
    absent = {frozenset({1, 100}): 3, frozenset({200, 201}): 1}
    assert draw_seating(players, 4, seed=9, avoid=absent).rounds == draw_seating(players, 4, seed=9).rounds


def test_guarantees_hold_with_earlier_meetings():
    players = list(range(1, 42))  # 4/5-tables: 9 tables, one of 5
    _seating, met = evening_after(players, 4, 1)
    groups = {1: "Holm", 2: "Holm", 3: "Holm"}
    seating = draw_seating(players, 4, seed=2, avoid=met, groups=groups, fixed={5: 2})
    assert_everyone_once_per_round(seating, players)
    assert seating.group_conflicts(groups) == 0
    assert {table for _round, table, _seat in seating.where(5)} == {2}
    assert seating.seat_repeats() == 0
    assert seating.repeated_pairs() == 0 and seating.met_again(met) == 0


@pytest.mark.parametrize("avoid", [{frozenset({1}): 1}, {frozenset({1, 2}): -1}, {frozenset({1, 2}): "x"},
                                   {(1, 2, 3): 1}])
def test_bad_earlier_meetings_are_refused_with_a_stable_code(avoid):
    with pytest.raises(RuleError) as refused:
        draw_seating(list(range(1, 17)), 3, seed=1, avoid=avoid)
    assert refused.value.code == "invalid_avoid"
