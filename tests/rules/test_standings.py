from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.standings import LOT_KEY, Metric, _rank_recursive, _rank_sorted, rank

POINTS = Metric("points", "Points", "Pts")
WINS = Metric("wins", "Wins", "W")


def test_orders_by_chain_and_records_what_separated():
    values = {"a": {"points": 4, "wins": 2}, "b": {"points": 4, "wins": 1}, "c": {"points": 6, "wins": 3}}
    rows = rank(["a", "b", "c"], [POINTS, WINS], values)
    assert [r.participant for r in rows] == ["c", "a", "b"]
    assert [r.rank for r in rows] == [1, 2, 3]
    assert rows[1].separated_by == "points" and rows[2].separated_by == "wins"
    assert not any(r.by_lot for r in rows)


def test_lower_is_better_metric():
    penalty = Metric("penalty", "Penalty", "Pen", higher_is_better=False)
    rows = rank(["a", "b"], [penalty], {"a": {"penalty": 30}, "b": {"penalty": 10}})
    assert [r.participant for r in rows] == ["b", "a"]


def test_subset_metric_recomputed_on_smaller_tied_group():
    # a, b, c tied on points. Among all three, a is best and b, c tie;
    # recomputed among b and c alone, c beat b.
    calls = []

    def h2h(group):
        calls.append(group)
        if group == frozenset("abc"):
            return {"a": 2, "b": 1, "c": 1}
        if group == frozenset("bc"):
            return {"b": 0, "c": 1}
        raise AssertionError(group)

    values = {p: {"points": 3} for p in "abc"}
    rows = rank(list("abc"), [POINTS, Metric("h2h", "H2H", "H2H", subset=h2h)], values)
    assert [r.participant for r in rows] == ["a", "c", "b"]
    assert calls == [frozenset("abc"), frozenset("bc")]
    assert rows[2].values["h2h"] == 0


def test_lot_is_reproducible_and_marked():
    values = {p: {"points": 1} for p in "abcd"}
    first = rank(list("abcd"), [POINTS], values, seed=42)
    again = rank(list("dcba"), [POINTS], values, seed=42)
    assert [r.participant for r in first] == [r.participant for r in again]
    assert all(r.by_lot for r in first)
    assert [r.separated_by for r in first[1:]] == [LOT_KEY] * 3
    orders = {tuple(r.participant for r in rank(list("abcd"), [POINTS], values, seed=s)) for s in range(30)}
    assert len(orders) > 1


def test_without_seed_ties_share_rank():
    values = {"a": {"points": 1}, "b": {"points": 1}, "c": {"points": 0}}
    rows = rank(list("abc"), [POINTS], values, seed=None)
    assert [r.rank for r in rows] == [1, 1, 3]


def test_separated_by_names_the_metric_after_reordering_inside_a_tie():
    score = Metric("score", "Score", "Sc")
    values = {"a": {"points": 5, "score": 1}, "c": {"points": 3, "score": 1}, "f": {"points": 3, "score": 9}}
    rows = rank(list("acf"), [POINTS, score], values)
    assert [(r.participant, r.separated_by) for r in rows] == [("a", None), ("f", "points"), ("c", "score")]


def _summary(rows):
    return [(r.participant, r.rank, r.separated_by, r.by_lot, r.values) for r in rows]


@st.composite
def plain_rankings(draw):
    """Random plain chains (some lower-is-better) over participants with small value ranges: many ties."""
    flags = draw(st.lists(st.booleans(), min_size=0, max_size=4))
    chain = [Metric(f"m{i}", f"M{i}", f"M{i}", higher_is_better=flag) for i, flag in enumerate(flags)]
    count = draw(st.integers(min_value=0, max_value=25))
    participants = draw(st.permutations(range(count)))
    top = draw(st.integers(min_value=0, max_value=3))
    values = {
        p: {metric.key: draw(st.integers(min_value=-top, max_value=top)) for metric in chain} for p in participants
    }
    seed = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=1000), st.text(max_size=3)))
    return participants, chain, values, seed


@settings(derandomize=True, max_examples=300, deadline=None, database=None)
@given(plain_rankings())
def test_sorted_path_equals_recursive_path(case):
    participants, chain, values, seed = case
    expected = _rank_recursive(participants, chain, values, seed=seed)
    assert _summary(_rank_sorted(participants, chain, values, seed=seed)) == _summary(expected)
    assert _summary(rank(participants, chain, values, seed=seed)) == _summary(expected)


def test_sorted_path_with_tuple_values_and_missing_values_behaves_as_before():
    hth = Metric("hth", "H2H", "H2H")
    values = {"a": {"points": 3, "hth": (1, 2)}, "b": {"points": 3, "hth": (1, 0)}, "c": {"points": 9}}
    rows = rank(list("abc"), [POINTS, hth], values)
    assert _summary(rows) == _summary(_rank_recursive(list("abc"), [POINTS, hth], values, seed=0))
    assert [(r.participant, r.separated_by) for r in rows] == [("c", None), ("a", "points"), ("b", "hth")]
    # c has no "hth" and is alone on its points: never compared, as the recursive walk never did
    mixed = {"a": {"points": 3, "wins": None}, "b": {"points": 1, "wins": 2}}
    assert [r.participant for r in rank(list("ab"), [POINTS, WINS], mixed)] == ["a", "b"]


def test_lot_is_drawn_on_the_lot_keys_not_on_the_participants():
    """A tournament file's copy has other database ids but the same participant numbers: the same lot."""
    chain = [Metric("points", "Points", "P")]
    numbers = {11: 1, 12: 2, 13: 3, 14: 4}
    here = rank(list(numbers), chain, {p: {"points": 5} for p in numbers}, seed=7, lot_keys=numbers)
    moved = {pk + 900: number for pk, number in numbers.items()}  # the copy: other ids, same numbers
    there = rank(list(moved), chain, {p: {"points": 5} for p in moved}, seed=7, lot_keys=moved)
    assert [numbers[s.participant] for s in here] == [moved[s.participant] for s in there]
    assert all(s.by_lot for s in here + there)
    # keyed on the ids themselves, some shift of the ids draws another order: the order followed the ids
    orders = {tuple(numbers[s.participant - shift] for s in rank(
        [pk + shift for pk in numbers], chain, {pk + shift: {"points": 5} for pk in numbers}, seed=7))
        for shift in range(0, 40, 10)}
    assert len(orders) > 1


def test_shared_ranks_without_seed_are_listed_by_lot_key():
    chain = [Metric("points", "Points", "P")]
    rows = rank([30, 20, 10], chain, {p: {"points": 1} for p in (10, 20, 30)}, seed=None,
                lot_keys={30: 1, 20: 2, 10: 3})
    assert [r.participant for r in rows] == [30, 20, 10]
    assert {r.rank for r in rows} == {1}
