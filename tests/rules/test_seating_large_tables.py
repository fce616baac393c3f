"""17 players in 2 rounds (a 5-table and three 4-tables): why two players sit at the 5-table twice.

The draw puts fewer repeated pairs first (schafkopf.md) and shares the 5-table only where that costs no repeat.
With these tables the fewest repeats, one pair, can only be had with two players at the 5-table in both
rounds, the pair that meets again; nobody at it twice costs at least four repeated pairs. The test counts every
way round 2 can take its tables' players from round 1's tables, and checks that the draw reaches that optimum.
"""

from functools import cache
from math import comb

import pytest

from tournament.draw.seating import draw_seating, table_sizes


def _matrices(rows: tuple[int, ...], columns: tuple[int, ...]):
    """Every table of how many players of each round-1 table (rows) sit at each round-2 table (columns)."""
    if not rows:
        if not any(columns):
            yield ()
        return
    first, rest = rows[0], rows[1:]

    def splits(left: int, column: int):
        if column == len(columns):
            if left == 0:
                yield ()
            return
        for take in range(min(left, columns[column]) + 1):
            for tail in splits(left - take, column + 1):
                yield (take, *tail)

    for row in splits(first, 0):
        for below in _matrices(rest, tuple(c - t for c, t in zip(columns, row, strict=True))):
            yield (row, *below)


@cache
def fewest_repeats_by_twice(sizes: tuple[int, ...]) -> dict[int, int]:
    """{players at the 5-table in both rounds: the fewest repeated pairs possible}, over 2 rounds."""
    best: dict[int, int] = {}
    for matrix in _matrices(sizes, sizes):
        repeats = sum(comb(cell, 2) for row in matrix for cell in row)
        twice = matrix[0][0]  # round 1's 5-table (row 0) at round 2's 5-table (column 0)
        best[twice] = min(best.get(twice, repeats), repeats)
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
