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
from scoring.seated.documents import player_name
from scoring.seated.services import recorded, set_substitute
from tournament.models import Participant, Seat, Table
from tournament.permissions import can_enter_results, require_director
from tournament.services.errors import DomainError
from tournament.services.participants import set_participant_status

from .config import TableSettings, settings_of
from .sheets import END, LEFT, make_derive, mode_of


class SheetRefused(DomainError):
    """A sheet the rules refuse; `row` is the hand (or result row) it is about, when it is one row, and `seat`
    the player whose `field` is wrong, when it is one player's; `code` the rules' reason."""

    def __init__(self, message, *, field=None, row=None, seat=None, code=""):
        super().__init__(message, field=field)
        self.row = row
        self.seat = seat
        self.code = code


# --- score sheets --------------------------------------------------------------------------------------


def seat_names(table: Table) -> dict[int, str]:
    """Seat number -> who plays it ("Ida Holm, played by Lis Berg" for a substitute), for the rules' messages."""
    seats = Seat.objects.filter(table=table).select_related("participant", "substitute").order_by("number")
    return {seat.number: str(player_name(seat)) for seat in seats}


def empty_seats(table: Table) -> set[int]:
    """Seats of withdrawn players nobody plays for: empty unless the sheet holds the player's values (he played
    hands before he left), `sheets.follow`'s `withdrawn`."""
    return set(Seat.objects.filter(table=table, participant__status=Participant.Status.WITHDRAWN,
                                   substitute__isnull=True).values_list("number", flat=True))


def table_derive(settings: TableSettings, table: Table):
    """The sheet's derive function: the game's rules with the table's names and empty seats."""
    return make_derive(settings, seat_names(table), empty_seats(table))


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
    return recorded(tournament, table, lambda: record_sheet(
        tournament=tournament, entries=entries, derive=derive, by=by, table=table, mode=mode,
        expected_version=expected_version, reason=reason, decide=decide, pending_version=pending_version, sent=sent))


def checked_derive(tournament, table: Table, entries: list):
    """The sheet's derive function and mode, after checking `entries` with it: a sheet the rules refuse is
    `SheetRefused`, at the referee table and from the table's link alike."""
    settings = settings_of(tournament)
    derive = table_derive(settings, table)
    mode = mode_of(settings)
    try:
        derive(entries, mode)
    except RuleError as error:
        raise SheetRefused(rule_message(error), field=error.field, row=getattr(error, "row", None),
                           seat=getattr(error, "seat", None), code=error.code) from error
    return derive, mode


def enter_from_link(link, *, entries: list):
    """What a table sends from its private link: its hands so far (after those that count already). A first
    entry awaiting confirmation, or counted at once when the tournament lets table entries count; sending the
    same again changes nothing (`scoring.results.counting.record_table_entry`)."""
    table = link.table
    tournament = link.tournament
    derive, mode = checked_derive(tournament, table, entries)
    return recorded(tournament, table, lambda: record_table_entry(link, entries=entries, mode=mode, derive=derive))


def confirm_sheet(table: Table, *, by, expected_version: int | None = None, report: int | None = None) -> ScoreSheet:
    """Double entry: a second person confirms the first entry of a sheet as it stands (or, `report`, a seat's
    report that differs from it)."""
    tournament = table.round.stage.tournament
    derive = table_derive(settings_of(tournament), table)
    return recorded(tournament, table, lambda: confirm_pending(
        tournament=tournament, table=table, derive=derive, by=by, expected_version=expected_version,
        report=report))


def end_game(table: Table, *, by, expected_version: int | None = None, sent=None) -> ScoreSheet:
    """End a table's game after its last hand (the round's time is up): the totals as they stand decide."""
    sheet = working_entries(table)
    if not sheet:
        raise DomainError(_("No hand was entered: a game can only be ended after its first hand."))
    return enter_sheet(table, by=by, entries=[*sheet, {END: True}], expected_version=expected_version, sent=sent)


# --- a player who leaves ---------------------------------------------------------------------------------


