"""Recording score sheets: the one path through which a typed result enters the database.

`record_sheet` validates the raw entries with the game's rules (which also say what they are worth),
refuses a save based on an outdated version (no lost update), keeps every version as a `SheetRevision`
and writes the audit log. Corrections of a sheet already entered are for directors only and need a
reason. Under double entry, and for a list a table sent from its link, an entry does not count at once:
it goes the double-entry path (`double_entry.py`); when a result counts is said in `counting.py`.

Saved once: a form sent twice (`sent`, see `tournament.services.replay`) and entries that the sheet
holds already are answered with `AlreadySaved`, never stored as another version. The version the
form was loaded with (`expected_version`, 0 for a new sheet) is compared only once the place is
locked, so two first saves at the same moment end like two saves one after the other: the second
sees the first (its entries again: already saved; others: both versions, or under double entry
the two entries, side by side).
"""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import PendingSheet, ScoreSheet, SheetRevision
from tournament.permissions import can_enter_results, is_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.replay import AlreadySaved, Sent, claim, same_entries_message
from tournament.services.text import limited_reason
from tournament.services.tournaments import sync_status

from .checks import Derive, clean_reason, derive_or_refuse
from .double_entry import MINE, double_entry
from .places import lock_place, place_label, place_of


class StaleVersion(DomainError):
    """Someone saved the sheet since this user loaded it; carries the stored version to compare."""

    def __init__(self, sheet: ScoreSheet):
        self.sheet = sheet
        super().__init__(
            _("Someone else saved this sheet in the meantime (version %(version)s). Compare both and save again.")
            % {"version": sheet.version}
        )


def _same(sheet: ScoreSheet, entries, mode: str) -> bool:
    """True when the sheet holds exactly these entries (compared as stored: JSON)."""
    def as_json(value):
        return json.dumps(value, sort_keys=True, cls=DjangoJSONEncoder)

    return sheet.mode == mode and as_json(sheet.entries) == as_json(entries)


def _refuse_same(sheet: ScoreSheet, place: dict) -> None:
    last = sheet.revisions.select_related("by").last()
    by, at = (last.by, last.at) if last else (sheet.entered_by, sheet.updated_at)
    raise AlreadySaved(same_entries_message(place_label(place), by, at))


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
        place = place_of(match, table)
        claim(sent, by=by, action="sheet", what=place_label(place))
        lock_place(place)
        sheet = ScoreSheet.objects.select_for_update().filter(**place).first()
        if sheet is not None and _same(sheet, entries, mode):
            _refuse_same(sheet, place)
        if sheet is not None and expected_version is not None and expected_version != sheet.version:
            raise StaleVersion(sheet)
        extends = sheet is not None and _extends(sheet, entries, mode)
        # a list the table sent from its link awaits confirmation even without double entry
        from_table = sheet is None and PendingSheet.objects.filter(source_link__isnull=False, **place).exists()
        if (tournament.double_entry or from_table) and (sheet is None or extends):
            result = double_entry(tournament, place, sheet, entries=entries, mode=mode, derive=derive,
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
