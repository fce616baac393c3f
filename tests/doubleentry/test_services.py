"""Double entry through the one gateway `record_sheet`, for a Voms slip, a Schafkopf list and a rummi sheet."""

import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from scoring.models import PendingSheet, ScoreSheet, SheetRevision
from scoring.results.compare import differences
from scoring.results.double_entry import EntriesDiffer
from scoring.results.recording import StaleVersion
from scoring.results.words import user_name
from tests.conftest import new_director, new_tournament, shared
from tournament.models import AuditEntry
from tournament.services.errors import DomainError
from tournament.services.replay import AlreadySaved

from .conftest import GAMES

pytestmark = pytest.mark.django_db


def build_games():
    """The director and conftest.py's `game` of each kind, made as that fixture makes them."""
    director = new_director()
    return director, {kind: make(director, new_tournament) for kind, make in GAMES.items()}


@pytest.fixture(scope="module")
def built(build_once):
    """The three games built once for the module's tests (each test's changes roll back), in place of one
    game built per test."""
    return build_once(build_games)


@pytest.fixture
def world(request, built):
    return shared(request, built)


@pytest.fixture
def director(world):
    return world[0]


@pytest.fixture(params=list(GAMES))
def game(request, world):
    """Each kind of game once: a Voms slip, a Schafkopf list, a table game (rummi) sheet."""
    return world[1][request.param]


def sheets(game):
    return ScoreSheet.objects.filter(tournament=game.tournament)


def test_off_by_default_an_entry_counts_at_once(game, first):
    assert not game.tournament.double_entry
    sheet = game.enter(first)
    assert sheet.counted and isinstance(sheet, ScoreSheet)
    assert game.counts() and not PendingSheet.objects.exists()


def test_a_first_entry_does_not_count(double, first):
    pending = double.enter(first)
    assert not pending.counted and isinstance(pending, PendingSheet)
    assert not sheets(double).exists() and not double.counts()
    assert AuditEntry.objects.filter(action="sheet.first_entry", user=first).exists()


def test_the_same_person_cannot_confirm_alone(double, first):
    double.enter(first)
    with pytest.raises(DomainError, match="yourself"):
        double.confirm(first)
    again = double.enter(first)  # typing it again only replaces their own first entry
    assert not again.counted and again.version == 2
    assert not sheets(double).exists() and not double.counts()


def test_a_second_identical_entry_counts(double, first, second):
    double.enter(first)
    sheet = double.enter(second)
    assert sheet.counted and double.counts()
    assert not PendingSheet.objects.exists()
    revision = SheetRevision.objects.get(sheet=sheet)
    assert (revision.by, revision.confirmed_by) == (first, second)
    audit = AuditEntry.objects.get(action="sheet.confirmed")
    assert audit.after["entered_by"] == "first" and audit.after["confirmed_by"] == "second"


def test_a_different_entry_changes_nothing_and_names_the_fields(double, first, second):
    pending = double.enter(first)
    with pytest.raises(EntriesDiffer) as differ:
        double.enter(second, variant=1)
    assert not sheets(double).exists() and not double.counts()
    kept = PendingSheet.objects.get()
    assert (kept.entries, kept.version, kept.entered_by) == (pending.entries, 1, first)
    fields = differences(differ.value.pending.entries, differ.value.entries, double.fields())
    assert len(fields) == 1
    sheet = double.enter(second)  # the second person fixes their typing: now it is the same
    assert sheet.counted and double.counts()


def test_the_confirm_button_counts_the_first_entry(double, first, second):
    pending = double.enter(first)
    with pytest.raises(DomainError, match="changed meanwhile"):
        double.confirm(second, expected_version=pending.version + 1)
    sheet = double.confirm(second, expected_version=pending.version)
    assert sheet.counted and double.counts() and sheet.entered_by == first
    assert SheetRevision.objects.get(sheet=sheet).confirmed_by == second
    with pytest.raises(DomainError, match="no first entry"):
        double.confirm(second)


def test_a_director_decides_between_two_versions(double, first, second, director):
    double.enter(first)
    with pytest.raises(EntriesDiffer) as differ:
        double.enter(director, variant=1)
    # the director is not told to ask a director: the decision is theirs, on the same page
    assert "decide below which entry counts" in differ.value.message and "ask a director" not in differ.value.message
    with pytest.raises(EntriesDiffer, match="ask a director to decide"):
        double.enter(second, variant=1)
    with pytest.raises(DomainError, match="Only a director"):
        double.enter(second, variant=1, decide=True)
    sheet = double.enter(director, variant=1, decide=True)
    assert sheet.counted and double.counts() and not PendingSheet.objects.exists()
    audit = AuditEntry.objects.get(action="sheet.decided")
    assert audit.user == director and audit.before["entered_by"] == "first"


def test_a_director_may_let_the_first_entry_count(double, first, director):
    double.enter(first)
    sheet = double.confirm(director)
    assert sheet.counted and sheet.entered_by == first


