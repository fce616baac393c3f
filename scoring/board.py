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
from enum import StrEnum
from typing import Any

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from documents.charts import BarChart, per_slot
from scoring.models import PendingSheet, ScoreSheet, TableProblem
from scoring.progress import is_finished
from scoring.results.words import user_name
from tournament.models import Round, Stage, Table
from tournament.prepared import Prepared

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
    # Every list page at the referee table shows this box: only the round's own tables are read (all rounds only
    # to find the current one), and of each sheet only its "finished" flag, never its whole derived values.
    if round_number is None:
        tables = list(_tables(tournament.pk))
        if not tables:
            return RoundBoard(round=round_number)
        sheets, pending = _sheets(tournament.pk), _pending(tournament.pk)
    else:  # a list page's box: compiled once (tournament/prepared.py), asked on every page and reload
        tables = _ROUND_TABLES.all(tournament=tournament.pk, number=round_number)
        if not tables:
            return RoundBoard(round=round_number)
        sheets = _ROUND_SHEETS.all(tournament=tournament.pk, number=round_number)
        pending = _ROUND_PENDING.all(tournament=tournament.pk, number=round_number)
    # `derived__finished`: the flag, or None where the game keeps none (finished, as `is_finished` says)
    finished = {table_id: flag is not False for table_id, flag in sheets}
    pending = set(pending)
    boards: dict[int, RoundBoard] = {}
    for table_id, number, table_number in sorted(tables, key=lambda t: (t[1], t[2])):
        board = boards.setdefault(number, RoundBoard(round=number))
        board.total += 1
        if table_id in pending:
            board.awaiting.append(table_number)
        if table_id not in finished:
            if table_id not in pending:
                board.missing.append(table_number)
        elif not finished[table_id]:
            board.running.append(table_number)
    if round_number is not None:
        return boards.get(round_number, RoundBoard(round=round_number))
    return next((b for _n, b in sorted(boards.items()) if not b.complete), boards[max(boards)])


def _tables(tournament, **in_round):
    """(id, round number, number) of the tables of the rounds (the round's only, with `round__number`)."""
    return (Table.objects.filter(round__stage__tournament_id=tournament, round__stage__kind=Stage.Kind.ROUNDS,
                                 seats__isnull=False, **in_round)
            .distinct().values_list("pk", "round__number", "number"))


def _sheets(tournament, **in_round):
    """(table id, its "finished" flag) of the rounds' sheets."""
    return (ScoreSheet.objects.filter(tournament_id=tournament, table__round__stage__kind=Stage.Kind.ROUNDS,
                                      **{f"table__{key}": value for key, value in in_round.items()})
            .values_list("table_id", "derived__finished"))


def _pending(tournament, **in_round):
    """The ids of the rounds' tables with a first entry awaiting the referee."""
    return (PendingSheet.objects.filter(tournament_id=tournament, table__round__stage__kind=Stage.Kind.ROUNDS,
                                        **{f"table__{key}": value for key, value in in_round.items()})
            .values_list("table_id", flat=True))


_ROUND_TABLES = Prepared(Table, lambda tournament, number: _tables(tournament, round__number=number))
_ROUND_SHEETS = Prepared(ScoreSheet, lambda tournament, number: _sheets(tournament, round__number=number))
_ROUND_PENDING = Prepared(PendingSheet, lambda tournament, number: _pending(tournament, round__number=number))


class StillMissingMixin:
    """For a game's entry pages: `still_missing` in the context (the board of the page's round, or the
    current round), and the box alone as a response to its periodic reload. `board_namespace` is the
    game's URL namespace ("tournament:schafkopf"), where `sheet` and `still_missing` are named."""

    board_namespace = ""

    def still_missing(self, round_number: int | None = None) -> dict | None:
        board = round_board(self.tournament, round_number)
        if not board.total:
            return None
        links = TableLinks(f"{self.board_namespace}:sheet", self.tournament.slug, board.round)
        return {
            "board": board, "poll_seconds": POLL_SECONDS,
            "missing": links.html(board.missing), "running": links.html(board.running),
            "awaiting": links.html(board.awaiting),
            "poll_url": reverse(f"{self.board_namespace}:still_missing", args=[self.tournament.slug, board.round]),
        }


