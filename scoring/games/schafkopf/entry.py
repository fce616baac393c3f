"""The referee table's pages: a round's lists, one score list to enter or correct, a list's history.

The grid is typed without the mouse (see static/schafkopf/entry.js); the page computes each row's
points with the pure rules for display, and `services.enter_sheet` decides authoritatively.
"""

from __future__ import annotations

from itertools import zip_longest

from django.contrib import messages
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.drafts import draft_config, state_of
from scoring.results.checks import rule_message
from scoring.results.double_entry import decided_message
from scoring.results.views import CONFIRMED, DECIDED, FIRST_ENTRY
from scoring.results.words import user_name
from scoring.rules.base import RuleError
from scoring.rules.schafkopf import LIVE_MESSAGES, dealer_of, score_game, sitting_out, tariff_to_dict
from scoring.seated.entry import BoardPage, CloseProblemPage, HistoryPage, RoundPage, SheetPage, StillMissingPage
from scoring.seated.views.base import EntryPage
from tournament.services.errors import DomainError

from . import services
from .config import GAMES_MODE, MODES, TOTALS_MODE, settings_of
from .forms import (
    CorrectionForm,
    GridRow,
    TotalsRow,
    grid_values,
    read_games,
    read_totals,
    stored_grid,
    stored_totals,
    totals_values,
    type_config,
    type_legend,
)
from .grid_html import with_row_html


class Entry(EntryPage):
    """The Schafkopf menu's "lists" pages, reading through this game's queries."""

    nav = "lists"


class RoundView(Entry, RoundPage):
    """A round's tables: whose list is entered, corrected or still missing."""

    template_name = "schafkopf/round.html"


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
    """A list as labelled fields (`scoring.results.compare`); the keys are the grid's input names."""
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


