"""The referee table's pages: a round's sheets, and one table's sheet to enter hand by hand.

A table game's sheet is a grid with one row per hand and a field per player; Enter adds the hand
(static/tablegames/entry.js moves through the row first), the page shows each hand's points and the
running totals, announces the end of the game and puts the rules' message on the row it is about.
A patience's sheet lists the whole field with one result each. `services.enter_sheet` decides what
is saved; the page only shows what the pure rules say.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.drafts import draft_config, state_of
from scoring.results.double_entry import decided_message
from scoring.results.views import DECIDED, FIRST_ENTRY
from scoring.results.words import started_by_label, user_name
from scoring.rules.tablegames import FIELD_BOOL, FIELD_INT_OR_CARDS, FIELD_PLAYER, FIELD_SIGNED_INT, table_points
from scoring.seated import queries
from scoring.seated.documents import player_name
from scoring.seated.entry import BoardPage, CloseProblemPage, RoundPage, SheetPage, StillMissingPage
from scoring.seated.queries import substitute_candidates
from scoring.seated.views.base import EntryPage, url
from scoring.withdrawals import is_withdrawn
from tournament.models import Table
from tournament.services.errors import DomainError
from tournament.views.confirm import confirmation_page, confirmed

from . import services
from .forms import GridRow, input_name, read_hand, read_result, result_name, result_texts, row_texts, same_hand
from .sheets import END, FINISH_TIME, LEFT, TILES_LEFT, follow, follow_patience, shown_fields
from .standings import half


class Entry(EntryPage):
    """The table-game menu's "sheets" pages, reading through this game's queries."""

    nav = "sheets"


def with_departures(typed: dict, stored) -> dict:
    """A hand a director corrected keeps who left the table after it (the grid has no field for that)."""
    if isinstance(stored, dict) and stored.get(LEFT):
        return {**typed, LEFT: stored[LEFT]}
    return typed


def sheet_status(sheet) -> str:
    if sheet is None:
        return "missing"
    return "finished" if sheet.derived.get("finished") else "running"


class RoundView(Entry, RoundPage):
    """A round's tables: whose game is finished, still running or not entered yet."""

    template_name = "tablegames/round.html"

    def round_page(self, request, *args, **kwargs):
        if self.settings.patience and queries.rounds_of(self.tournament):
            return redirect(url(self.tournament, "sheet", self.kwargs["round"], 1))  # the whole field is one sheet
        return super().round_page(request, *args, **kwargs)

    def table_row(self, table, sheet, pending) -> tuple:
        return table, sheet, sheet_status(sheet), pending

    def round_extra(self, rows: list) -> dict:
        return {"finished": sum(status == "finished" for _t, _s, status, _p in rows)}


