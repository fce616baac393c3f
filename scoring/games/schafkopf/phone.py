"""The table's own page, opened from its private link (/t/<token>/): no account, one phone at the table.

The players by seat, then the same grid as at the referee table (same fields, same rules, same messages),
game by game with the running totals — or, where the director allows it (`Settings.phone_totals`), each
player's total and counts only, as the referee table's "totals only" (docs/rules/schafkopf.md: the totals
must add up to zero, the counts must fit the games played). What is typed is kept in the phone
(static/schafkopf/phone.js) until it is sent; sending makes a first entry awaiting confirmation
(`services.enter_from_link`). Once the list counts, the page shows it read-only.
"""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.phone import after_sending, is_problem, phone_context, problem_response, storage_key
from scoring.phone import editable as phone_editable
from scoring.results.counting import sent_from
from scoring.rules.schafkopf import tariff_to_dict
from scoring.seated.queries import seats_at, sheet_at
from tournament.services.errors import DomainError

from . import services
from .config import GAMES_MODE, TOTALS_MODE, settings_of
from .entry import live_messages, scored_rows
from .forms import read_games, read_totals, stored_grid, stored_totals, type_config, type_legend
from .grid_html import with_row_html


def table_page(request, link, *, token: str):
    """GET shows the entry (or the counted list); POST sends the list."""
    table = link.table
    settings = settings_of(link.tournament)
    seats = seats_at(table)
    size = len(seats)
    games = settings.games_at(size)
    sheet = sheet_at(table)
    if is_problem(request):
        return problem_response(request, link)
    if request.method == "POST" and sheet is None:
        # a send reads only what it needs; the page's context is made when the page is shown again (a refusal)
        sending = _Sending(request, link, token, settings, seats, games, sheet)
        if request.POST.get("mode", GAMES_MODE) == TOTALS_MODE and not settings.phone_totals:
            return _show(request, {**sending.context(), "error": _("This tournament takes the list game by game "
                                                                  "from the tables' phones.")},
                         stored_grid([], games), settings, editable=True, status=400)
        if _mode(request, settings, lambda: sent_from(link)) == TOTALS_MODE:
            return _send_totals(request, link, sending, settings)
        return _send(request, link, sending, settings)
    context, pending = _page_context(request, link, token, settings, seats, games, sheet)
    if sheet is not None and sheet.mode == GAMES_MODE:
        return _show(request, context, stored_grid(sheet.entries), settings, editable=False)
    if sheet is not None:
        context["counted_totals"] = [(seat, sheet.derived["totals"].get(str(seat.number))) for seat in seats]
        return _show(request, context, None, settings, editable=False)
    sent = pending is not None
    context["sent"] = pending if sent else None
    if context["mode"] == TOTALS_MODE:
        stored = pending.entries if sent and pending.mode == TOTALS_MODE else []
        return _show(request, context, None, settings, editable=True, totals=stored_totals(stored, size))
    stored = pending.entries if sent and pending.mode == GAMES_MODE else []
    return _show(request, context, stored_grid(stored, games), settings, editable=True)


def _page_context(request, link, token, settings, seats, games, sheet) -> tuple[dict, object]:
    """The page's context, and what this link sent that waits (a seat's link: its own report)."""
    table = link.table
    title = _("Round %(round)s · Table %(table)s") % {"round": table.round.number, "table": table.number}
    context = {**phone_context(link, token=token, place_title=title),
               "link": link, "table": table, "round_number": table.round.number, "seats": seats,
               "size": len(seats), "games": games, "sheet": sheet,
               "laufende": settings.tariff.laufende_from is not None,
               "type_legend": type_legend()}
    pending = sent_from(link)
    context["mode"] = _mode(request, settings, lambda: pending)
    context["totals_allowed"] = settings.phone_totals
    return context, pending


class _Sending:
    """What a send needs (the table's size and games), and the page's context when it is refused."""

    def __init__(self, request, link, token, settings, seats, games, sheet):
        self.size, self.games = len(seats), games
        self._made = lambda: _page_context(request, link, token, settings, seats, games, sheet)[0]

    def context(self) -> dict:
        return self._made()


def _mode(request, settings, sent) -> str:
    """Game by game, or totals only where the director allows it: as asked (?mode= or the form), else as sent
    (`sent()`: what the link sent that waits, asked only then)."""
    if not settings.phone_totals:
        return GAMES_MODE
    asked = request.POST.get("mode") or request.GET.get("mode")
    if asked in (GAMES_MODE, TOTALS_MODE):
        return asked
    pending = sent()
    return pending.mode if pending is not None and pending.mode == TOTALS_MODE else GAMES_MODE