class SheetView(Entry, SheetPage):
    """One table's score list: game by game (the grid) or totals only; correction by a director."""

    template_name = "schafkopf/sheet.html"
    differs_intro = gettext_lazy("Nothing was saved. Check the marked fields against the paper list.")

    def load(self) -> None:
        super().load()
        self.size = len(self.seats)
        self.settings = settings_of(self.tournament)
        self.games = self.settings.games_at(self.size)
        self.can_edit = self.sheet is None or self.director
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
            grid = stored_grid(stored or [], self.games)
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
        return stored_totals(stored or [], self.size)

    def post(self, request, *args, **kwargs):
        self.load()
        if request.POST.get("action") == "confirm":
            return self.confirm()
        version = whole_number(request.POST.get("version"))
        correction = CorrectionForm(request.POST) if self.sheet else None
        if self.mode == GAMES_MODE:
            grid = read_games(request.POST, rows=self.games, table_size=self.size)
            self.shown = {"grid": grid, "correction": correction, "version": version}
            self.scored_rows(grid)  # marks the rows the rules refuse
            if any(row.errors or row.rule_error for row in grid):
                return self.show(**self.shown, error=_("Some games cannot be right: see the marked rows."))
            entries = [row.entry for row in grid if row.entry]
        else:
            totals, entries = read_totals(request.POST, table_size=self.size)
            self.shown = {"totals": totals, "correction": correction, "version": version}
            if entries is None:
                return self.show(**self.shown, error=_("Some fields cannot be read: see the marked fields."))
        try:
            sheet = self.record(lambda **flow: services.enter_sheet(
                self.table, by=request.user, mode=self.mode, entries=entries, expected_version=version,
                reason=request.POST.get("reason", ""), **flow), entries)
        except services.ListRefused as error:
            if error.game_number and self.mode == GAMES_MODE:
                grid[error.game_number - 1].rule_error = error.message
            return self.show(**self.shown, error=error.message)
        except DomainError as error:
            return self.show(**self.shown, error=error.message, reason_error=error.field == "reason")
        if self.answered(sheet):
            return sheet
        outcome = self.outcome(sheet, had_first_entry=self.pending is not None and self.sheet is None)
        words = self.place_words()
        if outcome == FIRST_ENTRY:
            message = _("Round %(round)s, table %(table)s: first entry saved. It counts once a second person "
                        "enters the list again or confirms it.") % words
        elif outcome == DECIDED:
            message = _("Round %(round)s, table %(table)s: %(decided)s") % {**words, "decided": decided_message(sheet)}
        elif outcome == CONFIRMED:
            message = self.confirmed_message()
        else:
            what = _("corrected") if sheet.corrected and self.sheet else _("saved")
            message = _("Round %(round)s, table %(table)s: list %(what)s.") % {**words, "what": what}
        messages.success(request, message)
        return redirect(self.next_url())

    # --- the entry protocol's hooks (scoring.results.views.EntryFlow) ------------------------------------

    def entry_fields(self):
        return list_fields

    def confirm_first_entry(self, *, expected_version, report=None):
        services.confirm_sheet(self.table, by=self.request.user, expected_version=expected_version, report=report,
                               size=self.size)

    def confirmed_message(self) -> str:
        return _("Round %(round)s, table %(table)s: the list is confirmed and counts now.") % self.place_words()

    def confirmed_url(self) -> str:
        return self.next_url()

    def show_stale(self, stale, entries):
        """Both versions side by side: who saved the other one, and where; the form keeps this user's."""
        stored = stale.sheet
        theirs = stored.entries if stored.mode == self.mode else []
        intro = _("Saved meanwhile by %(who)s at %(at)s (version %(version)s). Below, where it differs from yours; "
                  "your version is still in the form. Save again to replace the saved version with yours, or open "
                  "the list anew to keep it.") % {
            "who": user_name(stored.entered_by), "version": stored.version,
            "at": date_format(timezone.localtime(stored.updated_at), "SHORT_DATETIME_FORMAT")}
        two = self.stale_versions(theirs, entries, intro=intro, first_label=_("Saved version"))
        conflict = {"two": two, "totals": stored.derived.get("totals", {}), "other_mode": stored.mode != self.mode}
        return self.show(**{**self.shown, "version": stored.version}, conflict=conflict, error=stale.message)

    def show_differs(self, differ, entries, compared):
        """Both entries field by field, and the differing inputs of the form marked."""
        rows = self.shown.get("grid") if self.mode == GAMES_MODE else self.shown.get("totals")
        for row in rows or []:
            number = row.number if isinstance(row, GridRow) else row.seat
            for key in row.values:
                if f"{key}{number}" in compared["two"]["keys"]:
                    row.errors[key] = _("Differs from the first entry.")
        return self.show(**self.shown, **compared, error=differ.message)

    def scored_rows(self, grid: list[GridRow]) -> tuple[list[dict], dict[int, int] | None]:
        return scored_rows(grid, size=self.size, tariff=self.settings.tariff)

    def show(self, *, grid=None, totals=None, **extra):
        context = self.get_context_data(**extra)
        if grid is not None:
            rows, running = self.scored_rows(grid)
            with_row_html(rows, can_edit=self.can_edit, laufende=self.settings.tariff.laufende_from is not None,
                          autofocus=True)
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
            size=self.size,
            games=self.games,
            blank=bool(self.request.GET.get("blank")),
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
                "types": type_config(),
                "messages": live_messages(),
                # what is typed stays in this browser until it is saved (a reload loses nothing)
                **draft_config(self.request, self.tournament, self.table, base=state_of(self.sheet, self.pending),
                               variant=self.mode + (":blind" if self.working() is None and self.pending else "")),
                # the grid's, the totals-only form's, and a correction's reason
                "fields": r"^(?:(?:[tdprxli]|total|solo_played|solo_won|tout_played|tout_won)\d+|reason)$",
            },
            type_legend=type_legend(),
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


class HistoryView(Entry, HistoryPage):
    """Every version of a list: who, when, entry or correction, why, and which games changed."""

    template_name = "schafkopf/history.html"

    def changes(self, previous: list, entries: list) -> dict:
        return revision_changes(previous, entries)


class StillMissingView(Entry, StillMissingPage):
    """The "still missing" box of a round alone, for its periodic reload on the entry pages."""


class CloseProblemView(Entry, CloseProblemPage):
    """Close a problem a table signalled, back to the round's page."""


class BoardView(Entry, BoardPage):
    """The round's board under this game's menu."""

    nav = "board"