def as_stored(entries):
    """Entries as the audit log keeps them (JSON)."""
    return json.loads(json.dumps(entries, cls=DjangoJSONEncoder))


def test_a_director_who_lets_the_first_entry_count_keeps_their_own_version_in_the_audit(double, first, second,
                                                                                        director):
    """"Let the first entry count" after "The two entries differ": the first entry counts as it stands, written as
    `sheet.decided` (not as a plain confirmation) with the director's different version kept: no typing is lost."""
    pending = double.enter(first)
    with pytest.raises(EntriesDiffer) as differ:
        double.enter(director, variant=1)
    typed = differ.value.entries
    with pytest.raises(DomainError, match="Only a director"):
        double.enter(second, variant=1, decide="first")
    with pytest.raises(DomainError, match="changed meanwhile"):
        double.enter(director, variant=1, decide="first", pending_version=pending.version + 1)
    assert not sheets(double).exists() and PendingSheet.objects.get().entries == pending.entries

    sheet = double.enter(director, variant=1, decide="first", pending_version=pending.version)
    assert sheet.counted and double.counts() and not PendingSheet.objects.exists()
    assert sheet.entries == pending.entries and sheet.entered_by == first
    revision = SheetRevision.objects.get(sheet=sheet)
    assert (revision.by, revision.confirmed_by, revision.entries) == (first, director, pending.entries)
    assert not AuditEntry.objects.filter(action="sheet.confirmed").exists()
    audit = AuditEntry.objects.get(action="sheet.decided")
    assert audit.user == director and audit.after["decision"] == "first"
    assert audit.after["entries"] == as_stored(pending.entries) and audit.after["entered_by"] == "first"
    assert audit.before["entries"] == as_stored(typed) != audit.after["entries"]
    assert audit.before["entered_by"] == user_name(director)


def test_letting_the_first_entry_count_never_stores_the_typed_version_as_a_first_entry(double, director):
    """Without a first entry that still stands (confirmed meanwhile, or the director's own), "let the first entry
    count" is refused with a message; the director's typing is not quietly kept as a new first entry."""
    with pytest.raises(DomainError, match="no first entry"):
        double.enter(director, variant=1, decide="first")
    assert not PendingSheet.objects.exists() and not sheets(double).exists()
    own = double.enter(director)
    with pytest.raises(DomainError, match="yourself"):
        double.enter(director, variant=1, decide="first")
    kept = PendingSheet.objects.get()
    assert (kept.entries, kept.version, kept.entered_by) == (own.entries, own.version, director)


def test_letting_their_own_entry_count_says_so_in_the_audit(double, first, director):
    pending = double.enter(first)
    with pytest.raises(DomainError, match="changed meanwhile"):
        double.enter(director, variant=1, decide="mine", pending_version=pending.version + 1)
    sheet = double.enter(director, variant=1, decide="mine", pending_version=pending.version)
    assert sheet.counted and sheet.entered_by == director
    audit = AuditEntry.objects.get(action="sheet.decided")
    assert audit.after["decision"] == "mine" and audit.before["entries"] == as_stored(pending.entries)


def test_a_director_correction_goes_straight_through_and_a_stale_version_is_refused(double, first, second,
                                                                                       director):
    double.enter(first)
    sheet = double.enter(second)
    corrected = double.correction(director, expected_version=sheet.version, reason="paper says so")
    assert corrected.counted and corrected.corrected and corrected.version == sheet.version + 1
    assert not PendingSheet.objects.exists()
    with pytest.raises(StaleVersion):
        double.enter(director, expected_version=sheet.version, reason="back to the old one")
    with pytest.raises(AlreadySaved):  # the same correction again, from the old version: it is saved already
        double.correction(director, expected_version=sheet.version, reason="again")
    with pytest.raises(DomainError, match="only a director"):
        double.enter(second, expected_version=corrected.version)


def test_a_pending_entry_sets_nothing_off_but_the_counted_round_makes_a_backup(double, first, second, monkeypatch):
    calls = []
    monkeypatch.setattr(double.after_round, "schedule_backup_after_round", lambda t, n: calls.append((t.pk, n)))
    double.complete_round(first)
    assert calls == [] and not sheets(double).exists()
    double.complete_round(second)
    assert calls == [(double.tournament.pk, 1)]


def test_single_entry_backup_after_the_last_sheet_of_a_round(game, first, monkeypatch):
    calls = []
    monkeypatch.setattr(game.after_round, "schedule_backup_after_round", lambda t, n: calls.append((t.pk, n)))
    game.enter(first)
    assert calls == []
    game.complete_round(first)
    assert calls == [(game.tournament.pk, 1)]


def test_a_voms_first_entry_locks_the_draw_like_a_counted_slip(make_game, director, django_user_model):
    from scoring.games.voms.services import pools as voms_pools

    game = make_game("voms")
    game.tournament.double_entry = True
    game.tournament.save()
    game.enter(director)
    with pytest.raises(DomainError, match="cannot be redone"):
        voms_pools.draw_pools(game.tournament, by=director, pools=1, seed=3)
    assert PendingSheet.objects.exists()
