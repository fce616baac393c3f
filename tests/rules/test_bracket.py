import math
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.base import RuleError
from tournament.draw.bracket import (
    BYE,
    Entrant,
    LoserOf,
    Qualifier,
    WinnerOf,
    knockout_bracket,
    resolve_matches,
    round_name,
    semifinal_round_robin,
)


def qualifiers(pools, per_pool):
    return [
        Qualifier(p, place, f"{'ABCDEFGHIJKLMNOP'[p]}{place}") for p in range(pools) for place in range(1, per_pool + 1)
    ]


def first_round(bracket):
    """Labels of the first round, e.g. ["A1-B2", "B1-A2"]; "bye" for a bye."""

    def label(slot):
        return slot.qualifier.label if isinstance(slot, Entrant) else "bye"

    return [f"{label(m.slot_a)}-{label(m.slot_b)}" for m in bracket.rounds[0]]


def positions(bracket):
    slots = [slot for m in bracket.rounds[0] for slot in (m.slot_a, m.slot_b)]
    return {slot.qualifier: pos for pos, slot in enumerate(slots) if isinstance(slot, Entrant)}


def meeting_round(pos_a, pos_b):
    return (pos_a ^ pos_b).bit_length()


def same_pool_meetings(bracket):
    """{(q1.label, q2.label): round in which they would meet} for teams of the same pool."""
    where = positions(bracket)
    return {
        (a.label, b.label): meeting_round(where[a], where[b])
        for a, b in combinations(sorted(where, key=lambda q: (q.pool, q.place)), 2)
        if a.pool == b.pool
    }


def test_two_pools_two_each_semifinals_a1_b2_and_b1_a2():
    bracket = knockout_bracket(qualifiers(2, 2), third_place=True)
    assert first_round(bracket) == ["A1-B2", "B1-A2"]
    assert [m.id for m in bracket.rounds[0]] == ["SF1", "SF2"]
    assert bracket.final.slot_a == WinnerOf("SF1") and bracket.final.slot_b == WinnerOf("SF2")
    assert bracket.third_place.slot_a == LoserOf("SF1") and bracket.third_place.slot_b == LoserOf("SF2")
    assert [m.id for m in bracket.matches()] == ["SF1", "SF2", "3P", "F"]


def test_three_pools_two_each_byes_to_two_best_winners():
    bracket = knockout_bracket(qualifiers(3, 2))
    assert first_round(bracket) == ["A1-bye", "B2-C2", "B1-bye", "C1-A2"]
    assert set(same_pool_meetings(bracket).values()) == {3}  # only in the final


def test_four_pools_two_each_same_pool_only_in_the_final():
    bracket = knockout_bracket(qualifiers(4, 2))
    assert first_round(bracket) == ["A1-C2", "D1-B2", "B1-D2", "C1-A2"]
    assert set(same_pool_meetings(bracket).values()) == {3}


