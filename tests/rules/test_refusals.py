"""The refusals the pure rules and draws share (scoring/rules/base.py): a whole number of 0 or more, each item once;
and the refusals built on them that no other test names."""

import pytest

from scoring.rules.base import RuleError, is_whole_number, require_count, require_each_once
from scoring.rules.domino import FEMMER, DominoHand, score_hand
from scoring.rules.voms import VomsSettings, is_disqualified
from tournament.draw.roundrobin import round_robin


def refused(call, *args, **kwargs) -> RuleError:
    with pytest.raises(RuleError) as error:
        call(*args, **kwargs)
    return error.value


def test_a_whole_number_is_an_int_and_never_a_bool():
    assert [is_whole_number(value) for value in (0, -3, 12, True, 3.0, "3", None)] == [
        True, True, True, False, False, False, False]


@pytest.mark.parametrize("value", [-1, 2.0, True, "3", None])
def test_a_count_is_a_whole_number_of_zero_or_more(value):
    error = refused(require_count, value, "x_invalid", "%(who)s has %(value)s.", field="x", who="A")
    assert (error.code, error.field, error.params) == ("x_invalid", "x", {"who": "A", "value": value})


@pytest.mark.parametrize("value", [0, 7])
def test_a_count_of_zero_or_more_passes(value):
    assert require_count(value, "x_invalid", "%(value)s.", field="x") is None


def test_each_once_names_the_first_item_seen_twice():
    error = refused(require_each_once, [1, 2, 3, 2, 1], "twice", "%(team)s twice.", field="teams", name="team")
    assert (error.code, error.field, error.params) == ("twice", "teams", {"team": 2})


def test_each_once_refuses_an_item_it_does_not_allow():
    error = refused(require_each_once, ["a", None, "b"], "missing", "%(team)s.", field="teams", name="team",
                    allowed=lambda team: team is not None)
    assert error.params == {"team": None}


def test_each_once_passes_distinct_allowed_items():
    assert require_each_once([3, 1, 2], "twice", "%(n)s.", field="n", name="n", allowed=lambda n: n > 0) is None


@pytest.mark.parametrize("teams, team", [(["A", None, "B"], None), (["A", "B", "A"], "A")])
def test_a_round_robin_needs_every_team_once(teams, team):
    error = refused(round_robin, teams)
    assert (error.code, error.field, error.params) == ("team_invalid", "team_ids", {"team": team})


def test_voms_absences_are_a_count():
    assert refused(is_disqualified, -1).code == "absences_invalid"
    assert refused(VomsSettings, max_absences=-1).code == "absences_setting_invalid"
    assert is_disqualified(0) is False


def test_points_during_play_are_a_count():
    hand = DominoHand(pips={"a": 0, "b": 10, "c": 5}, out="a", play_points={"a": -5, "b": 0, "c": 0})
    error = refused(score_hand, FEMMER, hand)
    assert (error.code, error.field, error.params) == ("play_points_invalid", "play_points",
                                                       {"player": "a", "value": -5})