def _send(request, link, sending: _Sending, settings):
    size, games = sending.size, sending.games
    grid = read_games(request.POST, rows=games, table_size=size)
    rows, _running = scored_rows(grid, size=size, tariff=settings.tariff)
    if any(row.errors or row.rule_error for row in grid):
        return _show(request, {**sending.context(), "error": _("Some games cannot be right: see the marked rows.")},
                     grid, settings, editable=True, status=400)
    entries = [row.entry for row in grid if row.entry]
    try:
        services.enter_from_link(link, mode=GAMES_MODE, entries=entries, size=size)
    except services.ListRefused as error:
        if error.game_number:
            grid[error.game_number - 1].rule_error = error.message
        return _show(request, {**sending.context(), "error": error.message}, grid, settings, editable=True,
                     status=400)
    except DomainError as error:
        return _show(request, {**sending.context(), "error": error.message}, grid, settings, editable=True,
                     status=400)
    return after_sending(request)  # the page's note says it was sent, or that it counts


def _send_totals(request, link, sending: _Sending, settings):
    """Totals only: each seat's total and counts, checked by the same rules as at the referee table."""
    rows, entries = read_totals(request.POST, table_size=sending.size)
    if entries is None:
        return _show(request, {**sending.context(), "error": _("Some fields cannot be read: see the marked "
                                                              "fields.")}, None,
                     settings, editable=True, status=400, totals=rows)
    try:
        services.enter_from_link(link, mode=TOTALS_MODE, entries=entries, size=sending.size)
    except DomainError as error:
        return _show(request, {**sending.context(), "error": error.message}, None, settings, editable=True,
                     status=400, totals=rows)
    return after_sending(request, to=f"{request.path}?mode={TOTALS_MODE}")


def _show(request, context, grid, settings, *, editable: bool, status: int = 200, totals=None):
    editable = phone_editable(context, editable)  # a closed link (finished or archived) shows, records nothing
    if totals is not None:
        context["totals"] = list(zip(totals, context["seats"], strict=True))
    if grid is not None:
        rows, running = scored_rows(grid, size=context["size"], tariff=settings.tariff)
        with_row_html(rows, can_edit=editable, laufende=settings.tariff.laufende_from is not None)
        context.update(rows=rows, running=[running[s] if running else None for s in range(1, context["size"] + 1)],
                       running_sum=sum(running.values()) if running else None)
    context.update(
        can_edit=editable,
        entry_config={
            "tariff": tariff_to_dict(settings.tariff), "size": context["size"], "games": context["games"],
            "editable": editable,
            "types": type_config(),
            "messages": live_messages(),
            # what the phone keeps until sent is filed under the link's hint, never the token
            "storage": storage_key(context["link"]),
            "form": "sk-list", "liveTotals": True,
            "tap": tap_texts(),
            # the grid's fields, and the totals-only form's (where the director allows it)
            "fields": r"^(?:[tdprxli]|total|solo_played|solo_won|tout_played|tout_won)\d+$",
        },
    )
    return render(request, "schafkopf/phone.html", context, status=status)


def tap_texts() -> dict[str, str]:
    """The words of the phone's tap entry (static/schafkopf/tap.js), translated; its %(…)s filled in there."""
    return {
        "title": _("Game %(number)s of %(games)s"),
        "deals": _("%(name)s deals."),
        "deals_out": _("%(name)s deals and sits out this game."),
        # not Voms' "Next game" (a team's next match: "Nächster Durchgang"); here the next game of the list
        "next": pgettext("Schafkopf tap entry", "Next game"),
        "keep": _("Keep game %(number)s"),
        "all_in": _("All %(games)s games are entered: check the totals, then send the list."),
        "all_sent": _("All %(games)s games are entered and sent. To correct one, tap Edit, then send the list "
                      "again."),
        "need_type": _("Choose the game type."),
        "need_declarer": _("Choose the declarer."),
        "need_partner": _("Choose the partner."),
        "need_result": _("Choose won or lost."),
        "need_initials": _("A tout needs the supervision's initials: enter them, or take back the tout."),
        "with": _("%(declarer)s with %(partner)s"),
        "won": _("won"), "lost": _("lost"), "schneider": _("Schneider"), "schwarz": _("Schwarz"), "tout": _("tout"),
        "laufende": _("%(count)s Laufende"),
        # a word that fits the 5rem beside a game on a 390 px phone ("Bearbeiten" did not)
        "edit": pgettext("Schafkopf tap entry", "Edit"), "delete": _("Delete"),
        "edit_label": _("Edit game %(number)s"), "delete_label": _("Delete game %(number)s"),
        "delete_ask": _("Delete game %(number)s? The games after it move up by one."),
        "deleted": _("Game %(number)s deleted; the games after it moved up."),
        "kept": _("Game %(number)s entered."),
        "none": _("No game entered yet."),
        "after": _("after game %(number)s"),
    }
