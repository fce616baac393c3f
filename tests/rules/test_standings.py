from scoring.rules.standings import LOT_KEY, Metric, rank

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
