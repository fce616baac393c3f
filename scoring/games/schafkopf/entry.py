"""The referee table's pages: a round's lists, one score list to enter or correct, a list's history.

The grid is typed without the mouse (see static/schafkopf/entry.js); the page computes each row's
points with the pure rules for display, and `services.enter_sheet` decides authoritatively.
"""

from __future__ import annotations

from itertools import zip_longest

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView, View

from scoring.board import still_missing_response
from scoring.board_views import ProblemsBoardView, board_url, opened_from_board
from scoring.drafts import draft_config, state_of
from scoring.link_pages import CloseTableProblem, problem_rows
from scoring.models import PendingSheet, ScoreSheet, TableProblem
from scoring.rules.base import RuleError
from scoring.rules.schafkopf import GAME_TYPES, LIVE_MESSAGES, dealer_of, score_game, sitting_out, tariff_to_dict
from scoring.seated.queries import rounds_of, seated_tables, sheets_by_table, table_of
from scoring.seated.views.base import EntryPage, url
from scoring.services.compare import two_versions
from scoring.services.sheets import (
    EntriesDiffer,
    StaleVersion,
    decided_message,
    entered_by_label,
    pending_of,
    posted_decision,
    rule_message,
    user_name,
)
from tournament.models import Seat, Table
from tournament.permissions import is_director
from tournament.services.errors import DomainError
from tournament.views.replay import ReplayGuard

from . import services
from .config import GAMES_MODE, MODES, TOTALS_MODE, settings_of
from .forms import (
    GRID_FIELDS,
    TOTALS_FIELDS,
    TYPE_KEYS,
    CorrectionForm,
    GridRow,
    TotalsRow,
    grid_values,
    read_games,
    read_totals,
    totals_values,
)


class RoundView(EntryPage, TemplateView):
    """A round's tables: whose list is entered, corrected or still missing."""

    template_name = "schafkopf/round.html"
    nav = "lists"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        number = self.kwargs["round"]
        rounds = rounds_of(self.tournament)
        if rounds and number not in {r.number for r in rounds}:
            raise Http404
        tables = seated_tables(self.tournament, round_number=number).get(number, [])
        sheets = sheets_by_table(self.tournament, round_number=number)
        pending = {p.table_id: p for p in PendingSheet.objects.filter(table__round__stage__tournament=self.tournament,
                                                                      table__round__number=number)
                   .select_related("entered_by")}
        context.update(
            still_missing=self.still_missing(number),
            problems=problem_rows(
                TableProblem.objects.filter(tournament=self.tournament, table__round__number=number,
                                            closed_at__isnull=True).select_related("table"),
                lambda problem: url(self.tournament, "close_problem", number, problem.pk)),
            round_number=number,
            rounds=rounds,
            tables=[(table, sheets.get(table.table_id), pending.get(table.table_id)) for table in tables],
            entered=len(sheets),
            awaiting=len(pending),
        )
        return context


def whole_number(text: str | None) -> int:
    """A number posted by the page's own hidden field; anything else counts as 0 (a new list)."""
    return int(text) if text and text.isdigit() else 0


def game_text(entry: dict | None) -> str:
    """A game in the grid's letters, for comparing two versions of a list ("R 1/3 + S")."""
    if not entry:
        return "–"
    values = grid_values(entry)
    who = values["d"] + (f"/{values['p']}" if values["p"] else "")
    text = f"{values['t']} {who} {values['r']}{values['x']}"
    return f"{text} tout {values['i']}" if values["i"] else text


def game_differences(before: list[dict], after: list[dict]) -> list[tuple[int, str, str]]:
    """(game number, before, after) of every game that differs between two versions of a list."""
    pairs = zip_longest(before, after)
    return [(n, game_text(a), game_text(b)) for n, (a, b) in enumerate(pairs, start=1) if a != b]


