"""The database snapshot that proves a refused post changed nothing sees every change of a stored value."""

import pytest

from tournament.models import Participant

from .harness import changed, snapshot

pytestmark = pytest.mark.django_db


def test_snapshot_sees_a_changed_value_and_a_new_row(director, make_tournament):
    tournament = make_tournament(director, game="schafkopf")
    player = Participant.objects.create(tournament=tournament, number=1, first_name="Anna", last_name="Huber")
    before = snapshot()
    assert not changed(before, snapshot())

    Participant.objects.filter(pk=player.pk).update(first_name="Anne")
    assert changed(before, snapshot()) == ["tournament.Participant"]

    Participant.objects.filter(pk=player.pk).update(first_name="Anna")
    assert not changed(before, snapshot())

    tournament.settings = {**tournament.settings, "rounds": 3}
    tournament.save(update_fields=["settings"])
    assert changed(before, snapshot()) == ["tournament.Tournament"]

    Participant.objects.create(tournament=tournament, number=2, first_name="Sepp", last_name="Maier")
    assert "tournament.Participant" in changed(before, snapshot())
