"""The one state vocabulary of a place on the round's board (`scoring.board.place_state`), without a database."""

from types import SimpleNamespace

from django.utils import translation

from scoring.board import AWAITING, COUNTED, MISSING, RUNNING, PlaceState, place_state


def test_a_first_entry_waits_whatever_the_sheet_holds():
    pending = SimpleNamespace()
    assert place_state(None, pending) == AWAITING
    assert place_state({"finished": False}, pending) == AWAITING
    assert place_state({"finished": True}, pending) == AWAITING


def test_without_a_first_entry_the_sheet_says_it():
    assert place_state(None, None) == MISSING
    assert place_state({"finished": False}, None) == RUNNING
    assert place_state({"finished": True}, None) == COUNTED
    assert place_state({"total": 12}, None) == COUNTED  # a Schafkopf list is whole when saved


def test_each_state_has_a_translated_label_and_count():
    assert [str(state) for state in PlaceState] == ["missing", "running", "awaiting", "counted"]
    with translation.override("de"):
        assert COUNTED.count_text(3) == "3 gezählt"
        assert MISSING.label == "fehlt"
