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