class TableLinks:
    """"Table 3, Table 7, …" linked to each table's sheet page. The box lists up to every table of a round on
    every page at the referee table (and its reload every few seconds): the address is worked out once and each
    table's number put into it, not one `reverse()` and one translation per table."""

    def __init__(self, sheet_url: str, slug: str, round_number: int):
        address = reverse(sheet_url, args=[slug, round_number, 0])
        if not address.endswith("/0/"):  # the sheet's address ends with the table's number
            raise ValueError(f"{sheet_url} does not end with the table's number: {address}")
        self.prefix, self.label = address[:-2], _("Table %(number)s")

    def html(self, numbers: list[int]) -> str:
        return format_html_join(", ", '<a href="{}{}/">{}</a>',
                                ((self.prefix, number, self.label % {"number": number}) for number in numbers))


def still_missing_response(request, view: StillMissingMixin, round_number: int):
    """The box alone, for the page's periodic reload."""
    context = view.still_missing(round_number)
    if context is None:
        raise Http404
    return render(request, "scoring/_still_missing.html", {"still_missing": context, "tournament": view.tournament})


# --- the round's board (the director's live page of every game) -------------------------------------------
#
# A game's `Game.board(tournament, part)` hook returns a `Board`: one `BoardItem` per place that hands in
# a result (a table of a seated game, a Voms slip or knockout series) with its `PlaceState`, computed by
# `place_state`, the one function that says what a place's state is. One view and one template show it for
# every game (`scoring.board_views`); `seated_board` below is the hook of the seated games.


class PlaceState(StrEnum):
    """Where a place's result is (a place: a seated game's table, a Voms slip or knockout series)."""

    #: no sheet and no first entry yet
    MISSING = "missing"
    #: the sheet counts, but its game goes on (a table game's hands so far, a series not decided yet)
    RUNNING = "running"
    #: a first entry (from the table's link or an assistant's double entry) awaits a second person
    AWAITING = "awaiting"
    #: the sheet counts and its game is over
    COUNTED = "counted"

    @property
    def label(self) -> str:
        return {PlaceState.MISSING: _("missing"), PlaceState.RUNNING: _("still playing"),
                PlaceState.AWAITING: _("awaiting confirmation"), PlaceState.COUNTED: _("counted")}[self]

    def count_text(self, number: int) -> str:
        """"12 counted", "3 awaiting confirmation" in the language in force."""
        params = {"count": number}
        if self is PlaceState.COUNTED:
            return ngettext("%(count)s counted", "%(count)s counted", number) % params
        if self is PlaceState.AWAITING:
            return ngettext("%(count)s awaiting confirmation", "%(count)s awaiting confirmation", number) % params
        if self is PlaceState.RUNNING:
            return ngettext("%(count)s still playing", "%(count)s still playing", number) % params
        return ngettext("%(count)s missing", "%(count)s missing", number) % params


MISSING, RUNNING, AWAITING, COUNTED = PlaceState.MISSING, PlaceState.RUNNING, PlaceState.AWAITING, PlaceState.COUNTED
#: the board reloads itself this often (htmx); a live board is a few queries, whatever the number of tables
BOARD_POLL_SECONDS = 10


def place_state(derived, pending) -> PlaceState:
    """A place's state from its counted sheet's derived values (`derived`, None without a sheet) and its first
    entry awaiting confirmation (`pending`, None without one): a first entry waits whatever the sheet holds
    (a table game's later hands confirmed so far), a sheet whose game is not over is still playing."""
    if pending is not None:
        return AWAITING
    if derived is None:
        return MISSING
    return COUNTED if is_finished(derived) else RUNNING


