"""Table-game state changes: settings, the seating draw, score sheets.

Each service checks who may do it, runs in one transaction, writes the audit log and raises a
`DomainError` with a translated message. The seating goes through `tournament.services.seating`;
sheets through `scoring.services.sheets.record_sheet` (the one path for results) with the
`derive` of `sheets.make_derive`, built on the game's pure rules.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet
from scoring.rules.base import RuleError
from scoring.services.sheets import confirm_pending, pending_of, record_sheet, rule_message
from scoring.services.tablelinks import record_table_entry
from tournament.backup import schedule_backup_after_round
from tournament.models import Participant, Round, Seat, Table, Tournament
from tournament.permissions import can_enter_results, is_director
from tournament.services import seating
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.participants import set_participant_status

from .config import TableSettings, settings_of
from .sheets import END, LEFT, make_derive, mode_of


class SheetRefused(DomainError):
    """A sheet the rules refuse; `row` is the hand (or result row) it is about, when it is one row, and `seat`
    the player whose `field` is wrong, when it is one player's."""

    def __init__(self, message, *, field=None, row=None, seat=None):
        super().__init__(message, field=field)
        self.row = row
        self.seat = seat


def _require_director(by, tournament) -> None:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can do this."))


# --- settings ------------------------------------------------------------------------------------------


def update_settings(tournament: Tournament, new: TableSettings, *, by, reason: str = "") -> tuple[Tournament, bool]:
    """Store new settings; return the tournament and whether a seating drawn for other settings was removed.

    Every setting shapes play, so all are fixed once play has started. A seating drawn for another
    number of rounds or other table sizes is removed before play, so that a stale draw is never printed.
    """
    _require_director(by, tournament)
    _check_sizes(new)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        old = settings_of(locked)
        if old.to_json() != new.to_json() and seating.play_started(locked):
            raise DomainError(_("Play has started: the settings can no longer be changed."))
        redraw = (old.rounds, old.table_sizes) != (new.rounds, new.table_sizes)
        removed = redraw and seating.remove_seating(locked, by=by, reason=_("The settings changed."))
        locked.settings = new.to_json()
        locked.save(update_fields=["settings", "updated"])
        log_action("tablegames.settings", by=by, tournament=locked, obj=locked, before=old.to_json(),
                   after=locked.settings, reason=reason)
    tournament.settings = locked.settings  # the caller's copy reads the new settings too
    return locked, removed


def _check_sizes(settings: TableSettings) -> None:
    if settings.patience:
        return
    wrong = [size for size in settings.table_sizes if size not in settings.allowed_sizes]
    if not settings.table_sizes or wrong:
        raise DomainError(
            _("This game is played at tables of %(min)s to %(max)s players; %(sizes)s cannot be used.")
            % {"min": settings.allowed_sizes[0], "max": settings.allowed_sizes[-1],
               "sizes": ", ".join(map(str, wrong)) or "–"},
            field="table_sizes",
        )


# --- the seating ---------------------------------------------------------------------------------------


def draw(tournament: Tournament, *, by, seed: int | None = None):
    """Seat the active players for every round: tables of the game's sizes, or the whole field for patiences."""
    _require_director(by, tournament)
    settings = settings_of(tournament)
    if settings.patience:
        return seating.seat_field(tournament, by=by, rounds=settings.rounds)
    players = list(tournament.participants.filter(status=Participant.Status.ACTIVE))
    sizes = seating.fitting_sizes(len(players), settings.table_sizes, settings.allowed_sizes)
    groups = {p.number: p.group.casefold() for p in players if p.group}
    return seating.draw_seating(tournament, by=by, rounds=settings.rounds, sizes=sizes, seed=seed, groups=groups)


# --- score sheets --------------------------------------------------------------------------------------


def seat_names(table: Table) -> dict[int, str]:
    """Seat number -> the player's name, for the rules' messages."""
    seats = Seat.objects.filter(table=table).select_related("participant").order_by("number")
    return {seat.number: seat.participant.name for seat in seats}


