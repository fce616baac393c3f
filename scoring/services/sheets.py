"""Recording score sheets: the one path through which results enter the database.

`record_sheet` validates the raw entries with the game's rules (which also say what
they are worth), refuses a save based on an outdated version (no lost update),
keeps every version as a `SheetRevision` and writes the audit log. Corrections of a
sheet already entered are for directors only and need a reason.

Double entry (a tournament setting): an entry (a new sheet, or games added to one) does
not count at once. The first entry is kept as a `PendingSheet`; it becomes (or extends) the
`ScoreSheet` when a second person enters the same again or confirms it (`confirm_pending`).
A second entry that differs changes nothing and raises `EntriesDiffer` with both versions;
a director who did not make the first entry may then decide which counts: their own version
(`decide="mine"`) or the first entry (`decide="first"`); either way the audit entry `sheet.decided` keeps both
versions. Corrections by a director go straight through.

Saved once: a form sent twice (`sent`, see `tournament.services.replay`) and entries that the sheet
holds already are answered with `AlreadySaved`, never stored as another version. The version the
form was loaded with (`expected_version`, 0 for a new sheet) is compared only once the place is
locked, so two first saves at the same moment end like two saves one after the other: the second
sees the first (its entries again: already saved; others: both versions, or under double entry
the two entries, side by side).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import PendingSheet, ScoreSheet, SheetRevision
from scoring.rules.base import RuleError
from tournament.permissions import can_enter_results, is_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.replay import AlreadySaved, Sent, claim, same_entries_message
from tournament.services.text import limited_reason
from tournament.services.tournaments import sync_status

#: derive(entries, mode) -> derived values; raises RuleError for entries the rules refuse
Derive = Callable[[Any, str], dict]

#: a director's decision between two different entries: let their own entry count, or the first entry
MINE, FIRST = "mine", "first"


def posted_decision(data) -> dict:
    """The keywords for `record_sheet` from the buttons below "The two entries differ" (the entry form's own
    submit buttons `decide=mine` and `decide=first`, with the version of the first entry the page showed)."""
    decide = data.get("decide") or ""
    version = str(data.get("pending_version") or "")
    return {"decide": decide if decide in (MINE, FIRST) else "",
            "pending_version": int(version) if version.isdigit() else None}


class StaleVersion(DomainError):
    """Someone saved the sheet since this user loaded it; carries the stored version to compare."""

    def __init__(self, sheet: ScoreSheet):
        self.sheet = sheet
        super().__init__(
            _("Someone else saved this sheet in the meantime (version %(version)s). Compare both and save again.")
            % {"version": sheet.version}
        )


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


def user_name(user) -> str:
    if user is None:
        return _("a deleted user")
    return user.get_full_name() or user.get_username()


def entered_by_label(pending) -> str:
    """Who made a first entry: a user, or the table itself through its private link."""
    if getattr(pending, "source_link_id", None):
        return _("the table, from its link")
    return user_name(pending.entered_by)


def started_by_label(sheet: ScoreSheet) -> str:
    """Who started a sheet that counts: a user, or the table itself when its first version came from its link
    (the sheet then has no user)."""
    first = sheet.revisions.order_by("version").first()
    if first is not None and first.source_link_id:
        return _("the table, from its link")
    return user_name(sheet.entered_by)


def rule_message(error: RuleError) -> str:
    """The translated text of a rules error, with its parameters filled in."""
    text = _(error.message)
    return text % error.params if error.params else text


def clean_reason(reason) -> str:
    """The reason as text without control characters (PostgreSQL refuses a NUL; a pasted one must not fail)."""
    return "".join(ch for ch in str(reason or "") if ch in "\n\t" or unicodedata.category(ch)[0] != "C")


def derive_or_refuse(derive: Derive, entries, mode: str) -> dict:
    try:
        return derive(entries, mode)
    except RuleError as error:
        raise DomainError(rule_message(error), field=error.field) from error


def _place(match, table) -> dict:
    return {"match": match} if match is not None else {"table": table}


def _lock(place: dict) -> None:
    """Lock the match or table row: two first saves of one place wait for each other instead of both
    creating a sheet (or a first entry) and one failing on the one-per-place constraint."""
    obj = next(iter(place.values()))
    # no ordering (and so no join): PostgreSQL refuses FOR UPDATE on the nullable side of an outer join
    list(type(obj).objects.select_for_update().filter(pk=obj.pk).order_by().values_list("pk", flat=True))


def _place_label(place: dict) -> str:
    """The place of a sheet in words: the match's teams, or the round and table."""
    if "match" in place:
        return str(place["match"])
    table = place["table"]
    return f"{table.round}, {table}"


