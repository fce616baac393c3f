"""The referee table's pages every seated game shares: a round's tables, one table's sheet (its base), a sheet's
history, the "still missing" box, the round's board and closing a problem a table signalled.

A game mixes each with its own entry page class (which loads `self.tournament`, checks the role, gives the menu
its context and names its URL namespace, `board_namespace`) and supplies only its grid: the template, the
reader of what was typed and, for the history, what one version changed. Read queries are the seated layer's
(`scoring.seated.queries`).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import TemplateView, View

from scoring.board import still_missing_response
from scoring.board_views import ProblemsBoardView, opened_from_board
from scoring.link_pages import close_problem_saying_so, problem_rows
from scoring.models import PendingSheet, ScoreSheet, TableProblem
from scoring.results.double_entry import pending_of
from scoring.results.views import EntryFlow
from tournament.models import Table
from tournament.permissions import is_director

from . import queries


class SeatedEntry:
    """What every seated entry page knows: its game's read queries and its addresses."""

    def page_url(self, name: str, *args) -> str:
        return reverse(f"{self.board_namespace}:{name}", args=[self.tournament.slug, *args])


class RoundPage(SeatedEntry, TemplateView):
    """A round's tables: each with its sheet (if any) and its first entry awaiting confirmation (if any)."""

    def get(self, request, *args, **kwargs):
        number = self.kwargs["round"]
        rounds = queries.rounds_of(self.tournament)
        if rounds and number not in {r.number for r in rounds}:
            raise Http404
        return self.round_page(request, *args, **kwargs)

    def round_page(self, request, *args, **kwargs):
        """The page of a round that exists (a game may send elsewhere instead)."""
        return super().get(request, *args, **kwargs)

    def table_row(self, table, sheet, pending) -> tuple:
        """What the page's template gets for one table: (table, sheet, status, pending); the status is "missing"
        until the sheet is entered, then "finished" (a game may say "running" while its sheet is still played)."""
        return table, sheet, "missing" if sheet is None else "finished", pending

    def round_extra(self, rows: list) -> dict:
        """The game's own counts over the rows."""
        return {}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        number = self.kwargs["round"]
        tables = queries.seated_tables(self.tournament, round_number=number).get(number, [])
        sheets = queries.sheets_by_table(self.tournament, round_number=number)
        pending = {p.table_id: p for p in PendingSheet.objects.filter(table__round__stage__tournament=self.tournament,
                                                                      table__round__number=number)
                   .select_related("entered_by")}
        rows = [self.table_row(table, sheets.get(table.table_id), pending.get(table.table_id)) for table in tables]
        context.update(
            still_missing=self.still_missing(number),
            problems=problem_rows(
                TableProblem.objects.filter(tournament=self.tournament, table__round__number=number,
                                            closed_at__isnull=True).select_related("table"),
                lambda problem: self.page_url("close_problem", number, problem.pk)),
            round_number=number,
            rounds=queries.rounds_of(self.tournament),
            tables=rows,
            entered=len(sheets),
            awaiting=len(pending),
            **self.round_extra(rows),
        )
        return context


class SheetPage(SeatedEntry, EntryFlow, TemplateView):
    """One table's sheet in one round: the entry protocol (`EntryFlow`) around the game's grid.

    `load()` reads the table (404 if there is none), its seats, the counted sheet and the first entry awaiting
    a second person; the game's view reads and shows its grid."""

    def load(self) -> None:
        self.table = queries.table_of(self.tournament, self.kwargs["round"], self.kwargs["table"])
        if self.table is None:
            raise Http404
        self.seats = queries.seats_at(self.table)
        self.sheet = queries.sheet_at(self.table)
        self.pending = pending_of(table=self.table)
        self.pending_mine = self.pending is not None and self.pending.entered_by_id == self.request.user.pk
        self.director = is_director(self.request.user, self.tournament)

    def place_words(self) -> dict:
        return {"round": self.table.round.number, "table": self.table.number}

    def board_part(self) -> str:
        return str(self.table.round.number)

    def next_url(self) -> str:
        """The round's next table still to enter (`open_tables()`), so a pile of sheets is typed in one go; the
        round's page once there is none."""
        open_tables = self.open_tables()
        following = open_tables.filter(number__gt=self.table.number).order_by("number").first()
        following = following or open_tables.exclude(pk=self.table.pk).order_by("number").first()
        if following is None:
            return self.page_url("round", self.table.round.number)
        return self.page_url("sheet", self.table.round.number, following.number)

    def open_tables(self):
        """The round's tables still to enter: without a sheet."""
        return Table.objects.filter(round=self.table.round, sheet__isnull=True)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(still_missing=self.still_missing(self.table.round.number),
                       table=self.table, round_number=self.table.round.number, seats=self.seats, sheet=self.sheet,
                       pending=self.pending, pending_mine=self.pending_mine,
                       reports=self.differing_reports(self.pending),
                       from_board=opened_from_board(self.request))
        return context


class HistoryPage(SeatedEntry, TemplateView):
    """Every version of a sheet: who, when, entry or correction, why, and what changed (`changes`, the game's)."""

    def changes(self, previous: list, entries: list) -> dict:
        return {}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = queries.table_of(self.tournament, self.kwargs["round"], self.kwargs["table"])
        sheet = ScoreSheet.objects.filter(table=table).first() if table else None
        if sheet is None:
            raise Http404
        history = []
        previous: list = []
        for revision in sheet.revisions.select_related("by"):
            entries = revision.entries if isinstance(revision.entries, list) else []
            history.append({"revision": revision, **self.changes(previous, entries)})
            previous = entries
        context.update(table=table, sheet=sheet, history=history, round_number=table.round.number)
        return context


class StillMissingPage(View):
    """The "still missing" box of a round alone, for its periodic reload on the entry pages."""

    def get(self, request, *args, **kwargs):
        return still_missing_response(request, self, self.kwargs["round"])


class BoardPage(ProblemsBoardView):
    """The round's board (`scoring.board_views`) under the seated games' menu."""

    nav = "board"
    nav_template = "seated/_nav.html"


class CloseProblemPage(SeatedEntry, View):
    """Close a problem a table signalled: someone went to the table and sorted it out; back to the round's page."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        problem = TableProblem.objects.filter(tournament=self.tournament, pk=kwargs["pk"],
                                              table__round__number=kwargs["round"]).select_related("table").first()
        if problem is None:
            raise Http404
        close_problem_saying_so(request, problem)
        return redirect(self.page_url("round", kwargs["round"]))

