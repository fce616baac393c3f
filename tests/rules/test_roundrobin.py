from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.base import RuleError
from tournament.draw.roundrobin import round_robin

team_lists = st.lists(st.integers(min_value=1, max_value=10_000), min_size=2, max_size=30, unique=True)


def games_of(rounds):
    return [pair for rnd in rounds for pair in rnd if pair[1] is not None]


@settings(max_examples=120, deadline=None)
@given(team_lists)
def test_every_pair_meets_exactly_once(teams):
    met = Counter(frozenset(pair) for pair in games_of(round_robin(teams)))
    assert set(met) == {frozenset(pair) for pair in combinations(teams, 2)}
    assert set(met.values()) == {1}


@settings(max_examples=120, deadline=None)
@given(team_lists)
def test_rounds_byes_and_nobody_twice_in_a_round(teams):
    rounds = round_robin(teams)
    n = len(teams)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for rnd in rounds:
        seen = [team for pair in rnd for team in pair if team is not None]
        assert sorted(seen) == sorted(teams)  # everybody once: playing or sitting out
        byes = [pair for pair in rnd if pair[1] is None]
        assert len(byes) == n % 2
        assert all(pair[0] is not None for pair in rnd)
        assert rnd[len(rnd) - len(byes):] == byes  # byes last, games keep table numbers 1, 2, ...
    if n % 2:
        assert sorted(pair[0] for rnd in rounds for pair in rnd if pair[1] is None) == sorted(teams)


@settings(max_examples=120, deadline=None)
@given(team_lists)
def test_first_named_in_half_of_the_games(teams):
    games = games_of(round_robin(teams))
    first = Counter(a for a, _ in games)
    second = Counter(b for _, b in games)
    assert all(abs(first[t] - second[t]) <= 1 for t in teams)


def test_deterministic_and_the_first_round_pairs_ends():
    assert round_robin(list("ABCDEF")) == round_robin(list("ABCDEF"))
    assert round_robin(list("ABCDEF"))[0] == [("A", "F"), ("B", "E"), ("C", "D")]
    assert round_robin(list("ABCDE"))[0] == [("B", "E"), ("C", "D"), ("A", None)]
    assert round_robin(["x", "y"]) == [[("x", "y")]]


@pytest.mark.parametrize("teams", [[], ["A"], ["A", "B", "A"], ["A", None, "B"]])
def test_bad_team_lists_refused(teams):
    with pytest.raises(RuleError) as caught:
        round_robin(teams)
    assert caught.value.field == "team_ids"
