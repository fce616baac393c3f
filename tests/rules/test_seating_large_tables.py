"""17 players in 2 rounds (a 5-table and three 4-tables): why two players sit at the 5-table twice; 17-19 in more.

The draw puts fewer repeated pairs first (schafkopf.md) and shares the 5-table only where that costs no repeat.
With these tables the fewest repeats, one pair, can only be had with two players at the 5-table in both
rounds, the pair that meets again; nobody at it twice costs at least four repeated pairs. The test counts every
way round 2 can take its tables' players from round 1's tables, and checks that the draw reaches that optimum.
"""

import math
from functools import cache
from math import comb

import pytest

from tournament.draw.seating import draw_seating, fewest_repeated_pairs, table_sizes


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


# --------------------------------------------------------------------------- more rounds: 17, 18, 19 players


def fewest_repeats(n_players: int, rounds: int) -> int:
    """Fewest repeated pairs over `rounds`, proven: any two rounds share at least `shared` pairs (the two-round
    optimum above, by spreading evenly); over the C(R, 2) pairs of rounds a pair meeting t <= R times is counted
    C(t, 2) times and costs t - 1 >= C(t, 2) * 2 / R repeats, so at least shared * (R - 1), and only pairs meeting
    in every round reach it. The draw reaches it (a pair per 5-table, seated as one unit), so it is the optimum."""
    return min(fewest_repeats_by_twice(tuple(table_sizes(n_players))).values()) * (rounds - 1)


@pytest.mark.parametrize("n", [9, 10, 12, 13, 14, 15, 17, 18, 19, 21, 22, 23, 24])
def test_the_public_bound_is_the_counted_two_round_optimum_times_r_minus_1(n):
    # fewest_repeated_pairs (the draw page's "unavoidable") against the exhaustive count of every split above.
    sizes = table_sizes(n)
    for rounds in (1, 2, 3, 4):
        assert fewest_repeated_pairs(sizes, rounds) == fewest_repeats(n, rounds)


def test_17_players_in_3_rounds_need_2_repeats_one_pair_meeting_in_every_round():
    # Each two of the 3 rounds share a pair (the 5-table's five come from four tables): three pairs meeting twice
    # are 3 repeats, one pair meeting three times only 2; by the two-round count that pair is at the 5-table in
    # all three rounds, so 2 players at the 5-table more than once is then the fewest too.
    assert fewest_repeats(17, 3) == 2


@pytest.mark.parametrize("seed", range(8))
def test_the_draw_of_17_in_3_rounds_reaches_2_repeats_and_2_at_the_5_table_again(seed):
    seating = draw_seating(list(range(1, 18)), 3, seed=seed)
    assert seating.repeated_pairs() == 2
    (pair,) = [pair for pair, times in seating.pair_meetings().items() if times > 1]
    assert seating.pair_meetings()[pair] == 3
    assert seating.large_table_repeats() == {player: 3 for player in pair}
    assert seating.seat_repeats() == 0


@pytest.mark.parametrize(("n", "rounds"), [(17, 4), (17, 5), (18, 2), (18, 3), (18, 4), (19, 2), (19, 3), (19, 4)])
def test_17_to_19_players_reach_the_fewest_repeats(n, rounds):
    for seed in range(3):
        seating = draw_seating(list(range(1, n + 1)), rounds, seed=seed)
        assert seating.repeated_pairs() == fewest_repeats(n, rounds)
        assert all(times in (1, rounds) for times in seating.pair_meetings().values())
        if rounds <= 4:  # no more rounds than seats at a 4-table
            assert seating.seat_repeats() == 0


def test_the_fewest_repeats_come_before_the_5_table_shared():
    # 18 players in 3 rounds: the previous draw gave 5 repeats with 6 players at a 5-table twice; the fewest
    # repeats (4) need the two pairs at the 5-tables in every round, so more players sit there twice, and the
    # draw takes the fewer repeats.
    seating = draw_seating(list(range(1, 19)), 3, seed=5)
    assert seating.repeated_pairs() == fewest_repeats(18, 3) == 4


def test_the_draw_of_17_in_3_rounds_is_reproducible_and_keeps_clubs_apart():
    players = list(range(1, 18))
    first, again = draw_seating(players, 3, seed="evening"), draw_seating(list(reversed(players)), 3, seed="evening")
    assert first.rounds == again.rounds
    assert draw_seating(players, 3, seed="other").rounds != first.rounds
    clubs = {p: f"club {p % 4}" for p in players[:12]}  # 3 members in each of 4 clubs, 4 tables
    seating = draw_seating(players, 3, seed=1, groups=clubs)
    assert seating.group_conflicts(clubs) == 0 and seating.repeated_pairs() == 2
