"""A table game's table page, opened from its private link (/t/<token>/): the table's hands on one phone.

The players by seat, then the referee table's grid (the same fields, rules and messages; the hands' points and
running totals once sent), a row per hand. What is typed is kept in the phone (static/scoring/phone.js) until it
is sent; sending makes a first entry awaiting confirmation at the referee table (`services.enter_from_link`).
Hands that count already stay read-only above; once the game is over and counts, the whole sheet is read-only.
A patience has no tables: its results are entered at the referee table.

`?preview` (a GET with the grid's fields, sent by static/tablegames/phone.js while the number pad is tapped) answers
with the points and running totals of the hands typed so far, as the page shows them once sent, and the rules'
message of a hand they refuse: nothing is stored, and the server checks everything again on the send.
"""

from __future__ import annotations

import re

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from scoring.phone import after_sending, is_problem, phone_context, problem_response, storage_key
from scoring.phone import editable as phone_editable
from scoring.results.counting import sent_from
from scoring.seated.documents import player_name
from scoring.seated.queries import seats_at, sheet_at
from scoring.withdrawals import is_withdrawn
from tournament.services.errors import DomainError

from . import services
from .config import settings_of
from .documents import sheet_rows
from .entry import SheetView
from .forms import input_name, read_hand, row_texts
from .sheets import follow, shown_fields


def table_page(request, link, *, token: str):
    """GET shows the hands (or the counted sheet); POST sends them."""
    from scoring.tablelink_views import refusal

    settings = settings_of(link.tournament)
    if settings.patience:
        return refusal(request, _("Tables cannot send their results from a phone in this game yet: bring the "
                                  "paper sheet to the referee table."), token=token, status=404)
    table = link.table
    seats = seats_at(table)
    sheet = sheet_at(table)
    finished = sheet is not None and bool(sheet.derived.get("finished"))
    counted = list(sheet.entries) if sheet is not None and not finished else []
    title = _("Round %(round)s · Table %(table)s") % {"round": table.round.number, "table": table.number}
    context = {**phone_context(link, token=token, place_title=title), "link": link, "table": table,
               "seats": seats, "settings": settings, "sheet": sheet if finished else None,
               "spec_name": _(settings.spec.name)}
    if is_problem(request):
        return problem_response(request, link)
    if finished:
        return _show(request, context, list(sheet.entries), counted=len(sheet.entries), editable=False)
    if request.method == "POST":
        return _send(request, link, context, counted)
    if "preview" in request.GET:
        return _preview(request.GET, context, counted)
    sent = sent_from(link)  # what this link sent that waits (a seat's or a team's link: its own report)
    entries = sent.entries if sent and sent.entries[: len(counted)] == counted else counted
    context["sent"] = sent
    return _show(request, context, list(entries), counted=len(counted), editable=True)


def _send(request, link, context: dict, counted: list):
    settings, seats = context["settings"], [seat.number for seat in context["seats"]]
    grids, typed = {}, []
    for number in range(len(counted) + 1, _rows(settings, len(counted)) + 1):
        grid = grids[number] = read_hand(request.POST, settings.spec, seats, number, settings.rules)
        if grid.row is not None:
            typed.append(grid.row)
    entries = counted + typed
    error, bad_row = None, None
    if any(grid.errors for grid in grids.values()):
        error = _("Some fields cannot be read: see the marked rows.")
    elif not typed:
        error = _("Nothing to send: type the hands first.")
    else:
        try:
            result = services.enter_from_link(link, entries=entries)
        except services.SheetRefused as refused:
            error, bad_row = refused.message, refused.row
        except DomainError as refused:
            error = refused.message
        else:
            # a game over and counted, or a sheet awaiting confirmation: the page's note says so
            unfinished = result.counted and not result.derived.get("finished")
            return after_sending(request, unnoted=_("Your score sheet has been recorded and counts.") if unfinished
                                 else "")
    return _show(request, {**context, "error": error}, entries, counted=len(counted), editable=True, grids=grids,
                 bad_row=bad_row, status=400)


#: a grid's hand number in a field's name ("h3-pips-2"): how far a preview reads
_HAND = re.compile(r"^h(\d{1,4})-")


def _preview(data, context: dict, counted: list) -> JsonResponse:
    """The hands typed so far, scored as the page scores them: hand by hand (by the grid's numbers, as typed) the
    points, the running totals and the rules' message; the totals by seat; whether the game is over."""
    settings, seats = context["settings"], [seat.number for seat in context["seats"]]
    last = max((int(m.group(1)) for m in map(_HAND.match, data) if m), default=0)
    numbers, entries, unread = list(range(1, len(counted) + 1)), list(counted), {}
    for number in range(len(counted) + 1, min(last, _rows(settings, last)) + 1):
        grid = read_hand(data, settings.spec, seats, number, settings.rules)
        if grid.errors:
            unread[number] = " ".join(grid.errors)
        elif grid.row is not None:
            numbers.append(number)
            entries.append(grid.row)
    followed, _names, _empty = _follow(context, entries)
    hands = [{"hand": numbers[hand.number - 1], "error": hand.error or "",
              "points": {str(seat): points for seat, points in (hand.points or {}).items()},
              "running": {str(seat): str(settings.shown(total)) for seat, total in (hand.running or {}).items()},
              "won": hand.winner} for hand in followed.hands]
    hands += [{"hand": number, "error": error, "points": {}, "running": {}, "won": None}
              for number, error in unread.items()]
    return JsonResponse({"hands": hands, "over": followed.finished,
                         "totals": {str(seat): str(settings.shown(followed.totals.get(seat, 0))) for seat in seats}})