@dataclass
class BoardProblem:
    """An open problem a table signalled (`scoring.models.TableProblem`), closed from the board."""

    pk: int
    text: str
    at: Any


@dataclass
class BoardItem:
    #: a stable id for the page ("table-12", "match-40"): keeps the focus on it across the board's reloads
    key: str
    label: str
    state: PlaceState
    #: where the referee table enters, checks or confirms it
    url: str
    #: a line under the label: who sent the first entry and when, a series' score, the teams of a slip
    detail: str = ""
    #: the first entry awaiting confirmation was sent from the table's private link
    from_table: bool = False
    problems: list[BoardProblem] = field(default_factory=list)
    #: a first entry the current user made: someone else has to confirm it
    mine: bool = False

    @property
    def state_text(self) -> str:
        if self.state == AWAITING and self.from_table:
            return _("arrived from the table")
        return self.state.label

    def show_pending(self, pending, user, *, before: str = "") -> None:
        """Fill in who sent the first entry awaiting confirmation (`pending`) and when, after `before` (a
        slip's teams); a first entry of `user` is theirs: someone else confirms it."""
        detail, self.from_table = pending_detail(pending)
        self.mine = user is not None and pending.entered_by_id == user.pk
        if self.mine:
            detail = _("your entry: someone else confirms it")
        self.detail = f"{before} · {detail}" if before else detail


@dataclass
class Board:
    #: the part shown: a round number (as text) or a game's own key ("ko" for a knockout)
    part: str
    title: str
    items: list[BoardItem] = field(default_factory=list)
    #: [(part, label)] of every part the game has, for switching
    parts: list[tuple[str, str]] = field(default_factory=list)
    #: what is shown when there is nothing to show yet (no seating, no draw)
    empty_text: str = ""
    #: when each counted result of the part arrived (its sheet's first counting): the board's picture
    arrivals: list = field(default_factory=list)
    #: when the part's round clock was started (None: not run), where the picture begins
    started_at: Any = None

    def count(self, state: PlaceState) -> int:
        return sum(1 for item in self.items if item.state == state)

    @property
    def problems(self) -> list[tuple[BoardItem, BoardProblem]]:
        return [(item, problem) for item in self.items for problem in item.problems]

    @property
    def next_to_confirm(self) -> BoardItem | None:
        """The first entry awaiting confirmation that the current user may confirm: sent by a table first
        (the phones are the queue), then the assistants' first entries."""
        waiting = [item for item in self.items if item.state == AWAITING and not item.mine]
        return next((item for item in waiting if item.from_table), waiting[0] if waiting else None)

    @property
    def complete(self) -> bool:
        return bool(self.items) and all(item.state == COUNTED for item in self.items) and not self.problems

    def summary(self) -> str:
        """"12 counted, 3 awaiting confirmation, 2 missing, 1 problem" in the language in force."""
        parts = []
        for state in (COUNTED, AWAITING, RUNNING, MISSING):
            number = self.count(state)
            if number or state in (COUNTED, MISSING):
                parts.append(state.count_text(number))
        problems = len(self.problems)
        if problems:
            parts.append(ngettext("%(count)s problem", "%(count)s problems", problems) % {"count": problems})
        return ", ".join(parts)


def pending_detail(pending) -> tuple[str, bool]:
    """Who made a first entry and when; True when the table sent it from its link."""
    at = date_format(timezone.localtime(pending.updated_at), "TIME_FORMAT")
    if pending.source_link_id:
        return _("sent by the table at %(at)s") % {"at": at}, True
    return _("entered by %(who)s at %(at)s") % {"who": user_name(pending.entered_by), "at": at}, False


def open_problems(tournament, *, by: str = "table_id", **where) -> dict[int, list[BoardProblem]]:
    """{table id (or, with by="match_id", a Voms match's id): open problems}, oldest first."""
    found: dict[int, list[BoardProblem]] = {}
    for problem in TableProblem.objects.filter(tournament=tournament, closed_at__isnull=True, **where):
        text = problem.get_kind_display() + (f" – {problem.note}" if problem.note else "")
        found.setdefault(getattr(problem, by), []).append(BoardProblem(problem.pk, text, problem.signalled_at))
    return found


