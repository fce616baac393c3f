"""Recording score sheets: the one path through which results enter the database.

`record_sheet` validates the raw entries with the game's rules (which also say what
they are worth), refuses a save based on an outdated version (no lost update),
keeps every version as a `SheetRevision` and writes the audit log. Corrections of a
sheet already entered are for directors only and need a reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet, SheetRevision
from scoring.rules.base import RuleError
from tournament.permissions import can_enter_results, is_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError

#: derive(entries, mode) -> derived values; raises RuleError for entries the rules refuse
Derive = Callable[[Any, str], dict]


class StaleVersion(DomainError):
    """Someone saved the sheet since this user loaded it; carries the stored version to compare."""

    def __init__(self, sheet: ScoreSheet):
        self.sheet = sheet
        super().__init__(
            _("Someone else saved this sheet in the meantime (version %(version)s). Compare both and save again.")
            % {"version": sheet.version}
        )


def rule_message(error: RuleError) -> str:
    """The translated text of a rules error, with its parameters filled in."""
    text = _(error.message)
    return text % error.params if error.params else text


def derive_or_refuse(derive: Derive, entries, mode: str) -> dict:
    try:
        return derive(entries, mode)
    except RuleError as error:
        raise DomainError(rule_message(error), field=error.field) from error


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
) -> ScoreSheet:
    """Create or correct the sheet of `match` or `table`; return it with `derived` filled in."""
    if not can_enter_results(by, tournament):
        raise DomainError(_("You are not allowed to enter results in this tournament."))
    derived = derive_or_refuse(derive, entries, mode)
    with transaction.atomic():
        place = {"match": match} if match is not None else {"table": table}
        sheet = ScoreSheet.objects.select_for_update().filter(**place).first()
        if sheet is None:
            sheet = ScoreSheet.objects.create(
                tournament=tournament, entries=entries, derived=derived, mode=mode, entered_by=by, **place
            )
            kind, before = SheetRevision.Kind.ENTRY, None
        else:
            if expected_version is not None and expected_version != sheet.version:
                raise StaleVersion(sheet)
            # Adding games to a list (a series, a list typed in parts) is entry, not correction;
            # changing anything already entered is a correction: directors only, with a reason.
            old = sheet.entries
            extends = isinstance(entries, list) and mode == sheet.mode and entries[: len(old)] == old
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
    return sheet