def _follow(context: dict, entries: list):
    """The sheet's hands scored (`sheets.follow`), the players' names by seat, and the empty seats: a withdrawn
    player nobody plays for, with no value on the sheet (he left mid-game when it has his values)."""
    settings, seats = context["settings"], context["seats"]
    names = {seat.number: str(player_name(seat)) for seat in seats}
    withdrawn = {seat.number for seat in seats if is_withdrawn(seat.participant) and not seat.substitute_id}
    followed = follow(settings, names, [row for row in entries if isinstance(row, dict)], withdrawn=withdrawn)
    return followed, names, withdrawn - set(followed.totals)


def _rows(settings, filled: int) -> int:
    """How many hands the phone shows: the printed sheet's rows, and always a few empty ones to type on; never more
    than a fixed number of hands (the game is over after them)."""
    rows = max(sheet_rows(settings), filled + 3)
    return min(rows, max(settings.fixed_hands, filled)) if settings.fixed_hands else rows


def _pad(spec, names: dict) -> dict:
    """What the number pad (static/tablegames/phone.js) needs to know of the grid's fields: per field key its kind
    (a number, a signed number, a seat, a tick), its name and whether it may stay empty; the players by seat."""
    row_fields, player_fields = shown_fields(spec)
    return {"seats": [[seat, name] for seat, name in names.items()], "hand": _("Hand %(number)s"),
            "over": _("The game is over on this sheet: send it."),
            "fields": {f.key: {"kind": f.kind, "name": _(f.name), "optional": not f.required, "seat": f.per_player}
                       for f in row_fields + player_fields}}


def _show(request, context: dict, entries: list, *, counted: int, editable: bool, grids=None, bad_row=None,
          status: int = 200):
    editable = phone_editable(context, editable)  # a closed link (finished or archived) shows, records nothing
    settings, seats = context["settings"], context["seats"]
    spec = settings.spec
    row_fields, player_fields = shown_fields(spec)
    # no field for an empty seat, nor for a player after he left the table: he has no entry there
    followed, names, empty = _follow(context, entries)
    numbers = list(names)
    hands = {hand.number: hand for hand in followed.hands}
    grids = grids or {}
    # no empty rows after a game that is over, nor on a sheet that can no longer change
    total = _rows(settings, len(entries)) if editable and not followed.finished else len(entries)

    def gone(seat: int, hand: int) -> bool:
        return seat in empty or followed.left.get(seat, hand) < hand

    rows = []
    for number in range(1, total + 1):
        hand = hands.get(number)
        grid = grids.get(number)
        stored = entries[number - 1] if number <= len(entries) and isinstance(entries[number - 1], dict) else None
        texts = grid.values if grid else row_texts(spec, numbers, stored, number)
        label = _("Hand %(number)s") % {"number": number}
        errors = list(grid.errors) if grid else []
        if hand is not None and hand.error and not errors:
            errors.append(hand.error)
        if bad_row == number and not errors:
            errors.append(context.get("error"))
        rows.append({
            "number": number, "errors": errors, "editable": editable and number > counted,
            "inputs": [SheetView.input(label, f, input_name(number, f.key), texts) for f in row_fields],
            "seats": [{"inputs": [] if gone(seat.number, number) else [
                           SheetView.input(f"{label}, {names[seat.number]}", f, input_name(number, f.key, seat.number),
                                           texts) for f in player_fields],
                       "gone": gone(seat.number, number), "width": len(player_fields),
                       "points": hand.points.get(seat.number) if hand and hand.points else None,
                       "running": (settings.shown(hand.running[seat.number])
                                   if hand and hand.running and seat.number in hand.running else None),
                       "won": bool(hand and hand.winner == seat.number)} for seat in seats],
        })
    context.update(
        rows=rows, can_edit=editable,
        row_fields=[{"name": _(f.name), "abbr": _(f.abbr)} for f in row_fields],
        player_fields=[{"name": _(f.name), "abbr": _(f.abbr)} for f in player_fields],
        colspan=len(row_fields) + len(seats) * (len(player_fields) + 1),
        totals=[(seat, settings.shown(followed.totals.get(seat.number, 0))) for seat in seats],
        over=followed.finished,
        entry_config={"editable": editable, "storage": storage_key(context["link"]), "form": "ph-hands",
                      "fields": r"^h\d+-", "pad": _pad(spec, names) if editable else None},
    )
    return render(request, "tablegames/phone.html", context, status=status)