def leave_table(table: Table, seat_number: int, after_hand: int, *, by, reason: str = "",
                expected_version: int | None = None, sent=None):
    """The player of `seat_number` left the table after hand `after_hand` (table-games.md, Decision): his
    departure is written on that hand's row (no entry for him in the hands after, he finishes behind every
    opponent), and he is withdrawn, so that his seats in the rounds still to play are empty (a smaller table)
    unless a substitute takes them. Refused, changing nothing, when the table would be left with fewer players
    than the game needs: then a substitute must take the seat."""
    tournament = table.round.stage.tournament
    require_director(by, tournament)
    seat = Seat.objects.filter(table=table, number=seat_number).select_related("participant").first()
    if seat is None:
        raise DomainError(_("Choose a player of this table."), field="seat")
    if seat.substitute_id:
        raise DomainError(_("A substitute plays this seat: he leaves by setting another substitute on the seating "
                            "page."), field="seat")
    entries = working_entries(table)
    hands = entries[:-1] if entries and isinstance(entries[-1], dict) and entries[-1].get(END) else entries
    if not 1 <= after_hand <= len(hands):
        raise DomainError(
            _("Say after which hand he left: a hand from 1 to %(hands)s. Enter the hands he played first.")
            % {"hands": len(hands)} if hands else
            _("Enter the hands he played first: a player can only leave after a hand."), field="after_hand")
    row = dict(hands[after_hand - 1])
    row[LEFT] = sorted({*row.get(LEFT, []), seat_number})
    changed = [*entries[:after_hand - 1], row, *entries[after_hand:]]
    player = seat.participant
    why = reason.strip() or _("%(player)s left the table after hand %(hand)s.") % {
        "player": player.name, "hand": after_hand}
    with transaction.atomic():
        sheet = enter_sheet(table, by=by, entries=changed, expected_version=expected_version, reason=why, sent=sent)
        if player.status == Participant.Status.ACTIVE:
            set_participant_status(player, Participant.Status.WITHDRAWN, by=by,
                                   reason=_("left in round %(round)s after hand %(hand)s")
                                   % {"round": table.round.number, "hand": after_hand})
    return sheet


def substitute_at_table(table: Table, seat_number: int, substitute: Participant, *, by,
                        points_to_substitute: bool = False, reason: str = "") -> Seat:
    """The player of `seat_number` left the table mid-game and `substitute` takes his seat from the next hand on
    (table-games.md, Decision): the seat plays on, no departure is written on the sheet, and its result goes to
    the seat's player or to the substitute (`points_to_substitute`), as Schafkopf's substitutes
    (`scoring.seated.services.set_substitute`). The player is withdrawn: his seats in the rounds still to play
    are empty unless a substitute takes them."""
    tournament = table.round.stage.tournament
    require_director(by, tournament)
    seat = Seat.objects.filter(table=table, number=seat_number).select_related("participant", "table__round").first()
    if seat is None:
        raise DomainError(_("Choose a player of this table."), field="seat")
    if seat.substitute_id:
        raise DomainError(_("A substitute plays this seat: he leaves by setting another substitute on the seating "
                            "page."), field="seat")
    player = seat.participant
    why = reason.strip() or _("%(player)s left the table; %(substitute)s took his seat.") % {
        "player": player.name, "substitute": substitute.name}
    with transaction.atomic():
        seat = set_substitute(seat, substitute, by=by, points_to_substitute=points_to_substitute, reason=why)
        if player.status == Participant.Status.ACTIVE:
            set_participant_status(player, Participant.Status.WITHDRAWN, by=by,
                                   reason=_("left in round %(round)s; %(substitute)s took his seat")
                                   % {"round": table.round.number, "substitute": substitute.name})
    return seat


def working_entries(table: Table) -> list:
    """The hands typed so far: a first entry still awaiting confirmation, else the counted sheet."""
    pending = pending_of(table=table)
    if pending is not None:
        return list(pending.entries)
    sheet = ScoreSheet.objects.filter(table=table).first()
    return list(sheet.entries) if sheet else []
