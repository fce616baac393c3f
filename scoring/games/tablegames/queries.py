"""Reading a table-game tournament's seating and sheets in a constant number of queries.

Pages and printouts must not run a query per table or per seat: everything here reads one queryset
with its related rows joined, and groups in Python.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from scoring.models import ScoreSheet
from tournament.models import Participant, Round, Seat, Stage, Table


@dataclass
class SeatedTable:
    round: int
    number: int
    table_id: int
    seats: list[Seat] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def names(self) -> dict[int, str]:
        return {seat.number: seat.participant.name for seat in self.seats}


def seated_tables(tournament, *, round_number: int | None = None) -> dict[int, list[SeatedTable]]:
    """{round number: tables in number order, each with its seats (participants loaded)}."""
    seats = Seat.objects.filter(
        table__round__stage__tournament=tournament, table__round__stage__kind=Stage.Kind.ROUNDS
    ).select_related("table__round", "participant").order_by("table__round__number", "table__number", "number")
    if round_number is not None:
        seats = seats.filter(table__round__number=round_number)
    rounds: dict[int, list[SeatedTable]] = defaultdict(list)
    for seat in seats:
        table = seat.table
        tables = rounds[table.round.number]
        if not tables or tables[-1].table_id != table.pk:
            tables.append(SeatedTable(table.round.number, table.number, table.pk))
        tables[-1].seats.append(seat)
    return dict(rounds)


def places_by_participant(tables_by_round: dict[int, list[SeatedTable]]) -> dict[int, dict[int, tuple[int, int]]]:
    """{participant id: {round: (table, seat)}}."""
    places: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for round_number, tables in tables_by_round.items():
        for table in tables:
            for seat in table.seats:
                places[seat.participant_id][round_number] = (table.number, seat.number)
    return places


def sheets_by_table(tournament, *, round_number: int | None = None, with_entries: bool = False) -> dict:
    """{table id: ScoreSheet} of the tournament's rounds (entries deferred unless asked for)."""
    sheets = ScoreSheet.objects.filter(tournament=tournament, table__isnull=False).select_related("table__round")
    if round_number is not None:
        sheets = sheets.filter(table__round__number=round_number)
    if not with_entries:
        sheets = sheets.defer("entries")
    return {sheet.table_id: sheet for sheet in sheets}


def rounds_of(tournament) -> list[Round]:
    return list(Round.objects.filter(stage__tournament=tournament, stage__kind=Stage.Kind.ROUNDS).order_by("number"))


def table_of(tournament, round_number: int, table_number: int) -> Table | None:
    return (
        Table.objects.filter(round__stage__tournament=tournament, round__stage__kind=Stage.Kind.ROUNDS,
                             round__number=round_number, number=table_number)
        .select_related("round__stage__tournament")
        .first()
    )


def unseated_players(tournament, tables_by_round) -> list[Participant]:
    """Active players the seating does not have (registered after the draw): redo the draw to seat them."""
    seated = {seat.participant_id for tables in tables_by_round.values() for t in tables for seat in t.seats}
    return [p for p in tournament.participants.filter(status=Participant.Status.ACTIVE) if p.pk not in seated]
