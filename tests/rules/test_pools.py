from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.base import RuleError
from tournament.draw.pools import draw_pools, pool_name, pool_sizes


@st.composite
def requests(draw):
    teams = draw(st.lists(st.integers(min_value=1, max_value=999), min_size=2, max_size=60, unique=True))
    pools = draw(st.integers(min_value=1, max_value=len(teams) // 2))
    seeded = draw(st.lists(st.sampled_from(teams), unique=True, max_size=len(teams)))
    return teams, pools, seeded


@settings(max_examples=150, deadline=None)
@given(requests(), st.integers())
def test_every_team_drawn_once_into_near_equal_pools(request, seed):
    teams, pools, seeded = request
    drawn = draw_pools(teams, pools, seed=seed, seeded=seeded)
    assert len(drawn) == pools
    assert sorted(t for pool in drawn for t in pool) == sorted(teams)
    sizes = [len(pool) for pool in drawn]
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2
    assert sizes == sorted(sizes, reverse=True) == pool_sizes(len(teams), pools)


@settings(max_examples=150, deadline=None)
@given(requests(), st.integers())
def test_seeded_teams_spread_over_the_pools(request, seed):
    teams, pools, seeded = request
    drawn = draw_pools(teams, pools, seed=seed, seeded=seeded)
    per_pool = [len(set(pool) & set(seeded)) for pool in drawn]
    assert max(per_pool) - min(per_pool) <= 1
    # Pots in the given order: the first `pools` seeded teams are all in different pools.
    pool_of = {t: i for i, pool in enumerate(drawn) for t in pool}
    top = seeded[:pools]
    assert len({pool_of[t] for t in top}) == len(top)


@settings(max_examples=100, deadline=None)
@given(requests(), st.integers(), st.randoms(use_true_random=False))
def test_same_seed_same_draw_whatever_the_input_order(request, seed, rnd):
    teams, pools, seeded = request
    shuffled = list(teams)
    rnd.shuffle(shuffled)
    assert draw_pools(teams, pools, seed=seed, seeded=seeded) == draw_pools(
        shuffled, pools, seed=seed, seeded=seeded
    )


def test_different_seeds_give_different_draws():
    teams = list(range(20))
    draws = {tuple(map(tuple, draw_pools(teams, 2, seed=s))) for s in range(10)}
    assert len(draws) > 1


def test_source_example_twenty_teams_two_pools():
    drawn = draw_pools([f"team{i}" for i in range(20)], 2, seed="2024-05-01", seeded=["team3", "team7"])
    assert [len(p) for p in drawn] == [10, 10]
    assert Counter(("team3" in p) + ("team7" in p) for p in drawn) == Counter({1: 2})


@pytest.mark.parametrize(
    ("teams", "pools", "seeded", "code"),
    [
        (list(range(10)), 0, (), "pools_invalid"),
        (list(range(10)), 6, (), "too_few_teams_for_pools"),
        ([1, 2, 2, 3], 1, (), "duplicate_team"),
        (list(range(10)), 2, (11,), "seeded_invalid"),
        (list(range(10)), 2, (1, 1), "seeded_invalid"),
    ],
)
def test_impossible_requests_refused(teams, pools, seeded, code):
    with pytest.raises(RuleError) as caught:
        draw_pools(teams, pools, seed=1, seeded=seeded)
    assert caught.value.code == code
    assert "%(" not in str(caught.value)


def test_pool_names():
    assert [pool_name(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA",
    ]
    with pytest.raises(ValueError):
        pool_name(-1)