class SheetView(Entry, SheetPage):
    """One table's sheet in one round: hands (table games) or the field's results (patiences)."""

    differs_intro = gettext_lazy("Nothing was saved. Check the marked fields against the paper sheet.")

    def get_template_names(self):
        return ["tablegames/results.html" if self.settings.patience else "tablegames/sheet.html"]

    def load(self) -> None:
        super().load()
        # who plays each seat: "Ida Holm, played by Lis Berg" where a substitute does
        self.names = {seat.number: str(player_name(seat)) for seat in self.seats}
        #: seats of withdrawn players nobody plays for: empty unless the sheet has the player's values
        self.withdrawn = {seat.number for seat in self.seats
                          if is_withdrawn(seat.participant) and not seat.substitute_id}
        # a first entry awaiting confirmation is what the sheet shows and what new hands are added to
        working = self.pending or self.sheet
        self.entries = list(working.entries) if working else []
        #: someone else's first entry: this user checks and confirms it rather than typing on
        self.confirm_only = self.pending is not None and not self.pending_mine and not self.director
        self.diff_keys: set[str] = set()
        self.grids: dict[int, GridRow] = {}

    def get(self, request, *args, **kwargs):
        self.load()
        return self.show(self.entries)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(rounds_count=self.settings.rounds,
                       round_numbers=range(1, self.settings.rounds + 1), confirm_only=self.confirm_only,
                       started_by=started_by_label(self.sheet) if self.sheet else "",
                       # the reason typed stays in its field when the page comes back with a message
                       reason=self.request.POST.get("reason", "") if self.request.method == "POST" else "")
        return context

    def post(self, request, *args, **kwargs):
        self.load()
        version = self.posted_version()
        action = request.POST.get("action", "save")
        reason = request.POST.get("reason", "")
        if action == "confirm":
            return self.confirm()
        if action == "end" and not confirmed(request):
            return confirmation_page(
                request, tournament=self.tournament,
                question=_("End the game of table %(table)s here?") % {"table": self.table.number},
                explanation=_("Time is up: no more hands are added, and the totals as they stand decide the "
                              "game. A hand being typed is not saved. A director can reopen the game."),
                confirm_label=_("Yes, end the game"), cancel_url=request.get_full_path(),
            )
        if action == "leave":
            return self.leave(request, version, reason)
        entries = self.entries
        try:
            if action == "end":
                saved = self.record(lambda **flow: services.end_game(
                    self.table, by=request.user, expected_version=version, **flow), entries, decision=False)
                message = _("The game was ended: the totals as they stand decide.")
            elif action == "reopen" and self.ended():
                saved = self.record(lambda **flow: services.enter_sheet(
                    self.table, by=request.user, entries=self.entries[:-1], expected_version=version, reason=reason,
                    **flow), entries, decision=False)
                message = _("The game is open again.")
            else:
                entries, self.grids = self.read_posted()
                if any(grid.errors for grid in self.grids.values()):
                    return self.show(entries, grids=self.grids, attempted=True,
                                     error=_("Some fields cannot be read: see the marked rows."))
                # someone else's first results saved unchanged (a director's page shows them in the fields) are
                # a second entry that is the same: they count (a hand sheet's empty last row is no entry)
                retyped = self.settings.patience and self.pending is not None and not self.pending_mine
                if entries == self.entries and not retyped:
                    return self.show(entries, grids=self.grids, error=self.nothing_typed())
                saved = self.record(lambda **flow: services.enter_sheet(
                    self.table, by=request.user, entries=entries, expected_version=version, reason=reason, **flow),
                    entries)
                message = self.saved_message(entries)
                if not self.answered(saved):
                    outcome = self.outcome(saved, had_first_entry=False)
                    if outcome == DECIDED:
                        message = decided_message(saved)
                    elif outcome == FIRST_ENTRY:
                        message = _("%(saved)s It counts once a second person confirms the sheet.") % {
                            "saved": message}
        except services.SheetRefused as refused:
            point_at(self.grids, refused, entries)
            return self.show(entries, grids=self.grids, error=refused.message, attempted=True)
        except DomainError as error:
            shown = entries if self.grids else self.entries
            return self.show(shown, grids=self.grids, attempted=bool(self.grids), error=error.message,
                             reason_error=error.field == "reason")
        if self.answered(saved):
            return saved
        messages.success(request, message)
        # No "#fragment": Chrome ignores autofocus on a page opened at a fragment, and the new hand needs the focus.
        return redirect(self.request.path)

    def leave(self, request, version: int, reason: str):
        """A player left the table after a hand (the director's form below the sheet): asked once, then
        `services.leave_table` (his seat stays empty), or `services.substitute_at_table` when a substitute takes
        the seat."""
        seat, hand = request.POST.get("leave_seat", ""), request.POST.get("leave_after", "").strip()
        if not (seat.isdigit() and int(seat) in self.names):
            return self.show(self.entries, error=_("Choose the player who left the table."))
        taker = request.POST.get("leave_to", "")
        if taker:
            return self.substitute_takes(request, int(seat), taker, reason)
        if not hand.isdigit():
            return self.show(self.entries, error=_("Say after which hand he left: the number of his last hand."))
        name = self.names[int(seat)]
        if not confirmed(request):
            return confirmation_page(
                request, tournament=self.tournament,
                question=_("%(player)s left table %(table)s after hand %(hand)s?")
                % {"player": name, "table": self.table.number, "hand": hand},
                explanation=_("He has no entry in the hands after it and finishes behind every opponent at this "
                              "table, with the score he had. He is withdrawn: in the rounds still to play his seat "
                              "is empty (a smaller table) unless a substitute takes it."),
                confirm_label=_("Yes, he left"), cancel_url=request.get_full_path(),
            )
        try:
            saved = self.record(lambda **flow: services.leave_table(
                self.table, int(seat), int(hand), by=request.user, reason=reason, expected_version=version, **flow),
                self.entries, decision=False)
        except DomainError as error:
            # a table left too small to play on: the seat's substitute page is the way on
            needed = getattr(error, "code", "") == "substitute_needed"
            return self.show(self.entries, error=error.message, reason_error=error.field == "reason",
                             **({"substitute_for": [self.seat(int(seat))]} if needed else {}))
        if self.answered(saved):
            return saved
        messages.success(request, _("%(player)s left after hand %(hand)s and is withdrawn.")
                         % {"player": name, "hand": hand})
        return redirect(self.request.path)

    def substitute_takes(self, request, number: int, taker: str, reason: str):
        """A substitute takes the seat of a player who left, from the next hand on (the leave form's choice):
        asked once, then `services.substitute_at_table`."""
        seat = self.seat(number)
        substitute = (substitute_candidates(self.tournament, seat).filter(pk=taker).first()
                      if taker.isdigit() and len(taker) < 18 else None)
        if substitute is None:
            return self.show(self.entries, error=_("Choose a substitute who does not play in this round."))
        credited = request.POST.get("leave_points") == "on"
        if not confirmed(request):
            return confirmation_page(
                request, tournament=self.tournament,
                question=_("%(substitute)s takes the seat of %(player)s at table %(table)s from the next hand?")
                % {"substitute": substitute.name, "player": seat.participant.name, "table": self.table.number},
                explanation=(_("The seat plays on, no departure is written on the sheet; the seat's result goes to "
                               "the substitute.") if credited else
                             _("The seat plays on, no departure is written on the sheet; the seat's result stays "
                               "with the seat's player.")) + " " +
                _("%(player)s is withdrawn: in the rounds still to play his seat is empty (a smaller table) unless "
                  "a substitute takes it.") % {"player": seat.participant.name},
                confirm_label=_("Yes, the substitute plays on"), cancel_url=request.get_full_path(),
            )
        try:
            services.substitute_at_table(self.table, number, substitute, by=request.user,
                                         points_to_substitute=credited, reason=reason)
        except DomainError as error:
            return self.show(self.entries, error=error.message)
        messages.success(request, _("%(substitute)s plays the seat of %(player)s from the next hand on.")
                         % {"substitute": substitute.name, "player": seat.participant.name})
        return redirect(self.request.path)

    def seat(self, number: int):
        return next(seat for seat in self.seats if seat.number == number)

    # --- the entry protocol's hooks (scoring.results.views.EntryFlow) ------------------------------------

    def entry_fields(self):
        return sheet_fields(self.settings, self.names)

    def confirm_first_entry(self, *, expected_version, report=None):
        services.confirm_sheet(self.table, by=self.request.user, expected_version=expected_version, report=report)

    def confirm_refused(self, error: DomainError):
        return self.show(self.entries, error=error.message, reason_error=error.field == "reason")

    def versions(self, first, second, **labels) -> dict:
        """Both versions field by field; the differing inputs get marked."""
        two = super().versions(first, second, **labels)
        self.diff_keys = two["keys"]
        return two

    def show_stale(self, stale, entries):
        who = user_name(stale.sheet.entered_by)
        two = self.stale_versions(stale.sheet.entries, entries, intro=stale.message,
                                  first_label=_("Saved version (%(who)s)") % {"who": who})
        return self.show(self.entries, error=stale.message, version=stale.sheet.version, two=two)

    def show_differs(self, differ, entries, compared):
        return self.show(entries, grids=self.grids, attempted=True, error=differ.message, **compared)

    def posted_version(self) -> int:
        """The version the page was loaded with; an unreadable one can only be a conflict (-1 matches no sheet)."""
        text = self.request.POST.get("version") or "0"
        return int(text) if text.isdigit() else -1

    def ended(self) -> bool:
        return bool(self.entries) and isinstance(self.entries[-1], dict) and bool(self.entries[-1].get(END))

    def nothing_typed(self) -> str:
        if self.settings.patience:
            return _("Nothing new to save: type a player's tiles left.")
        return _("Nothing new to save: type the hand in the last row.")

    def saved_message(self, entries) -> str:
        if self.settings.patience:
            return _("%(count)s of %(total)s results entered.") % {"count": len(entries), "total": len(self.seats)}
        hands = len([row for row in entries if not (isinstance(row, dict) and row.get(END))])
        return _("Hand %(number)s saved.") % {"number": hands}

    # --- reading what was typed ------------------------------------------------------------------------

    def read_posted(self) -> tuple[list, dict[int, GridRow]]:
        if self.settings.patience:
            return self.read_results()
        return self.read_hands()

    def read_hands(self) -> tuple[list, dict[int, GridRow]]:
        """The stored hands (a director's changes read from the grid) and the new hand in the last row.

        A hand a director emptied is removed; a hand posted back unchanged keeps its stored row exactly,
        so that adding the next hand is never mistaken for a correction.
        """
        spec, rules, seats = self.settings.spec, self.settings.rules, list(self.names)
        stored, end = (self.entries[:-1], self.entries[-1:]) if self.ended() else (self.entries, [])
        rows, grids = [], {}
        for number, row in enumerate(stored, start=1):
            if not self.director or not self.posted(number):
                rows.append(row)
                continue
            grid = grids[number] = read_hand(self.request.POST, spec, seats, number, rules)
            if grid.row is None and not grid.errors:
                continue
            rows.append(row if same_hand(spec, seats, row, grid.row, number) else with_departures(grid.row, row))
        new = grids[len(stored) + 1] = read_hand(self.request.POST, spec, seats, len(stored) + 1, rules)
        if new.row is not None and not end:
            rows.append(new.row)
        return rows + end, grids

    def posted(self, number: int) -> bool:
        """True when the form sent hand `number`'s inputs (a director's page does; a hand is only removed by
        emptying them, never by leaving them out)."""
        prefix = f"h{number}-"
        return any(name.startswith(prefix) for name in self.request.POST)

    def posted_result(self, seat: int) -> bool:
        return result_name(seat, TILES_LEFT) in self.request.POST

    def read_results(self) -> tuple[list, dict[int, GridRow]]:
        """The stored results in the order entered (a director's changes read from the list), then new ones."""
        with_time = self.settings.finish_time
        entries, grids, seen = [], {}, set()
        for row in self.entries:
            seat = row.get("seat") if isinstance(row, dict) else None
            seen.add(seat)
            if not self.director or seat not in self.names or not self.posted_result(seat):
                entries.append(row)
                continue
            grid = grids[seat] = read_result(self.request.POST, seat, with_time)
            if grid.row is None and not grid.errors:
                continue
            same = grid.row is not None and result_texts(grid.row) == result_texts(row)
            entries.append(row if same else grid.row)
        for seat in self.names:
            if seat in seen:
                continue
            grid = grids[seat] = read_result(self.request.POST, seat, with_time)
            if grid.row is not None:
                entries.append(grid.row)
        return entries, grids

    # --- showing ---------------------------------------------------------------------------------------

    def show(self, entries, *, grids=None, error=None, attempted=False, **extra):
        context = self.get_context_data(error=error, **extra)
        if self.settings.patience:
            context.update(self.results_context(entries, grids or {}, attempted))
        else:
            context.update(self.hands_context(entries, grids or {}, attempted))
            # a table too small after withdrawals: each empty seat's substitute page
            context.setdefault("substitute_for", self.too_small(self.followed))
        context.setdefault("version", self.sheet.version if self.sheet else 0)
        # what is typed stays in this browser until it is saved (a reload loses nothing)
        context["entry_config"] = {"form": "tg-sheet", "fields": r"^(?:[hr]\d+-|reason$)", "editable": True,
                                   **draft_config(self.request, self.tournament, self.table,
                                                  base=state_of(self.sheet, self.pending))}
        return self.render_to_response(context)

    def hands_context(self, entries, grids, attempted) -> dict:
        settings, spec = self.settings, self.settings.spec
        seats = list(self.names)
        followed = follow(settings, self.names, entries, withdrawn=self.withdrawn)
        self.followed = followed
        row_fields, player_fields = shown_fields(spec)
        rows = []
        for hand in followed.hands:
            grid = grids.get(hand.number)
            texts = grid.values if grid and attempted else row_texts(spec, seats, hand.row, hand.number)
            errors = list(grid.errors) if grid else []
            if hand.error and not errors:
                errors.append(hand.error)
            rows.append(self.hand_row(hand.number, texts, errors, hand, editable=self.director))
        stored_hands = len(self.entries) - self.ended()
        if attempted and len(rows) > stored_hands:
            new = rows.pop()  # the refused new hand stays in the input row, with its message
            new["editable"] = True
        elif not (followed.finished or followed.ended or self.confirm_only):
            number = len(followed.hands) + 1
            grid = grids.get(number)
            texts = grid.values if grid else row_texts(spec, seats, None, number)
            new = self.hand_row(number, texts, list(grid.errors) if grid else [], None, editable=True)
        else:
            new = None
        if new is not None:
            # the focus: the first field that cannot be read, else the row's first field
            refused = grids.get(new["number"])
            inputs = new["inputs"] + [i for seat in new["seats"] for i in seat["inputs"]]
            wrong = [i for i in inputs if refused and i["name"] in refused.invalid]
            for item in wrong:
                item["invalid"] = True
            (wrong or inputs)[0]["focus"] = True
        return {
            "row_fields": [self.field_head(f) for f in row_fields],
            "colspan": len(row_fields) + len(seats) * (len(player_fields) + 1),
            "player_fields": [self.field_head(f) for f in player_fields],
            "rows": rows,
            "new_row": new,
            "followed": followed,
            "totals": [settings.shown(followed.totals.get(seat, 0)) for seat in seats],
            "result": self.result_summary(followed) if followed.finished else None,
            "next_url": self.next_url() if followed.finished else None,
            "ended": followed.ended,
            "leave": self.leave_choices(followed),
        }

    def leave_choices(self, followed) -> dict | None:
        """The director's "a player leaves the table" form: the players still at the table, the last hand."""
        if not self.director or followed.finished or not followed.hands:
            return None
        at_table = [seat for seat in self.seats if seat.number not in followed.left
                    and seat.number not in self.empty(followed) and not seat.substitute_id]
        if not at_table:
            return None
        # who may take a seat of this round (the same for each seat without a substitute)
        candidates = list(substitute_candidates(self.tournament, at_table[0]).order_by("number"))
        return {"seats": at_table, "hand": len(followed.hands), "hands": len(followed.hands),
                "candidates": candidates}

    def too_small(self, followed) -> list:
        """The empty seats of a table whose withdrawals leave it too small to play: a substitute must take one."""
        if followed.error is None or followed.error.code != "substitute_needed_table" or not self.director:
            return []
        return [seat for seat in self.seats if seat.number in self.withdrawn and seat.number not in followed.totals]

    def empty(self, followed) -> set[int]:
        """Withdrawn players' seats with no value on the sheet: empty (a smaller table), from hand 1 on."""
        return set(self.withdrawn) - set(followed.totals)

    def field_head(self, entry_field) -> dict:
        name = _(entry_field.name)
        notation = getattr(entry_field, "notation", "")
        if notation:  # a number field that also takes a notation (Quad-Ominos' turns): the legend says it
            name = _("%(name)s (%(notation)s)") % {"name": name, "notation": _(notation)}
        return {"key": entry_field.key, "name": name, "abbr": _(entry_field.abbr), "kind": entry_field.kind}

    def hand_row(self, number: int, texts: dict, errors: list, hand, *, editable: bool) -> dict:
        row_fields, player_fields = shown_fields(self.settings.spec)
        label = _("Hand %(number)s") % {"number": number}
        inputs = [self.input(label, f, input_name(number, f.key), texts, self.diff_keys) for f in row_fields]
        seats = []
        followed = getattr(self, "followed", None)
        empty = self.empty(followed) if followed else set()
        left = followed.left if followed else {}
        for seat in self.seats:
            name = seat.participant.name
            # no field for a player after he left, nor on an empty seat: he has no entry there
            gone = seat.number in empty or (seat.number in left and number > left[seat.number])
            running = hand.running.get(seat.number) if hand and hand.running else None
            seats.append({
                "inputs": [] if gone else [
                    self.input(f"{label}, {name}", f, input_name(number, f.key, seat.number), texts, self.diff_keys)
                    for f in player_fields],
                "gone": gone, "width": len(player_fields),
                "points": hand.points.get(seat.number) if hand and hand.points else None,
                "running": self.settings.shown(running) if running is not None and not gone else None,
                "won": bool(hand and hand.winner == seat.number),
                "left_here": left.get(seat.number) == number,
            })
        return {"number": number, "inputs": inputs, "seats": seats, "errors": errors, "editable": editable}

    @staticmethod
    def input(label: str, entry_field, name: str, texts: dict, differs=frozenset()) -> dict:
        kind = entry_field.kind
        width = {FIELD_PLAYER: 2, FIELD_INT_OR_CARDS: 16, FIELD_SIGNED_INT: 5}.get(kind, 4)
        if getattr(entry_field, "notation", ""):
            width = 7  # room for a short notation such as "18 b 12 d"
        return {
            "name": name, "value": texts.get(name, ""), "kind": kind, "width": width, "differs": name in differs,
            "label": f"{label}: {_(entry_field.name)}", "checkbox": kind == FIELD_BOOL,
            "numeric": kind not in (FIELD_INT_OR_CARDS, FIELD_BOOL, FIELD_SIGNED_INT),
        }

    def result_summary(self, followed) -> dict:
        """The game's outcome: the finishing order with each place's tournament points."""
        state = followed.state
        points = table_points(followed.totals, lower_is_better=self.settings.lower_is_better, left=followed.left)
        places, place = [], 1
        for group in state.finishing_order:
            for seat in group:
                places.append({"place": place, "name": self.names[seat], "seat": seat, "left": followed.left.get(seat),
                               "total": self.settings.shown(followed.totals[seat]), "points": half(points[seat])})
            place += len(group)
        winner = state.finishing_order[0]
        return {"hands": len(followed.hands), "places": places,
                "winner": self.names[winner[0]] if len(winner) == 1 else None}

    def open_tables(self):
        """The round's tables whose game is not finished yet."""
        return Table.objects.filter(round=self.table.round).exclude(sheet__derived__finished=True)

    def results_context(self, entries, grids, attempted) -> dict:
        followed = follow_patience(self.settings, self.names, entries, withdrawn=self.withdrawn)
        by_seat = {r.seat if r.seat is not None else (r.row or {}).get("seat"): r for r in followed.results}
        stored = {row.get("seat") for row in self.entries if isinstance(row, dict)}
        places = {seat: place for place, seat in _places(followed.order)}
        rows = []
        for seat in self.seats:
            number = seat.number
            grid = grids.get(number)
            result = by_seat.get(number)
            texts = grid.values if grid and (grid.errors or attempted) else result_texts(result.row if result else None)
            errors = list(grid.errors) if grid else []
            if result and result.error and not errors:
                errors.append(result.error)
            rows.append({
                "seat": seat, "tiles": texts[TILES_LEFT], "time": texts[FINISH_TIME], "errors": errors,
                "tiles_name": result_name(number, TILES_LEFT), "time_name": result_name(number, FINISH_TIME),
                "editable": self.director or (number not in stored and not self.confirm_only),
                "place": places.get(number),
                "differs": {key for key in (result_name(number, TILES_LEFT), result_name(number, FINISH_TIME))
                            if key in self.diff_keys},
            })
        editable = [row for row in rows if row["editable"]]
        finished = followed.finished and not attempted
        # every result in: what to do next is the next deal, after the last one the standings (they take the focus)
        number = self.table.round.number
        if not finished:
            next_step = None
        elif number < self.settings.rounds:
            next_step = {"url": url(self.tournament, "sheet", number + 1, 1), "deal": number + 1}
        else:
            next_step = {"url": url(self.tournament, "standings")}
        if next_step:
            editable = []
        # the first result in error, else the first differing from a first entry, else the first still empty,
        # else the first that can be typed
        focus = next((row for row in editable if row["errors"]),
                     next((row for row in editable if row["differs"]),
                          next((row for row in editable if not row["tiles"] and not row["time"]),
                               editable[0] if editable else None)))
        if focus is not None:
            # within the row, the finish time when the rules refused it (point_at marked it) or when only it differs
            grid = grids.get(focus["seat"].number)
            time_wrong = grid is not None and focus["time_name"] in grid.invalid
            time_wrong = time_wrong or (focus["time_name"] in focus["differs"]
                                        and focus["tiles_name"] not in focus["differs"])
            focus["time_focus" if time_wrong else "focus"] = True
        # what is saved (a list refused and shown again with what was typed counts none of it)
        saved = (follow_patience(self.settings, self.names, self.entries, withdrawn=self.withdrawn) if attempted
                 else followed)
        return {"rows": rows, "entered": len(saved.entered), "finished": finished, "next_step": next_step,
                # someone else's first entry and no field to type in: Confirm is what to do next
                "confirm_focus": focus is None}


