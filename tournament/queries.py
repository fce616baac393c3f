"""Reading who sits where: the seating of a tournament's rounds in a constant number of queries.

Pages and printouts of 2,000 players must not run a query per table or per seat: everything here
reads one queryset with its related rows joined, and groups in Python. Any seated game reads its
seating here (Schafkopf and the table games); the substitutes only Schafkopf puts on a seat are
loaded in the same query, so the games without substitutes pay nothing for them.

Also the questions every registration and draw asks about how far a tournament has come (drawn, play
started, draw fixed), each in one query.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Exists, Q, QuerySet

from scoring.models import PendingSheet, ScoreSheet

from .models import PoolEntry, Round, Seat, Stage, Tournament


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
    """{round number: tables in number order, each with its seats (participant and substitute loaded)}."""
    seats = Seat.objects.filter(
        table__round__stage__tournament=tournament, table__round__stage__kind=Stage.Kind.ROUNDS
    ).select_related("table__round", "participant", "substitute").order_by(
        "table__round__number", "table__number", "number"
    )
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
    """{participant id: {round: (table, seat)}} for everyone on a seat (substitutes where they play)."""
    places: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for round_number, tables in tables_by_round.items():
        for table in tables:
            for seat in table.seats:
                places[seat.participant_id][round_number] = (table.number, seat.number)
                if seat.substitute_id:
                    places[seat.substitute_id][round_number] = (table.number, seat.number)
    return places


# --- several yes/no questions in one query ------------------------------------------------------------------


def holds(tournament, condition: Q) -> bool:
    """Whether `condition` (EXISTS subqueries combined with |, & and ~) holds for `tournament`: one query,
    however many subqueries. The registration and result paths ask such questions on every save."""
    return Tournament.objects.filter(pk=tournament.pk).filter(condition).exists()


def exists_any(tournament, *querysets: QuerySet) -> bool:
    """Whether any of `querysets` has a row, in one query (see `holds`)."""
    condition = Q()
    for queryset in querysets:
        condition |= Q(Exists(queryset))
    return holds(tournament, condition)


# --- how far the tournament has come -----------------------------------------------------------------------


def drawn(tournament) -> bool:
    """Whether anyone sits at a drawn table or in a drawn pool: from then on entries are withdrawn, not deleted."""
    return (Seat.objects.filter(table__round__stage__tournament=tournament).exists()
            or PoolEntry.objects.filter(pool__stage__tournament=tournament).exists())


def play_started_querysets(tournament, *, any_round: bool = False) -> tuple:
    """What `tournament.services.seating.play_started` asks, as querysets (any of them with a row: started), to
    be asked with others."""
    rounds = Round.objects.filter(stage__tournament=tournament, stage__kind=Stage.Kind.ROUNDS)
    started = rounds.filter(starts_at__isnull=False)
    return (started if any_round else started.filter(number=1)), ScoreSheet.objects.filter(table__round__in=rounds)


def draw_fixed(tournament) -> bool:
    """Whether the draw can no longer be redone: a result entered (or awaiting confirmation), or round 1 started."""
    # one query: every registration asks this
    return exists_any(tournament, ScoreSheet.objects.filter(tournament=tournament),
                      PendingSheet.objects.filter(tournament=tournament), *play_started_querysets(tournament))
