"""The round board of a seated game: what is still missing in the current round.

Every entry page of Schafkopf and the table games shows it (`templates/scoring/_still_missing.html`):
the tables whose sheet is not entered, the games still running, the first entries awaiting a second
person's confirmation. The box reloads itself every `POLL_SECONDS` (htmx, local copy) from the game's
`still_missing` address, so it stays current while assistants enter sheets at other desks.

The current round is the first round with anything missing (the last round once all are in); a page
about one round (a sheet, a round's list) shows that round instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from scoring.models import PendingSheet, ScoreSheet
from scoring.progress import is_finished
from tournament.models import Stage, Table

POLL_SECONDS = 15


@dataclass
class RoundBoard:
    round: int | None
    total: int = 0
    #: table numbers without any sheet
    missing: list[int] = field(default_factory=list)
    #: table numbers whose sheet is entered but whose game is not finished (table games)
    running: list[int] = field(default_factory=list)
    #: table numbers whose first entry awaits a second person (double entry)
    awaiting: list[int] = field(default_factory=list)

    @property
    def entered(self) -> int:
        return self.total - len(self.missing) - len(self.running)

    @property
    def complete(self) -> bool:
        return self.total > 0 and not (self.missing or self.running or self.awaiting)


def round_board(tournament, round_number: int | None = None) -> RoundBoard:
    """The board of `round_number`, or of the current round (the first with anything missing)."""
    tables = list(Table.objects.filter(round__stage__tournament=tournament, round__stage__kind=Stage.Kind.ROUNDS,
                                       seats__isnull=False).distinct().values_list("pk", "round__number", "number"))
    if not tables:
        return RoundBoard(round=round_number)
    derived = dict(ScoreSheet.objects.filter(tournament=tournament, table__isnull=False)
                   .values_list("table_id", "derived"))
    pending = set(PendingSheet.objects.filter(tournament=tournament, table__isnull=False)
                  .values_list("table_id", flat=True))
    boards: dict[int, RoundBoard] = {}
    for table_id, number, table_number in sorted(tables, key=lambda t: (t[1], t[2])):
        board = boards.setdefault(number, RoundBoard(round=number))
        board.total += 1
        if table_id in pending:
            board.awaiting.append(table_number)
        if table_id not in derived:
            if table_id not in pending:
                board.missing.append(table_number)
        elif not is_finished(derived[table_id]):
            board.running.append(table_number)
    if round_number is not None:
        return boards.get(round_number, RoundBoard(round=round_number))
    return next((b for _n, b in sorted(boards.items()) if not b.complete), boards[max(boards)])


class StillMissingMixin:
    """For a game's entry pages: `still_missing` in the context (the board of the page's round, or the
    current round), and the box alone as a response to its periodic reload. `board_namespace` is the
    game's URL namespace ("tournament:schafkopf"), where `sheet` and `still_missing` are named."""

    board_namespace = ""

    def still_missing(self, round_number: int | None = None) -> dict | None:
        board = round_board(self.tournament, round_number)
        if not board.total:
            return None
        return {
            "board": board, "poll_seconds": POLL_SECONDS,
            "sheet_url": f"{self.board_namespace}:sheet",
            "poll_url": reverse(f"{self.board_namespace}:still_missing", args=[self.tournament.slug, board.round]),
        }


def still_missing_response(request, view: StillMissingMixin, round_number: int):
    """The box alone, for the page's periodic reload."""
    context = view.still_missing(round_number)
    if context is None:
        raise Http404
    return render(request, "scoring/_still_missing.html", {"still_missing": context, "tournament": view.tournament})


# --- each place's state, for the live round board (table links) -----------------------------------------

#: no sheet and no first entry yet
MISSING = "missing"
#: the table sent its sheet from its link: awaits the referee table's confirmation
FROM_TABLE = "from_table"
#: a first entry made at the referee table (double entry) awaits a second person
AWAITING = "awaiting"
#: the sheet counts, but its game goes on (a table game's hands so far, a series not decided yet)
RUNNING = "running"
#: the sheet counts and its game is over
COUNTED = "counted"


@dataclass(frozen=True)
class PlaceState:
    """One table (seated games) or one Voms match of a round, as the round's board shows it."""

    #: the table's id, or the match's id
    pk: int
    #: the table number (a knockout series may have none: 0)
    number: int
    state: str
    #: a problem the table signalled from its link is open
    problem: bool = False
    #: the first entry's version (what a one-key confirmation must name), when there is one
    pending_version: int | None = None


def _state(sheet_derived, pending) -> str:
    if pending is not None:
        return FROM_TABLE if pending[1] else AWAITING
    if sheet_derived is None:
        return MISSING
    return COUNTED if is_finished(sheet_derived) else RUNNING


def table_states(tournament, round_number: int) -> list[PlaceState]:
    """Every seated table of the round (Schafkopf, the table games) with its state, by table number."""
    from scoring.models import TableProblem

    tables = list(Table.objects.filter(round__stage__tournament=tournament, round__stage__kind=Stage.Kind.ROUNDS,
                                       round__number=round_number).order_by("number").values_list("pk", "number"))
    ids = [pk for pk, _n in tables]
    derived = dict(ScoreSheet.objects.filter(table__in=ids).values_list("table_id", "derived"))
    pending = {t: (v, link is not None) for t, v, link in PendingSheet.objects.filter(table__in=ids)
               .values_list("table_id", "version", "source_link_id")}
    problems = set(TableProblem.objects.filter(table__in=ids, closed_at__isnull=True).values_list("table_id",
                                                                                                  flat=True))
    return [PlaceState(pk, number, _state(derived.get(pk), pending.get(pk)), pk in problems,
                       pending[pk][0] if pk in pending else None) for pk, number in tables]


def match_states(matches) -> list[PlaceState]:
    """The given Voms matches (a pool round's games, a knockout round's series) with their state, in order.

    A pool game that a disqualification decides without a slip reads as missing here; the Voms pages say
    "decided" from the pool state (`scoring.games.voms.services.pool_state`)."""
    from scoring.models import TableProblem

    matches = list(matches)
    ids = [m.pk for m in matches]
    derived = dict(ScoreSheet.objects.filter(match__in=ids).values_list("match_id", "derived"))
    pending = {m: (v, link is not None) for m, v, link in PendingSheet.objects.filter(match__in=ids)
               .values_list("match_id", "version", "source_link_id")}
    problems = set(TableProblem.objects.filter(match__in=ids, closed_at__isnull=True).values_list("match_id",
                                                                                                  flat=True))
    return [PlaceState(m.pk, m.table_number or 0, _state(derived.get(m.pk), pending.get(m.pk)), m.pk in problems,
                       pending[m.pk][0] if m.pk in pending else None) for m in matches]