def empty_seats(table: Table) -> set[int]:
    """Seats of withdrawn players nobody plays for: empty unless the sheet holds the player's values (he played
    hands before he left), `sheets.follow`'s `withdrawn`."""
    return set(Seat.objects.filter(table=table, participant__status=Participant.Status.WITHDRAWN,
                                   substitute__isnull=True).values_list("number", flat=True))


def table_derive(settings: TableSettings, table: Table):
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
    with transaction.atomic():
        sheet = record_sheet(tournament=tournament, entries=entries, derive=derive, by=by, table=table, mode=mode,
                             expected_version=expected_version, reason=reason, decide=decide,
                             pending_version=pending_version, sent=sent)
        Round.objects.filter(pk=round_.pk, starts_at__isnull=True).update(starts_at=timezone.now())
        if sheet.counted:
            _after_sheet(tournament, table, sheet)
    return sheet


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
                           seat=getattr(error, "seat", None)) from error
    return derive, mode


def enter_from_link(link, *, entries: list):
    """What a table sends from its private link: its hands so far (after those that count already). A first
    entry awaiting confirmation, or counted at once when the tournament lets table entries count; sending the
    same again changes nothing (`scoring.services.tablelinks.record_table_entry`)."""
    table = link.table
    tournament = link.tournament
    derive, mode = checked_derive(tournament, table, entries)
    with transaction.atomic():
        sheet = record_table_entry(link, entries=entries, mode=mode, derive=derive)
        Round.objects.filter(pk=table.round_id, starts_at__isnull=True).update(starts_at=timezone.now())
        if sheet.counted:
            _after_sheet(tournament, table, sheet)
    return sheet


def confirm_sheet(table: Table, *, by, expected_version: int | None = None) -> ScoreSheet:
    """Double entry: a second person confirms the first entry of a sheet as it stands."""
    tournament = table.round.stage.tournament
    derive = table_derive(settings_of(tournament), table)
    with transaction.atomic():
        sheet = confirm_pending(tournament=tournament, table=table, derive=derive, by=by,
                                expected_version=expected_version)
        _after_sheet(tournament, table, sheet)
    return sheet


def _after_sheet(tournament, table: Table, sheet: ScoreSheet) -> None:
    """The backup once every game of the round is finished (or ended) on a counted sheet."""
    open_tables = Table.objects.filter(round=table.round).exclude(sheet__derived__finished=True)
    if not open_tables.exists() and sheet.derived.get("finished"):
        schedule_backup_after_round(tournament, table.round.number)


def end_game(table: Table, *, by, expected_version: int | None = None, sent=None) -> ScoreSheet:
    """End a table's game after its last hand (the round's time is up): the totals as they stand decide."""
    sheet = working_entries(table)
    if not sheet:
        raise DomainError(_("No hand was entered: a game can only be ended after its first hand."))
    return enter_sheet(table, by=by, entries=[*sheet, {END: True}], expected_version=expected_version, sent=sent)


# --- a player who leaves ---------------------------------------------------------------------------------


def leave_table(table: Table, seat_number: int, after_hand: int, *, by, reason: str = "",
                expected_version: int | None = None):
    """The player of `seat_number` left the table after hand `after_hand` (table-games.md, Decision): his
    departure is written on that hand's row (no entry for him in the hands after, he finishes behind every
    opponent), and he is withdrawn, so that his seats in the rounds still to play are empty (a smaller table)
    unless a substitute takes them. Refused, changing nothing, when the table would be left with fewer players
    than the game needs: then a substitute must take the seat."""
    tournament = table.round.stage.tournament
    _require_director(by, tournament)
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
        sheet = enter_sheet(table, by=by, entries=changed, expected_version=expected_version, reason=why)
        if player.status == Participant.Status.ACTIVE:
            set_participant_status(player, Participant.Status.WITHDRAWN, by=by,
                                   reason=_("left in round %(round)s after hand %(hand)s")
                                   % {"round": table.round.number, "hand": after_hand})
    return sheet


def working_entries(table: Table) -> list:
    """The hands typed so far: a first entry still awaiting confirmation, else the counted sheet."""
    pending = pending_of(table=table)
    if pending is not None:
        return list(pending.entries)
    sheet = ScoreSheet.objects.filter(table=table).first()
    return list(sheet.entries) if sheet else []