def _same(sheet: ScoreSheet, entries, mode: str) -> bool:
    """True when the sheet holds exactly these entries (compared as stored: JSON)."""
    def as_json(value):
        return json.dumps(value, sort_keys=True, cls=DjangoJSONEncoder)

    return sheet.mode == mode and as_json(sheet.entries) == as_json(entries)


def _refuse_same(sheet: ScoreSheet, place: dict) -> None:
    last = sheet.revisions.select_related("by").last()
    by, at = (last.by, last.at) if last else (sheet.entered_by, sheet.updated_at)
    raise AlreadySaved(same_entries_message(_place_label(place), by, at))


def _extends(sheet: ScoreSheet, entries, mode: str) -> bool:
    """Adding games to a list (a series, a list typed in parts) is entry; changing any is a correction."""
    old = sheet.entries
    return isinstance(entries, list) and mode == sheet.mode and entries[: len(old)] == old


def record_sheet(
    *,
    tournament,
    entries,
    derive: Derive,
    by,
    match=None,
    table=None,
    mode: str = "games",
    expected_version: int | None = None,
    reason: str = "",
    decide: str = "",
    pending_version: int | None = None,
    sent: Sent | None = None,
) -> ScoreSheet | PendingSheet:
    """Create or correct the sheet of `match` or `table`; return it with `derived` filled in.

    Under double entry an entry returns the `PendingSheet` instead while it awaits a second person
    (`result.counted` is False): the caller must not treat it as a result. `expected_version` is the
    version the form showed (0: none yet), None to skip the check. Raises `AlreadySaved` for a form
    sent again (`sent`) and for entries the sheet holds already.

    `decide` ("mine" or "first", True meaning "mine") is a director's decision when a second entry differs
    from the first; `pending_version` the version of the first entry the page showed them.
    """
    decide = MINE if decide is True else decide or ""
    if not can_enter_results(by, tournament):
        raise DomainError(_("You are not allowed to enter results in this tournament."))
    reason = limited_reason(clean_reason(reason))
    derived = derive_or_refuse(derive, entries, mode)
    with transaction.atomic():
        place = _place(match, table)
        claim(sent, by=by, action="sheet", what=_place_label(place))
        _lock(place)
        sheet = ScoreSheet.objects.select_for_update().filter(**place).first()
        if sheet is not None and _same(sheet, entries, mode):
            _refuse_same(sheet, place)
        if sheet is not None and expected_version is not None and expected_version != sheet.version:
            raise StaleVersion(sheet)
        extends = sheet is not None and _extends(sheet, entries, mode)
        # a list the table sent from its link awaits confirmation even without double entry
        from_table = sheet is None and PendingSheet.objects.filter(source_link__isnull=False, **place).exists()
        if (tournament.double_entry or from_table) and (sheet is None or extends):
            result = _double_entry(tournament, place, sheet, entries=entries, mode=mode, derive=derive,
                                   derived=derived, by=by,
                                   decide=decide, pending_version=pending_version, reason=reason)
            sync_status(tournament, by=by)
            return result
        if sheet is None:
            sheet = ScoreSheet.objects.create(
                tournament=tournament, entries=entries, derived=derived, mode=mode, entered_by=by, **place
            )
            kind, before = SheetRevision.Kind.ENTRY, None
        else:
            if not extends:
                if not is_director(by, tournament):
                    raise DomainError(_("This sheet has been entered already; only a director can correct it."))
                if not reason.strip():
                    raise DomainError(_("Say why the sheet is corrected."), field="reason")
            before = {"mode": sheet.mode, "entries": sheet.entries}
            sheet.entries, sheet.derived, sheet.mode = entries, derived, mode
            sheet.version += 1
            sheet.corrected = sheet.corrected or not extends
            sheet.save()
            kind = SheetRevision.Kind.ENTRY if extends else SheetRevision.Kind.CORRECTION
            # a first entry waiting on the old version is outdated now; it stays until replaced
        SheetRevision.objects.create(
            sheet=sheet, version=sheet.version, kind=kind, entries=entries, by=by, reason=reason
        )
        log_action(
            f"sheet.{kind}",
            by=by,
            tournament=tournament,
            obj=match if match is not None else table,
            before=before,
            after={"mode": mode, "entries": entries},
            reason=reason,
        )
        sync_status(tournament, by=by)
    return sheet