GRID_LABELS = {
    "t": gettext_lazy("Type"), "d": gettext_lazy("Declarer"), "p": gettext_lazy("Partner"),
    "r": gettext_lazy("Won (+) or lost (−)"), "x": gettext_lazy("Schneider / Schwarz"),
    "l": gettext_lazy("Laufende"), "i": gettext_lazy("Tout"),
}
TOTALS_LABELS = {
    "total": gettext_lazy("Total"), "solo_played": gettext_lazy("Solo/Wenz played"),
    "solo_won": gettext_lazy("Solo/Wenz won"), "tout_played": gettext_lazy("Tout played"),
    "tout_won": gettext_lazy("Tout won"),
}


def list_fields(entries: list[dict]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """A list as labelled fields (`scoring.services.compare`); the keys are the grid's input names."""
    if _is_games(entries):
        return [(_("Game %(number)s") % {"number": n},
                 [(f"{key}{n}", str(GRID_LABELS[key]), text) for key, text in grid_values(entry).items()])
                for n, entry in enumerate(entries, start=1)]
    return [(_("Seat %(seat)s") % {"seat": row["seat"]},
             [(f"{key}{row['seat']}", str(TOTALS_LABELS.get(key, key)), text)
              for key, text in totals_values(row).items()])
            for row in entries]


def scored_rows(grid: list[GridRow], *, size: int, tariff) -> tuple[list[dict], dict[int, int] | None]:
    """Each row with its dealer and every seat's points and running total; rule errors marked on rows.

    The totals are None once a row cannot be scored: a sum that skips a game would mislead. Shared by the
    referee table's grid and the table's own page (`phone.py`).
    """
    seats = range(1, size + 1)
    running = dict.fromkeys(seats, 0)
    broken = False
    rows = []
    for row in grid:
        points = None
        if row.entry and not row.errors:
            try:
                points = score_game(services.entry_from_json(row.entry), game_number=row.number,
                                    table_size=size, tariff=tariff)
            except RuleError as error:
                row.rule_error = rule_message(error)
        broken = broken or (points is None and not row.blank)
        if points and not broken:
            running = {seat: running[seat] + points[seat] for seat in seats}
        out = sitting_out(row.number, size)
        rows.append({
            "row": row, "dealer": dealer_of(row.number, size), "out": out,
            "cells": [{"points": points[seat] if points else None,
                       "running": running[seat] if points and not broken else None,
                       "out": seat == out} for seat in seats],
        })
    return rows, None if broken else running


class SheetView(EntryPage, ReplayGuard, TemplateView):
    """One table's score list: game by game (the grid) or totals only; correction by a director."""

    template_name = "schafkopf/sheet.html"
    nav = "lists"

    def load(self) -> None:
        self.table = table_of(self.tournament, self.kwargs["round"], self.kwargs["table"])
        if self.table is None:
            raise Http404
        self.seats = list(Seat.objects.filter(table=self.table).select_related("participant", "substitute"))
        self.size = len(self.seats)
        self.settings = settings_of(self.tournament)
        self.games = self.settings.games_at(self.size)
        self.sheet = ScoreSheet.objects.filter(table=self.table).select_related("entered_by").first()
        self.pending = pending_of(table=self.table)
        self.pending_mine = self.pending is not None and self.pending.entered_by_id == self.request.user.pk
        self.can_edit = self.sheet is None or is_director(self.request.user, self.tournament)
        requested = self.request.POST.get("mode") or self.request.GET.get("mode")
        shown = self.pending or self.sheet
        self.mode = requested if requested in MODES else (shown.mode if shown else GAMES_MODE)

    def working(self):
        """What the grid starts from: a first entry awaiting confirmation (unless it is to be typed again
        blind, ?blank=1), else the counted list."""
        if self.pending is not None and self.sheet is None:
            return None if self.request.GET.get("blank") and not self.pending_mine else self.pending
        return self.sheet

    def get(self, request, *args, **kwargs):
        self.load()
        working = self.working()
        stored = working.entries if working and working.mode == self.mode else None
        if self.mode == GAMES_MODE:
            grid = [GridRow(n, grid_values(e)) for n, e in enumerate(stored or [], start=1)]
            grid += [GridRow(n, dict.fromkeys(GRID_FIELDS, "")) for n in range(len(grid) + 1, self.games + 1)]
            for row, entry in zip(grid, stored or [], strict=False):
                row.entry = entry
            return self.show(grid=grid)
        return self.show(totals=self.stored_totals(stored))

    def stored_totals(self, stored: list[dict] | None) -> list[TotalsRow]:
        """The totals form: as entered, or a game-by-game list's totals and counts to start a correction from."""
        if stored is None and self.sheet is not None:
            derived = self.sheet.derived
            stored = [{"seat": seat, "total": derived["totals"][str(seat)], **derived["counts"][str(seat)]}
                      for seat in range(1, self.size + 1)]
        by_seat = {row["seat"]: row for row in stored or []}
        return [
            TotalsRow(seat, totals_values(by_seat[seat]) if seat in by_seat else dict.fromkeys(TOTALS_FIELDS, ""))
            for seat in range(1, self.size + 1)
        ]

    def post(self, request, *args, **kwargs):
        self.load()
        if request.POST.get("action") == "confirm":
            return self.confirm()
        version = whole_number(request.POST.get("version"))
        correction = CorrectionForm(request.POST) if self.sheet else None
        if self.mode == GAMES_MODE:
            grid = read_games(request.POST, rows=self.games, table_size=self.size)
            shown = {"grid": grid, "correction": correction, "version": version}
            self.scored_rows(grid)  # marks the rows the rules refuse
            if any(row.errors or row.rule_error for row in grid):
                return self.show(**shown, error=_("Some games cannot be right: see the marked rows."))
            entries = [row.entry for row in grid if row.entry]
        else:
            totals, entries = read_totals(request.POST, table_size=self.size)
            shown = {"totals": totals, "correction": correction, "version": version}
            if entries is None:
                return self.show(**shown, error=_("Some fields cannot be read: see the marked fields."))
        decision = posted_decision(request.POST)
        try:
            sheet = services.enter_sheet(self.table, by=request.user, mode=self.mode, entries=entries,
                                         expected_version=version, reason=request.POST.get("reason", ""),
                                         sent=self.sent, **decision)
        except StaleVersion as conflict:
            return self.show(**{**shown, "version": conflict.sheet.version},
                             conflict=self.conflict(conflict.sheet, entries), error=conflict.message)
        except EntriesDiffer as differ:
            return self.show(**shown, **self.differs(differ, grid if self.mode == GAMES_MODE else totals),
                             error=differ.message)
        except services.ListRefused as error:
            if error.game_number and self.mode == GAMES_MODE:
                grid[error.game_number - 1].rule_error = error.message
            return self.show(**shown, error=error.message)
        except DomainError as error:
            return self.show(**shown, error=error.message, reason_error=error.field == "reason")
        if not sheet.counted:
            messages.success(request, _("Round %(round)s, table %(table)s: first entry saved. It counts once a "
                                        "second person enters the list again or confirms it.")
                             % {"round": self.table.round.number, "table": self.table.number})
            return redirect(self.next_url())
        if decided_message(sheet):
            messages.success(request, _("Round %(round)s, table %(table)s: %(decided)s")
                             % {"round": self.table.round.number, "table": self.table.number,
                                "decided": decided_message(sheet)})
            return redirect(self.next_url())
        if self.pending is not None and self.sheet is None:
            messages.success(request, _("Round %(round)s, table %(table)s: the list is confirmed and counts now.")
                             % {"round": self.table.round.number, "table": self.table.number})
            return redirect(self.next_url())
        what = _("corrected") if sheet.corrected and self.sheet else _("saved")
        messages.success(request, _("Round %(round)s, table %(table)s: list %(what)s.")
                         % {"round": self.table.round.number, "table": self.table.number, "what": what})
        return redirect(self.next_url())

    def confirm(self):
        """The Confirm button: a second person (or a director deciding) lets the first entry count."""
        try:
            services.confirm_sheet(self.table, by=self.request.user,
                                   expected_version=whole_number(self.request.POST.get("pending_version")) or None)
        except DomainError as error:
            messages.error(self.request, error.message)
            return redirect(self.request.path + ("?from=board" if opened_from_board(self.request) else ""))
        messages.success(self.request, _("Round %(round)s, table %(table)s: the list is confirmed and counts now.")
                         % {"round": self.table.round.number, "table": self.table.number})
        if opened_from_board(self.request):
            return redirect(board_url(self.tournament, str(self.table.round.number)))
        return redirect(self.next_url())

    def differs(self, differ: EntriesDiffer, rows) -> dict:
        """Both entries field by field, and the differing inputs of the form marked."""
        two = two_versions(differ.pending.entries, differ.entries, list_fields, title=_("The two entries differ"),
                           intro=_("Nothing was saved. Check the marked fields against the paper list."),
                           first_label=_("First entry (%(who)s)") % {"who": entered_by_label(differ.pending)},
                           second_label=_("Your entry"))
        for row in rows or []:
            number = row.number if isinstance(row, GridRow) else row.seat
            for key in row.values:
                if f"{key}{number}" in two["keys"]:
                    row.errors[key] = _("Differs from the first entry.")
        can_decide = (is_director(self.request.user, self.tournament)
                      and differ.pending.entered_by_id != self.request.user.pk)
        return {"two": two, "can_decide": can_decide}

    def next_url(self) -> str:
        """The next table of the round still without a list, so a pile of lists is typed in one go."""
        missing = Table.objects.filter(round=self.table.round, sheet__isnull=True).order_by("number")
        following = missing.filter(number__gt=self.table.number).first() or missing.first()
        if following is None:
            return url(self.tournament, "round", self.table.round.number)
        return url(self.tournament, "sheet", self.table.round.number, following.number)

    def scored_rows(self, grid: list[GridRow]) -> tuple[list[dict], dict[int, int] | None]:
        return scored_rows(grid, size=self.size, tariff=self.settings.tariff)

    def conflict(self, stored: ScoreSheet, mine: list[dict]) -> dict:
        """Both versions side by side (the shared two-versions table): who saved the other one, and where."""
        theirs = stored.entries if stored.mode == self.mode else []
        intro = _("Saved meanwhile by %(who)s at %(at)s (version %(version)s). Below, where it differs from yours; "
                  "your version is still in the form. Save again to replace the saved version with yours, or open "
                  "the list anew to keep it.") % {
            "who": user_name(stored.entered_by), "version": stored.version,
            "at": date_format(timezone.localtime(stored.updated_at), "SHORT_DATETIME_FORMAT")}
        two = two_versions(theirs, mine, list_fields, title=_("Two versions"), intro=intro,
                           first_label=_("Saved version"), second_label=_("Your version"))
        return {"two": two, "totals": stored.derived.get("totals", {}), "other_mode": stored.mode != self.mode}

    def show(self, *, grid=None, totals=None, **extra):
        context = self.get_context_data(**extra)
        if grid is not None:
            rows, running = self.scored_rows(grid)
            totals = [running[s] if running else None for s in range(1, self.size + 1)]
            context.update(rows=rows, running=totals, running_sum=sum(running.values()) if running else None)
        if totals is not None:
            context["totals"] = list(zip(totals, self.seats, strict=True))
        if extra.get("error"):
            # a correction refused for its missing reason: the reason field, not the (correct) list
            focus = "reason" if extra.get("reason_error") else error_focus(grid, totals)
            context["entry_config"] = {**context["entry_config"], "focus": focus}
        context.setdefault("version", self.sheet.version if self.sheet else 0)
        if self.sheet and context.get("correction") is None:
            context["correction"] = CorrectionForm()
        return self.render_to_response(context)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tariff = self.settings.tariff
        context.update(
            still_missing=self.still_missing(self.table.round.number),
            table=self.table,
            round_number=self.table.round.number,
            seats=self.seats,
            size=self.size,
            games=self.games,
            sheet=self.sheet,
            pending=self.pending,
            pending_mine=self.pending_mine,
            blank=bool(self.request.GET.get("blank")),
            from_board=opened_from_board(self.request),
            mode=self.mode,
            other_mode=TOTALS_MODE if self.mode == GAMES_MODE else GAMES_MODE,
            can_edit=self.can_edit,
            laufende=tariff.laufende_from is not None,
            tariff=tariff,
            entry_config={
                "tariff": tariff_to_dict(tariff),
                "size": self.size,
                "games": self.games,
                "editable": self.can_edit,
                "types": {letter: {"key": key, "solo": GAME_TYPES[key].solo_class}
                          for letter, key in TYPE_KEYS.items()},
                "messages": live_messages(),
                # what is typed stays in this browser until it is saved (a reload loses nothing)
                **draft_config(self.request, self.tournament, self.table, base=state_of(self.sheet, self.pending),
                               variant=self.mode + (":blind" if self.working() is None and self.pending else "")),
                # the grid's, the totals-only form's, and a correction's reason
                "fields": r"^(?:(?:[tdprxli]|total|solo_played|solo_won|tout_played|tout_won)\d+|reason)$",
            },
            type_legend=[(letter, _(GAME_TYPES[key].name)) for letter, key in TYPE_KEYS.items()],
        )
        return context


def live_messages() -> dict[str, str]:
    """The rules' messages the grid shows as soon as a row is typed (static/schafkopf/entry.js), translated, their
    %(seat)s and %(game_number)s filled in there."""
    return {key: _(message) for key, message in LIVE_MESSAGES.items()}


def error_focus(grid: list[GridRow] | None, totals: list | None) -> str:
    """The input to put the focus on after a refused save: the first field in error, the first row the rules
    refuse, else (a list refused as incomplete) the first empty row."""
    if grid is not None:
        for row in grid:
            if row.errors:
                return f"{next(iter(row.errors))}{row.number}"
            if row.rule_error:
                return f"t{row.number}"
        blank = next((row for row in grid if row.blank), None)
        return f"t{blank.number}" if blank else ""
    for row in totals or []:
        if getattr(row, "errors", None):
            return f"{next(iter(row.errors))}{row.seat}"
    return ""


def _is_games(entries: list) -> bool:
    return bool(entries) and "game_type" in entries[0]


def revision_changes(previous: list, entries: list) -> dict:
    """What a version changed against the one before: the games that differ, or the totals entered."""
    if not _is_games(entries):
        return {"totals": [(row["seat"], row["total"]) for row in entries], "changes": []}
    if not _is_games(previous):
        return {"totals": [], "changes": []}
    return {"totals": [], "changes": game_differences(previous, entries)}


class HistoryView(EntryPage, TemplateView):
    """Every version of a list: who, when, entry or correction, why, and which games changed."""

    template_name = "schafkopf/history.html"
    nav = "lists"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = table_of(self.tournament, self.kwargs["round"], self.kwargs["table"])
        sheet = ScoreSheet.objects.filter(table=table).first() if table else None
        if sheet is None:
            raise Http404
        history = []
        previous: list = []
        for revision in sheet.revisions.select_related("by"):
            entries = revision.entries if isinstance(revision.entries, list) else []
            history.append({"revision": revision, **revision_changes(previous, entries)})
            previous = entries
        context.update(table=table, sheet=sheet, history=history, round_number=table.round.number)
        return context


class StillMissingView(EntryPage, View):
    """The "still missing" box of a round alone, for its periodic reload on the entry pages."""

    def get(self, request, *args, **kwargs):
        return still_missing_response(request, self, self.kwargs["round"])


class CloseProblemView(EntryPage, CloseTableProblem):
    """Close a problem a table signalled (`scoring.link_pages.CloseTableProblem`), back to the round's page."""

    def round_page(self, name: str, number) -> str:
        return url(self.tournament, name, number)


class BoardView(EntryPage, ProblemsBoardView):
    """The round's board (`scoring.board_views`) under this game's menu."""

    nav = "board"
    nav_template = "seated/_nav.html"