def point_at(grids: dict[int, GridRow], refused: services.SheetRefused, entries) -> None:
    """Mark the field a refused hand is about (a player's empty or wrong field, the hand's own field; a patience
    result's finish time) as the one to correct: it gets the focus back instead of the row's first field."""
    if refused.row is None or not refused.field:
        return
    if refused.field == FINISH_TIME:  # a patience's rows are its results; its grids go by seat
        row = entries[refused.row - 1] if 0 < refused.row <= len(entries) else None
        grid = grids.get(row.get("seat")) if isinstance(row, dict) else None
        if grid is not None:
            grid.invalid.append(result_name(grid.number, FINISH_TIME))
        return
    grid = grids.get(refused.row)
    if grid is None:
        return
    name = input_name(grid.number, refused.field, refused.seat)
    if name in grid.values and name not in grid.invalid:
        grid.invalid.insert(0, name)


def _places(order) -> list[tuple[int, int]]:
    places, place = [], 1
    for group in order:
        places += [(place, seat) for seat in group]
        place += len(group)
    return places


def sheet_fields(settings, names: dict[int, str]):
    """How a sheet's rows read as labelled fields (`scoring.results.compare`): hand by hand, or per player.

    The keys are the grid's input names, so the page can mark exactly the inputs that differ.
    """
    spec = settings.spec
    seats = list(names)
    row_fields, player_fields = shown_fields(spec)

    def hands(entries):
        rows = []
        for number, row in enumerate(entries, start=1):
            if isinstance(row, dict) and row.get(END):
                rows.append((_("End"), [(END, _("Time is up: the game was ended here"), _("yes"))]))
                continue
            texts = row_texts(spec, seats, row if isinstance(row, dict) else None, number)
            fields = [(input_name(number, f.key), _(f.name), texts[input_name(number, f.key)]) for f in row_fields]
            fields += [(input_name(number, f.key, seat), f"{names[seat]}: {_(f.name)}",
                        texts[input_name(number, f.key, seat)]) for seat in seats for f in player_fields]
            rows.append((_("Hand %(number)s") % {"number": number}, fields))
        return rows

    def results(entries):
        by_seat = {row.get("seat"): row for row in entries if isinstance(row, dict)}
        rows = []
        for seat in seats:
            texts = result_texts(by_seat.get(seat))
            fields = [(result_name(seat, TILES_LEFT), _("Tiles left"), texts[TILES_LEFT])]
            if settings.finish_time:
                fields.append((result_name(seat, FINISH_TIME), _("Finish time"), texts[FINISH_TIME]))
            rows.append((f"{seat} · {names[seat]}", fields))
        return rows

    return results if settings.patience else hands


class StillMissingView(Entry, StillMissingPage):
    """The "still missing" box of a round alone, for its periodic reload on the entry pages."""


class BoardView(Entry, BoardPage):
    """The round's board under this game's menu."""

    nav = "board"


class CloseProblemView(Entry, CloseProblemPage):
    """Close a problem a table signalled, back to the round's page."""