def test_eight_pools_two_each_winners_against_runners_up_and_apart():
    bracket = knockout_bracket(qualifiers(8, 2))
    assert [m.id for m in bracket.rounds[0]][:2] == ["R16-1", "R16-2"]
    assert [m.id for m in bracket.rounds[1]] == ["QF1", "QF2", "QF3", "QF4"]
    for match in bracket.rounds[0]:
        assert (match.slot_a.qualifier.place, match.slot_b.qualifier.place) == (1, 2)
    assert set(same_pool_meetings(bracket).values()) == {4}
    first = first_round(bracket)
    assert first[0].startswith("A1-") and first[len(first) // 2].startswith("B1-")  # best two meet last


def test_three_pools_four_each_pool_winner_and_runner_up_meet_last():
    bracket = knockout_bracket(qualifiers(3, 4))
    meetings = same_pool_meetings(bracket)
    assert {meetings[(f"{p}1", f"{p}2")] for p in "ABC"} == {4}
    assert min(meetings.values()) == 3  # 4 teams per pool in 16 slots: semifinal at the earliest
    byes = [m.slot_a.qualifier.label for m in bracket.rounds[0] if m.is_bye]
    assert sorted(byes) == ["A1", "A2", "B1", "C1"]


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=16), st.integers(min_value=1, max_value=4))
def test_any_pool_count_byes_to_best_and_pools_apart_as_long_as_possible(pools, per_pool):
    if pools * per_pool < 2:
        return
    field = qualifiers(pools, per_pool)
    bracket = knockout_bracket(field)
    size = 2 * len(bracket.rounds[0])
    assert size == 2 ** math.ceil(math.log2(len(field)))
    assert sorted(positions(bracket), key=lambda q: (q.pool, q.place)) == field  # everybody once
    ranked = sorted(field, key=lambda q: (q.place, q.pool))
    byes = {m.slot_a.qualifier for m in bracket.rounds[0] if m.is_bye}
    assert byes == set(ranked[: size - len(field)])
    assert all(m.slot_b == BYE for m in bracket.rounds[0] if m.is_bye)
    for match in bracket.rounds[0]:
        if not match.is_bye:
            assert match.slot_a.qualifier.place <= match.slot_b.qualifier.place
    # k teams of one pool can all be kept apart until the round where subtrees of
    # size/k slots merge; no pair may meet earlier than that.
    if per_pool > 1:
        latest_possible = int(math.log2(size // per_pool)) + 1
        assert min(same_pool_meetings(bracket).values()) >= latest_possible


def test_resolving_winners_through_the_bracket():
    bracket = knockout_bracket(qualifiers(3, 2), third_place=True)
    teams = resolve_matches(bracket, {})
    assert teams["QF1"] == ("A1", None) and teams["SF1"] == ("A1", None)  # the bye advances by itself
    assert teams["QF2"] == ("B2", "C2") and teams["F"] == (None, None)
    teams = resolve_matches(bracket, {"QF2": "C2", "QF4": "A2", "SF1": "C2", "SF2": "B1"})
    assert teams["SF1"] == ("A1", "C2") and teams["SF2"] == ("B1", "A2")
    assert teams["F"] == ("C2", "B1") and teams["3P"] == ("A1", "A2")


def test_resolving_refuses_impossible_winners():
    bracket = knockout_bracket(qualifiers(2, 2))
    with pytest.raises(RuleError) as caught:
        resolve_matches(bracket, {"SF1": "B1"})
    assert caught.value.code == "winner_not_in_match"
    with pytest.raises(RuleError) as caught:
        resolve_matches(bracket, {"F": "A1"})  # the final's teams are not known yet
    assert caught.value.code == "winner_not_in_match"
    with pytest.raises(RuleError) as caught:
        resolve_matches(bracket, {"QF9": "A1"})
    assert caught.value.code == "unknown_match"


def test_third_place_needs_two_played_semifinals():
    with pytest.raises(RuleError) as caught:
        knockout_bracket(qualifiers(3, 1), third_place=True)
    assert caught.value.code == "third_place_impossible"
    assert knockout_bracket(qualifiers(3, 1)).third_place is None
    assert knockout_bracket(qualifiers(5, 1), third_place=True).third_place.round == 3


def test_two_qualifiers_play_only_a_final():
    bracket = knockout_bracket(qualifiers(2, 1))
    assert [[m.id for m in r] for r in bracket.rounds] == [["F"]]
    assert first_round(bracket) == ["A1-B1"]


@pytest.mark.parametrize(
    ("field", "code"),
    [
        ([Qualifier(0, 1, "x")], "too_few_qualifiers"),
        ([Qualifier(0, 1, "x"), Qualifier(0, 1, "y")], "qualifier_duplicate"),
        ([Qualifier(0, 1, "x"), Qualifier(1, 1, "x")], "qualifier_duplicate"),
        ([Qualifier(0, 0, "x"), Qualifier(1, 1, "y")], "qualifier_invalid"),
    ],
)
def test_bad_qualifiers_refused(field, code):
    with pytest.raises(RuleError) as caught:
        knockout_bracket(field)
    assert caught.value.code == code


def test_round_names():
    assert round_name(3, 3) == ("Final", {})
    assert round_name(2, 3) == ("Semifinal", {})
    assert round_name(1, 3) == ("Quarterfinal", {})
    assert round_name(1, 5) == ("Round of %(teams)s", {"teams": 32})


def test_semifinal_round_robin_of_four():
    rounds = semifinal_round_robin(["A1", "B2", "B1", "A2"])
    assert len(rounds) == 3 and all(len(r) == 2 for r in rounds)
    met = {frozenset(pair) for r in rounds for pair in r}
    assert met == {frozenset(p) for p in combinations(["A1", "B2", "B1", "A2"], 2)}
    with pytest.raises(RuleError):
        semifinal_round_robin(["A1", "B1", "A2"])