def _double_entry(tournament, place: dict, sheet, *, entries, mode, derive, derived, by, decide, pending_version,
                  reason):
    """First entry, second entry (same: counts; different: refused with both versions), or a director's decision."""
    pending = PendingSheet.objects.select_for_update().filter(**place).first()
    base = sheet.version if sheet else 0
    outdated = pending is not None and pending.base_version != base
    if decide == FIRST:  # only ever about the first entry the page showed: never stores the typed one as a new one
        _check_first_entry(pending, outdated, by)
    if pending is None or outdated or pending.entered_by_id == by.pk:
        return _store_first_entry(tournament, place, pending, entries=entries, mode=mode, base=base, by=by)
    if pending.mode == mode and pending.entries == entries:
        return _count(tournament, place, pending, sheet, derived=derived, by=by, action="sheet.confirmed")
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
        return _count(tournament, place, pending, sheet, derived=counted, by=by, action="sheet.decided",
                      before=mine, reason=reason, decision=FIRST)
    pending.entries, pending.mode, pending.entered_by, pending.source_link = entries, mode, by, None
    return _count(tournament, place, pending, sheet, derived=derived, by=None, action="sheet.decided",
                  before=first, reason=reason, decided_by=by, decision=MINE)


def _check_first_entry(pending, outdated: bool, by) -> None:
    """Letting the first entry count needs one that still stands and was made by someone else."""
    if pending is None:
        raise DomainError(_("There is no first entry to confirm; it may have been confirmed meanwhile."))
    if outdated:
        raise DomainError(_("The sheet was corrected after this entry was made: the entry has to be made again."))
    if pending.entered_by_id == by.pk:
        raise DomainError(_("You entered this sheet yourself: a second person has to confirm it."))


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
    log_action("sheet.first_entry", by=by, tournament=tournament, obj=place.get("match") or place.get("table"),
               before=before, after={"mode": mode, "entries": entries})
    return pending


def _count(tournament, place: dict, pending: PendingSheet, sheet, *, derived, by, action: str, before=None,
           reason: str = "", decided_by=None, decision: str = "") -> ScoreSheet:
    """Turn the pending entry into the counted sheet (new, or the old one extended) and remove it."""
    first_by = pending.entered_by
    if sheet is None:
        sheet = ScoreSheet.objects.create(tournament=tournament, entries=pending.entries, derived=derived,
                                          mode=pending.mode, entered_by=first_by, **place)
    else:
        before = before or {"mode": sheet.mode, "entries": sheet.entries}
        sheet.entries, sheet.derived, sheet.mode = pending.entries, derived, pending.mode
        sheet.version += 1
        sheet.save()
    SheetRevision.objects.create(sheet=sheet, version=sheet.version, kind=SheetRevision.Kind.ENTRY,
                                 entries=pending.entries, by=first_by, confirmed_by=by, reason=reason,
                                 source_link=pending.source_link)
    after = {"mode": pending.mode, "entries": pending.entries, "entered_by": entered_by_label(pending)}
    if by is not None:
        after["confirmed_by"] = user_name(by)
    if decision:  # a director's decision between two entries: which one counts, in words on the audit page
        after["decision"] = sheet.decision = decision
    log_action(action, by=decided_by or by, tournament=tournament, obj=place.get("match") or place.get("table"),
               before=before, after=after, reason=reason)
    if pending.pk is not None:
        PendingSheet.objects.filter(pk=pending.pk).delete()
    return sheet


def pending_of(*, match=None, table=None) -> PendingSheet | None:
    return PendingSheet.objects.filter(**_place(match, table)).select_related("entered_by").first()


def confirm_pending(*, tournament, derive: Derive, by, match=None, table=None,
                    expected_version: int | None = None) -> ScoreSheet:
    """A second person (or a director) confirms the first entry as it stands: it counts from now on."""
    if not can_enter_results(by, tournament):
        raise DomainError(_("You are not allowed to enter results in this tournament."))
    with transaction.atomic():
        place = _place(match, table)
        _lock(place)
        pending = PendingSheet.objects.select_for_update().filter(**place).first()
        if pending is None:
            raise DomainError(_("There is no first entry to confirm; it may have been confirmed meanwhile."))
        if pending.entered_by_id == by.pk:
            raise DomainError(_("You entered this sheet yourself: a second person has to confirm it."))
        if expected_version is not None and expected_version != pending.version:
            raise DomainError(_("The first entry was changed meanwhile: look at it again before confirming."))
        sheet = ScoreSheet.objects.select_for_update().filter(**place).first()
        if (sheet.version if sheet else 0) != pending.base_version:
            raise DomainError(_("The sheet was corrected after this entry was made: the entry has to be made again."))
        derived = derive_or_refuse(derive, pending.entries, pending.mode)
        sheet = _count(tournament, place, pending, sheet, derived=derived, by=by, action="sheet.confirmed")
        sync_status(tournament, by=by)
        return sheet
