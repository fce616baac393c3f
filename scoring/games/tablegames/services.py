"""Table-game score sheets: entered, extended, ended, confirmed, sent from a table's link.

Each service checks who may do it, runs in one transaction, writes the audit log and raises a
`DomainError` with a translated message. Sheets go through `scoring.results.recording.record_sheet`
(the one path for results) with the `derive` of `sheets.make_derive`, built on the game's pure rules.
Settings, the seating and what follows a counted sheet are the seated layer's (`scoring.seated.services`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet
from scoring.results.checks import rule_message
from scoring.results.counting import confirm_pending, record_table_entry
from scoring.results.double_entry import pending_of
from scoring.results.recording import record_sheet
from scoring.rules.base import RuleError
from scoring.seated.services import after_sheet, round_started
from tournament.models import Seat, Table
from tournament.permissions import can_enter_results
from tournament.services.errors import DomainError

from .config import settings_of
from .sheets import END, make_derive, mode_of


class SheetRefused(DomainError):
    """A sheet the rules refuse; `row` is the hand (or result row) it is about, when it is one row, and `seat`
    the player whose `field` is wrong, when it is one player's."""

    def __init__(self, message, *, field=None, row=None, seat=None):
        super().__init__(message, field=field)
        self.row = row
        self.seat = seat


# --- score sheets --------------------------------------------------------------------------------------


def seat_names(table: Table) -> dict[int, str]:
    """Seat number -> the player's name, for the rules' messages."""
    seats = Seat.objects.filter(table=table).select_related("participant").order_by("number")
    return {seat.number: seat.participant.name for seat in seats}


def enter_sheet(table: Table, *, by, entries: list, expected_version: int | None = None,
                reason: str = "", decide: str = "", pending_version: int | None = None, sent=None):
    """Enter, extend or correct the sheet of `table`: the hands (or results) as typed.

    Adding hands to the end is entry, open to assistants; changing a hand already entered is a
    director's correction and needs a reason (`record_sheet` decides which it is). `expected_version`
    is the version the page was loaded with (0 for a new sheet), so that a sheet saved meanwhile by
    someone else is reported as a conflict instead of being overwritten. Nothing is saved when the
    rules refuse any row. Under double entry an entry comes back as a `PendingSheet` (`.counted` is
    False) until a second person confirms it (`confirm_sheet`).
    """
    round_ = table.round
    tournament = round_.stage.tournament
    if not can_enter_results(by, tournament):
        raise DomainError(_("You are not allowed to enter results in this tournament."))
    derive, mode = checked_derive(tournament, table, entries)
    with transaction.atomic():
        sheet = record_sheet(tournament=tournament, entries=entries, derive=derive, by=by, table=table, mode=mode,
                             expected_version=expected_version, reason=reason, decide=decide,
                             pending_version=pending_version, sent=sent)
        round_started(round_.pk)
        if sheet.counted:
            after_sheet(tournament, table)
    return sheet


def checked_derive(tournament, table: Table, entries: list):
    """The sheet's derive function and mode, after checking `entries` with it: a sheet the rules refuse is
    `SheetRefused`, at the referee table and from the table's link alike."""
    settings = settings_of(tournament)
    derive = make_derive(settings, seat_names(table))
    mode = mode_of(settings)
    try:
        derive(entries, mode)
    except RuleError as error:
        raise SheetRefused(rule_message(error), field=error.field, row=getattr(error, "row", None),
                           seat=getattr(error, "seat", None)) from error
    return derive, mode


def enter_from_link(link, *, entries: list):
    """What a table sends from its private link: its hands so far (after those that count already). A first
    entry awaiting confirmation, or counted at once when the tournament lets table entries count; sending the
    same again changes nothing (`scoring.results.counting.record_table_entry`)."""
    table = link.table
    tournament = link.tournament
    derive, mode = checked_derive(tournament, table, entries)
    with transaction.atomic():
        sheet = record_table_entry(link, entries=entries, mode=mode, derive=derive)
        round_started(table.round_id)
        if sheet.counted:
            after_sheet(tournament, table)
    return sheet


def confirm_sheet(table: Table, *, by, expected_version: int | None = None) -> ScoreSheet:
    """Double entry: a second person confirms the first entry of a sheet as it stands."""
    tournament = table.round.stage.tournament
    derive = make_derive(settings_of(tournament), seat_names(table))
    with transaction.atomic():
        sheet = confirm_pending(tournament=tournament, table=table, derive=derive, by=by,
                                expected_version=expected_version)
        after_sheet(tournament, table)
    return sheet


def end_game(table: Table, *, by, expected_version: int | None = None, sent=None) -> ScoreSheet:
    """End a table's game after its last hand (the round's time is up): the totals as they stand decide."""
    sheet = working_entries(table)
    if not sheet:
        raise DomainError(_("No hand was entered: a game can only be ended after its first hand."))
    return enter_sheet(table, by=by, entries=[*sheet, {END: True}], expected_version=expected_version, sent=sent)


def working_entries(table: Table) -> list:
    """The hands typed so far: a first entry still awaiting confirmation, else the counted sheet."""
    pending = pending_of(table=table)
    if pending is not None:
        return list(pending.entries)
    sheet = ScoreSheet.objects.filter(table=table).first()
    return list(sheet.entries) if sheet else []
