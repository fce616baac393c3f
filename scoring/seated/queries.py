"""Reading a seated tournament's seating and sheets in a constant number of queries.

The seating itself (`seated_tables`, `places_by_participant`) is the shared `tournament.queries`'s.

Pages and printouts of 2,000 players must not run a query per table or per seat: everything here
reads one queryset with its related rows joined, and groups in Python.
"""

from __future__ import annotations

from scoring.models import PendingSheet, ScoreSheet
from scoring.withdrawals import withdrawn_seats
from tournament.models import Participant, Round, Seat, Stage, Table
from tournament.prepared import Prepared
from tournament.queries import places_by_participant as places_by_participant
from tournament.queries import seated_tables as seated_tables


def sheets_by_table(tournament, *, round_number: int | None = None, with_entries: bool = False) -> dict:
    """{table id: ScoreSheet} of the tournament's rounds (entries deferred unless asked for)."""
    sheets = ScoreSheet.objects.filter(tournament=tournament, table__isnull=False).select_related(
        "table__round", "entered_by"
    )
    if round_number is not None:
        sheets = sheets.filter(table__round__number=round_number)
    if not with_entries:
        sheets = sheets.defer("entries")
    return {sheet.table_id: sheet for sheet in sheets}


def entered_tables(tournament) -> set[int]:
    """The ids of the tables whose sheet is in."""
    return set(ScoreSheet.objects.filter(tournament=tournament, table__isnull=False).values_list("table_id", flat=True))


def pending_tables(tournament) -> set[int]:
    """The ids of the tables whose sheet was sent or typed once and awaits the referee table (a first entry)."""
    return set(PendingSheet.objects.filter(tournament=tournament, table__isnull=False)
               .values_list("table_id", flat=True))


def round_to_play(tables_by_round, entered: set[int]) -> int | None:
    """The first round with a table whose sheet is not in: the one the seating page opens on (None: all in)."""
    return next((number for number, tables in sorted(tables_by_round.items())
                 if any(table.table_id not in entered for table in tables)), None)


def rounds_of(tournament) -> list[Round]:
    return list(Round.objects.filter(stage__tournament=tournament, stage__kind=Stage.Kind.ROUNDS).order_by("number"))


def table_of(tournament, round_number: int, table_number: int) -> Table | None:
    """The table, its round and stage read with it; its tournament is the one given (not read again)."""
    table = _TABLE.first(tournament=tournament.pk, round_number=round_number, table_number=table_number)
    if table is not None:
        table.round.stage.tournament = tournament
    return table


def seats_at(table) -> list[Seat]:
    """The table's seats in their order, with their players and substitutes."""
    return _SEATS.all(table=table.pk)


def sheet_at(table) -> ScoreSheet | None:
    """The table's counted sheet (with who entered it), or None."""
    return _SHEET.first(table=table.pk)


# The questions of every list page, Confirm, phone page and send: compiled once (tournament/prepared.py).
_TABLE = Prepared(Table, lambda tournament, round_number, table_number: Table.objects.filter(
    round__stage__tournament_id=tournament, round__stage__kind=Stage.Kind.ROUNDS, round__number=round_number,
    number=table_number).select_related("round__stage").order_by("pk")[:1])
_SEATS = Prepared(Seat, lambda table: Seat.objects.filter(table_id=table).select_related("participant", "substitute")
                  .order_by("number"))
_SHEET = Prepared(ScoreSheet, lambda table: ScoreSheet.objects.filter(table_id=table).select_related("entered_by")
                  .order_by("pk")[:1])


def seating_problems(tournament, tables_by_round, entered: set[int] | None = None) -> dict[str, list]:
    """Players the seating no longer fits: active but on no seat (not even as a substitute), or withdrawn but
    still to play a seat: one nobody else plays, at a table whose sheet is not in yet. Once a substitute took
    over (or the sheet is in), the seat needs nothing more, and the page must not ask for it again.

    "unseated" holds players; "withdrawn" holds (player, [(round, seat), ...]), so that the page names only
    the rounds still to play, not the ones whose sheets are in, each linked to the seat that needs a substitute.
    `entered`: the tables whose sheet is in (read when not given)."""
    seats = [seat for tables in tables_by_round.values() for table in tables for seat in table.seats]
    seated = {seat.participant_id for seat in seats} | {seat.substitute_id for seat in seats if seat.substitute_id}
    players = list(tournament.participants.all())
    entered = entered_tables(tournament) if entered is None else entered
    return {
        "unseated": [p for p in players if p.status == Participant.Status.ACTIVE and p.pk not in seated],
        "withdrawn": withdrawn_seats(players, tables_by_round, entered),
    }


def substitute_candidates(tournament, seat: Seat):
    """Who may take `seat`: the active players who play nowhere in its round (on no seat, no other seat's
    substitute); its own substitute stays a choice."""
    busy = Seat.objects.filter(table__round=seat.table.round)
    return (
        tournament.participants.filter(status=Participant.Status.ACTIVE)
        .exclude(pk__in=busy.values("participant"))
        .exclude(pk__in=busy.exclude(pk=seat.pk).exclude(substitute=None).values("substitute"))
    )


def seat_of(tournament, pk: int) -> Seat | None:
    """The seat `pk` of one of the tournament's tables, with its round, players and substitute (None: no such)."""
    return (Seat.objects.select_related("table__round__stage", "participant", "substitute")
            .filter(pk=pk, table__round__stage__tournament=tournament).first())