def seated_board(tournament, part: str | None, *, namespace: str, user=None) -> Board:
    """The board of a seated game's round (Schafkopf, the table games): each table missing, still playing
    (a table game's sheet whose game is not finished), awaiting confirmation (from the table's link or an
    assistant's first entry) or counted, with the problems the tables signalled. `part` is the round number
    as text; None: the current round (the first with anything open)."""
    started = dict(Round.objects.filter(stage__tournament=tournament, stage__kind=Stage.Kind.ROUNDS)
                   .order_by("number").values_list("number", "clock_started_at"))
    rounds = list(started)
    parts = [(str(number), str(_("Round %(number)s") % {"number": number})) for number in rounds]
    if not rounds:
        return Board(part="", title=_("Round board"), empty_text=_("The seating has not been drawn yet."))
    if part is None:
        number = round_board(tournament).round or rounds[0]
    elif part.isdigit() and int(part) in rounds:
        number = int(part)
    else:
        raise Http404
    tables = list(Table.objects.filter(round__stage__tournament=tournament, round__stage__kind=Stage.Kind.ROUNDS,
                                       round__number=number).order_by("number").values_list("pk", "number"))
    sheets = list(ScoreSheet.objects.filter(table__round__stage__tournament=tournament, table__round__number=number)
                  .values_list("table_id", "derived", "entered_at"))
    derived = {table_id: values for table_id, values, _at in sheets}
    pending = {p.table_id: p for p in PendingSheet.objects.filter(
        table__round__stage__tournament=tournament, table__round__number=number).select_related("entered_by")}
    problems = open_problems(tournament, table__round__number=number)
    items = []
    for table_id, table_number in tables:
        item = BoardItem(key=f"table-{table_number}", label=str(_("Table %(number)s") % {"number": table_number}),
                         state=place_state(derived.get(table_id), pending.get(table_id)),
                         url=reverse(f"{namespace}:sheet", args=[tournament.slug, number, table_number]),
                         problems=problems.get(table_id, []))
        if table_id in pending:
            item.show_pending(pending[table_id], user)
        items.append(item)
    return Board(part=str(number), title=str(_("Round %(number)s") % {"number": number}), items=items, parts=parts,
                 arrivals=[at for _id, _values, at in sheets], started_at=started[number])


#: the board's picture counts the results arrived in slots of this many minutes
SLOT_MINUTES = 5


def arrivals_chart(board: Board) -> BarChart | None:
    """The results of the board's part arriving over time: how many sheets (slips, series) were first counted
    in each five minutes, in the local time, from the round's start when its clock ran; None before the first
    one."""
    start = timezone.localtime(board.started_at) if board.started_at else None
    slots = per_slot((timezone.localtime(at) for at in board.arrivals), minutes=SLOT_MINUTES, start=start)
    if not slots:
        return None
    labels = [start.strftime("%H:%M") for start, _count in slots]  # 24-hour: short enough for the axis
    busiest = max(slots, key=lambda slot: slot[1])
    description = ngettext(
        "%(count)s result counted from %(first)s to %(last)s; the most, %(most)s, in the five minutes from %(peak)s.",
        "%(count)s results counted from %(first)s to %(last)s; the most, %(most)s, in the five minutes from %(peak)s.",
        len(board.arrivals)) % {"count": len(board.arrivals), "first": labels[0], "last": labels[-1],
                                "most": busiest[1], "peak": busiest[0].strftime("%H:%M")}
    return BarChart(key="arrivals", title=_("Results arriving: %(part)s") % {"part": board.title},
                    description=description, x_labels=labels, values=[count for _start, count in slots],
                    y_label=_("Results"), row_header=_("Five minutes from"))
