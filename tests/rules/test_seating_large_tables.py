"""17 players in 2 rounds (a 5-table and three 4-tables): why two players sit at the 5-table twice.

The draw puts fewer repeated pairs first (schafkopf.md) and shares the 5-table only where that costs no repeat.
With these tables the fewest repeats, one pair, can only be had with two players at the 5-table in both
rounds, the pair that meets again; nobody at it twice costs at least four repeated pairs. The test counts every
way round 2 can take its tables' players from round 1's tables, and checks that the draw reaches that optimum.
"""

import math
from functools import cache
from math import comb

import pytest

from tournament.draw.seating import draw_seating, table_sizes


def _splits(players: int, columns: tuple[int, ...]):
    """Every way a round-1 table's `players` can spread over round-2 tables with these free seats."""
    if not columns:
        if players == 0:
            yield ()
        return
    for take in range(min(players, columns[0]) + 1):
        for tail in _splits(players - take, columns[1:]):
            yield (take, *tail)


@cache
def _fewest(rows: tuple[int, ...], columns: tuple[int, ...]) -> float:
    """The fewest repeated pairs when round-1 tables of `rows` players fill round-2 tables with `columns` free
    seats: over every table of how many of each row sit at each column (a pair repeats when two of a row share a
    column), computed row by row; the columns are sorted, as their order changes nothing."""
    if not rows:
        return 0 if not any(columns) else math.inf
    return min((sum(comb(take, 2) for take in split)
                + _fewest(rows[1:], tuple(sorted(c - t for c, t in zip(columns, split, strict=True))))
                for split in _splits(rows[0], columns)), default=math.inf)


@cache
def fewest_repeats_by_twice(sizes: tuple[int, ...]) -> dict[int, int]:
    """{players at the 5-table in both rounds: the fewest repeated pairs possible}, over 2 rounds."""
    best: dict[int, int] = {}
    for split in _splits(sizes[0], sizes):  # round 1's 5-table (row 0); split[0] stay at the 5-table
        rest = tuple(sorted(c - t for c, t in zip(sizes, split, strict=True)))
        repeats = sum(comb(take, 2) for take in split) + _fewest(sizes[1:], rest)
        if repeats < math.inf:
            best[split[0]] = min(best.get(split[0], repeats), repeats)
    return best


def test_with_17_players_the_fewest_repeats_need_two_players_at_the_5_table_twice():
    sizes = tuple(table_sizes(17))
    assert sizes == (5, 4, 4, 4)
    floor = fewest_repeats_by_twice(sizes)
    assert min(floor.values()) == 1
    assert [twice for twice, repeats in floor.items() if repeats == 1] == [2]
    assert floor[0] == 4 and floor[1] == 2


@pytest.mark.parametrize("seed", range(6))
def test_the_draw_of_17_in_2_rounds_reaches_that_optimum(seed):
    seating = draw_seating(list(range(1, 18)), 2, seed=seed)
    assert seating.repeated_pairs() == 1
    twice = seating.large_table_repeats()
    assert len(twice) == 2  # not more: the repeated pair, and nobody else
    (pair,) = [pair for pair, times in seating.pair_meetings().items() if times > 1]
    assert set(twice) == set(pair)


def test_21_players_in_2_rounds_one_at_the_5_table_twice_for_no_repeat():
    floor = fewest_repeats_by_twice(tuple(table_sizes(21)))
    assert floor[1] == 0 and floor[0] > 0
    seating = draw_seating(list(range(1, 22)), 2, seed=3)
    assert seating.repeated_pairs() == 0 and len(seating.large_table_repeats()) == 1
