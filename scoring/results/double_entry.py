"""Double entry (a tournament setting): a first entry, a second one, and a director's decision between them.

An entry (a new sheet, or games added to one) does not count at once. The first entry is kept as a
`PendingSheet`; it becomes (or extends) the `ScoreSheet` when a second person enters the same again or
confirms it (`counting.confirm_pending`). A second entry that differs changes nothing and raises
`EntriesDiffer` with both versions; a director who did not make the first entry may then decide which
counts: their own version (`decide="mine"`) or the first entry (`decide="first"`); either way the audit
entry `sheet.decided` keeps both versions. A list a table sent from its link is a first entry too.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.models import PendingSheet
from tournament.permissions import is_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError

from .checks import derive_or_refuse
from .counting import check_first_entry, count_first_entry
from .places import PlaceQuery, place_object, place_of
from .words import entered_by_label, user_name

#: a director's decision between two different entries: let their own entry count, or the first entry
MINE, FIRST = "mine", "first"


def posted_decision(data) -> dict:
    """The keywords for `record_sheet` from the buttons below "The two entries differ" (the entry form's own
    submit buttons `decide=mine` and `decide=first`, with the version of the first entry the page showed)."""
    decide = data.get("decide") or ""
    version = str(data.get("pending_version") or "")
    return {"decide": decide if decide in (MINE, FIRST) else "",
            "pending_version": int(version) if version.isdigit() else None}


class EntriesDiffer(DomainError):
    """A second entry that differs from the first: nothing was saved; both versions are carried to compare."""

    def __init__(self, pending: PendingSheet, entries, mode: str, *, director: bool = False):
        self.pending, self.entries, self.mode = pending, entries, mode
        # a director is not sent to ask a director: the page offers them the decision
        message = (_("Your entry differs from the first entry by %(who)s; nothing was saved. Check the marked "
                     "fields against the paper sheet and save again, or decide below which entry counts.")
                   if director else
                   _("Your entry differs from the first entry by %(who)s; nothing was saved. Check the marked fields "
                     "against the paper sheet and save again, or ask a director to decide."))
        super().__init__(message % {"who": entered_by_label(pending)})


def decided_message(sheet) -> str:
    """What a director is told when their decision between two different entries made the sheet count: which
    entry counts ("" after any other save)."""
    decision = getattr(sheet, "decision", "")
    if decision == FIRST:
        return _("The first entry counts, not yours (both are in the audit log).")
    if decision == MINE:
        return _("Your entry counts, not the first entry (both are in the audit log). ").strip()
    return ""


def pending_of(*, match=None, table=None) -> PendingSheet | None:
    """The first entry of a place awaiting a second person, or None (with who made it: a user, or a link)."""
    return _PENDING.first(place_of(match, table))


#: the page's question, asked on every list page, Confirm and phone page: compiled once (tournament/prepared.py)
_PENDING = PlaceQuery(PendingSheet, lambda place: PendingSheet.objects.filter(**place)
                      .select_related("entered_by", "source_link").order_by("pk")[:1])


def double_entry(tournament, place: dict, sheet, *, entries, mode, derive, derived, by, decide, pending_version,
                 reason):
    """First entry, second entry (same: counts; different: refused with both versions), or a director's decision.

    Called by `recording.record_sheet` inside its transaction, the place locked."""
    pending = PendingSheet.objects.select_for_update().filter(**place).first()
    base = sheet.version if sheet else 0
    outdated = pending is not None and pending.base_version != base
    if decide == FIRST:  # only ever about the first entry the page showed: never stores the typed one as a new one
        check_first_entry(pending, outdated, by)
    if pending is None or outdated or pending.entered_by_id == by.pk:
        return _store_first_entry(tournament, place, pending, entries=entries, mode=mode, base=base, by=by)
    if pending.mode == mode and pending.entries == entries:
        return count_first_entry(tournament, place, pending, sheet, derived=derived, by=by, action="sheet.confirmed")
    if not decide:
        raise EntriesDiffer(pending, entries, mode, director=is_director(by, tournament))
    if not is_director(by, tournament):
        raise DomainError(_("Only a director can decide between two different entries."))
    if pending_version is not None and pending_version != pending.version:
        raise DomainError(_("The first entry was changed meanwhile: look at it again before deciding."))
    first = {"mode": pending.mode, "entries": pending.entries, "entered_by": entered_by_label(pending)}
    mine = {"mode": mode, "entries": entries, "entered_by": user_name(by)}
    if decide == FIRST:
        # the first entry counts as it stands (the director's the second person); their own typing is kept in
        # the audit entry, as the version that did not count
        counted = derive_or_refuse(derive, pending.entries, pending.mode)
        return count_first_entry(tournament, place, pending, sheet, derived=counted, by=by, action="sheet.decided",
                                 before=mine, reason=reason, decision=FIRST)
    pending.entries, pending.mode, pending.entered_by, pending.source_link = entries, mode, by, None
    return count_first_entry(tournament, place, pending, sheet, derived=derived, by=None, action="sheet.decided",
                             before=first, reason=reason, decided_by=by, decision=MINE)


def _store_first_entry(tournament, place: dict, pending, *, entries, mode, base: int, by) -> PendingSheet:
    before = None
    if pending is None:
        pending = PendingSheet(tournament=tournament, **place)
    else:
        before = {"mode": pending.mode, "entries": pending.entries, "entered_by": user_name(pending.entered_by)}
        pending.version += 1
    pending.entries, pending.mode, pending.base_version, pending.entered_by = entries, mode, base, by
    pending.source_link = None
    pending.save()
    log_action("sheet.first_entry", by=by, tournament=tournament, obj=place_object(place),
               before=before, after={"mode": mode, "entries": entries})
    return pending
