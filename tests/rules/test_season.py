"""The season ranking (scoring/rules/season.py): best N of M, minimum evenings, ties."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.season import EveningResult, SeasonRules, counted_evenings, season_ranking, season_stats

D = Decimal
PLACES = tuple(D(p) for p in (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))


def ev(evening, place, points=0, ties=()):
    return EveningResult(evening, place, D(points), tuple(D(t) for t in ties))


# --- examples a club would check by hand --------------------------------------------------------------------


def test_points_per_place_and_best_two_of_three():
    rules = SeasonRules(place_points=PLACES, best_of=2)
    rows = season_ranking({"anna": [ev(1, 1), ev(2, 5), ev(3, 2)], "bert": [ev(1, 2), ev(2, 1), ev(3, 1)]}, rules)
    assert [(r.person, r.rank, r.total) for r in rows] == [("bert", 1, D(50)), ("anna", 2, D(45))]
    anna = rows[1]
    assert [(c.evening, c.worth, c.counted) for c in anna.contributions] == [
        (1, D(25), True), (2, D(11), False), (3, D(20), True)]


def test_places_beyond_the_table_are_worth_nothing():
    rules = SeasonRules(place_points=(D(3), D(2), D(1)))
    assert [c.worth for c in counted_evenings([ev(1, 3), ev(2, 4), ev(3, 40)], rules)] == [D(1), D(0), D(0)]


def test_game_points_count_when_there_is_no_place_table():
    rows = season_ranking({"a": [ev(1, 3, 120), ev(2, 1, -40)], "b": [ev(1, 1, 60)]}, SeasonRules())
    assert [(r.person, r.total) for r in rows] == [("a", D(80)), ("b", D(60))]


def test_fewer_is_better_game_points_keep_the_smallest():
    rules = SeasonRules(best_of=1, higher_is_better=False)
    rows = season_ranking({"a": [ev(1, 2, 7), ev(2, 1, 3)], "b": [ev(1, 1, 4)]}, rules)
    assert [(r.person, r.total, r.rank) for r in rows] == [("a", D(3), 1), ("b", D(4), 2)]


def test_persons_short_of_the_minimum_are_listed_unranked_after_the_ranked():
    rules = SeasonRules(place_points=PLACES, min_evenings=2)
    rows = season_ranking({"star": [ev(1, 1)], "steady": [ev(1, 9), ev(2, 9)]}, rules)
    assert [(r.person, r.rank) for r in rows] == [("steady", 1), ("star", None)]


def test_a_tie_goes_to_the_games_chain_then_to_more_evenings():
    rules = SeasonRules(best_of=1)
    rows = season_ranking({
        "a": [ev(1, 1, 50, ties=(1,))],
        "b": [ev(1, 2, 50, ties=(2,))],
        "c": [ev(1, 3, 50, ties=(2,)), ev(2, 9, 10, ties=(9,))],
        "d": [ev(1, 4, 50, ties=(2,))],
    }, rules)
    # c's second evening is discarded, so its tie value is not counted; c played more evenings than b and d
    assert [(r.person, r.rank, r.separated_by) for r in rows] == [
        ("c", 1, None), ("b", 2, "evenings"), ("d", 2, None), ("a", 4, "ties")]


def test_two_results_on_one_evening_are_refused():
    with pytest.raises(ValueError):
        season_ranking({"a": [ev(1, 1), ev(1, 2)]}, SeasonRules())


def test_stats():
    stats = season_stats([ev(1, 4, 10), ev(2, 2, 25), ev(3, 7, -5)])
    assert (stats.evenings, stats.average_points, stats.best_place, stats.best_points) == (3, D("10.00"), 2, D(25))
    assert season_stats([]) is None


# --- properties ------------------------------------------------------------------------------------------------

evenings_of = st.lists(
    st.tuples(st.integers(1, 30), st.integers(-200, 200), st.integers(0, 5)),
    min_size=0, max_size=8,
).map(lambda rows: [ev(i + 1, place, points, (tie,)) for i, (place, points, tie) in enumerate(rows)])
seasons = st.dictionaries(st.integers(1, 40), evenings_of, max_size=12)
rules_strategy = st.builds(
    SeasonRules,
    place_points=st.one_of(st.none(), st.just(PLACES)),
    best_of=st.one_of(st.none(), st.integers(1, 8)),
    min_evenings=st.integers(1, 4),
    higher_is_better=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(seasons, rules_strategy)
def test_total_is_the_sum_of_the_best_n_evenings(season, rules):
    for row in season_ranking(season, rules):
        worths = sorted((c.worth for c in row.contributions), reverse=rules.more_is_better)
        n = len(worths) if rules.best_of is None else min(rules.best_of, len(worths))
        assert row.total == sum(worths[:n], D(0))
        assert sum(c.counted for c in row.contributions) == n
        # no discarded evening is better than a counted one
        counted = [c.worth for c in row.contributions if c.counted]
        for dropped in (c.worth for c in row.contributions if not c.counted):
            assert all((dropped <= w) if rules.more_is_better else (dropped >= w) for w in counted)


@settings(max_examples=150, deadline=None)
@given(seasons, rules_strategy)
def test_exactly_those_with_enough_evenings_are_ranked(season, rules):
    rows = season_ranking(season, rules)
    assert {r.person for r in rows} == {p for p, evenings in season.items() if evenings}
    for row in rows:
        assert row.ranked == (row.evenings >= rules.min_evenings)
    ranked_flags = [r.ranked for r in rows]
    assert ranked_flags == sorted(ranked_flags, reverse=True), "every ranked person comes before the unranked"


@settings(max_examples=150, deadline=None)
@given(seasons, rules_strategy)
def test_ranks_follow_total_then_chain_then_evenings(season, rules):
    sign = 1 if rules.more_is_better else -1
    ranked = [r for r in season_ranking(season, rules) if r.ranked]
    for position, (above, below) in enumerate(zip(ranked, ranked[1:], strict=False), start=2):
        key_above = (sign * above.total, above.ties, above.evenings)
        key_below = (sign * below.total, below.ties, below.evenings)
        assert key_above >= key_below
        # equal on everything: the same rank; otherwise the rank is the position
        assert below.rank == (above.rank if key_above == key_below else position)
    if ranked:
        assert ranked[0].rank == 1


@settings(max_examples=150, deadline=None)
@given(evenings_of, st.integers(1, 8))
def test_adding_a_worse_evening_never_lowers_a_best_n_total(evenings, n):
    rules = SeasonRules(place_points=PLACES, best_of=n)
    before = season_ranking({"p": evenings}, rules)
    after = season_ranking({"p": [*evenings, ev(len(evenings) + 1, 30)]}, rules)
    assert after[0].total >= (before[0].total if before else 0)
