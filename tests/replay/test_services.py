"""The single-use form keys (`tournament.services.replay`) and the one sheet gateway: saved once."""

import pytest
from django.db import transaction

from scoring.models import PendingSheet, ScoreSheet, SheetRevision
from scoring.results.recording import StaleVersion
from tournament.models import AuditEntry, SentForm
from tournament.services.errors import DomainError
from tournament.services.replay import AlreadySaved, Sent, claim, new_key, was_saved

pytestmark = pytest.mark.django_db


def sent(digest="a" * 64, key=None):
    return Sent(key=key or new_key(), digest=digest)


def test_a_key_is_claimed_once(director):
    form = sent()
    with transaction.atomic():
        claim(form, by=director, action="team.add", what="Team 1")
    with pytest.raises(AlreadySaved, match=r"Already saved: Team 1 \(by director"), transaction.atomic():
        claim(form, by=director, action="team.add", what="Team 1")
    with pytest.raises(AlreadySaved):
        was_saved(form)
    assert SentForm.objects.count() == 1


def test_a_refused_operation_frees_its_key(director):
    form = sent()
    with pytest.raises(DomainError), transaction.atomic():
        claim(form, by=director, action="team.add")
        raise DomainError("refused")
    was_saved(form)  # not saved: the corrected form may be sent with the same key
    with transaction.atomic():
        claim(form, by=director, action="team.add")
    assert SentForm.objects.count() == 1


def test_the_same_key_with_other_content_is_a_new_submission(director):
    key = new_key()
    with transaction.atomic():
        claim(sent("a" * 64, key), by=director, action="participant.add")
        claim(sent("b" * 64, key), by=director, action="participant.add")
    assert SentForm.objects.count() == 2


def test_without_a_key_nothing_is_checked(director):
    with transaction.atomic():
        claim(None, by=director, action="sheet")
    was_saved(None)
    assert not SentForm.objects.exists()


# --- the sheet gateway, for a Voms slip, a Schafkopf list and a rummi sheet ---------------------------------


def test_a_sheet_sent_twice_is_saved_once(game, first):
    form = sent()
    sheet = game.enter(first, sent=form)
    with pytest.raises(AlreadySaved, match="sent twice"):
        game.enter(first, sent=form)
    assert ScoreSheet.objects.get().version == 1 == SheetRevision.objects.count()
    assert AuditEntry.objects.filter(action="sheet.entry").count() == 1
    assert sheet.counted


def test_a_first_entry_sent_twice_is_kept_once(double, first):
    form = sent()
    double.enter(first, sent=form)
    with pytest.raises(AlreadySaved):
        double.enter(first, sent=form)
    assert PendingSheet.objects.get().version == 1
    assert AuditEntry.objects.filter(action="sheet.first_entry").count() == 1


def test_the_same_entries_again_are_already_saved_not_a_new_version(game, first, second, director):
    """A second person (or a director without a change) saving what the sheet holds: no second revision."""
    game.enter(first, expected_version=0)
    for who in (second, director):
        with pytest.raises(AlreadySaved, match="holds exactly these entries"):
            game.enter(who, expected_version=0)
        with pytest.raises(AlreadySaved):
            game.enter(who)
    assert ScoreSheet.objects.get().version == 1 == SheetRevision.objects.count()


def test_a_new_sheet_saved_meanwhile_is_shown_as_two_versions(game, first, second, director):
    """Both forms were loaded before either was saved (version 0): the second sees the first, never corrects it."""
    game.enter(first, expected_version=0)
    for who in (second, director):
        with pytest.raises(StaleVersion):
            game.enter(who, variant=1, expected_version=0, reason="")
    assert ScoreSheet.objects.get().version == 1


def test_a_refused_sheet_does_not_use_up_the_key(game, first, second):
    form = sent()
    game.enter(first, expected_version=0)
    with pytest.raises(StaleVersion):
        game.enter(second, variant=1, expected_version=0, sent=form)
    assert not SentForm.objects.filter(key=form.key).exists()
