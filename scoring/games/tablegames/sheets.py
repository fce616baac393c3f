"""A table's score sheet: the rows as typed, and what the pure rules say they are worth.

Stored `entries` (what the table wrote, never a computed number):

- table games: one row per hand, a dict keyed by the spec's entry fields. A per-player field maps the
  seat number (text: JSON keys) to the value as typed — a whole number, or for rummi the penalty as
  written, "58" or "K Q 7 JOKER A". A row-level player field ("out", "winner") holds a seat number or
  None. A last row {"end": true} ends a game whose time ran out before the target was reached.
  A player who left the table after a hand is named in that hand's row, {"left": [3]} (seat numbers):
  the hands after it have no entry for him (table-games.md, Decision: a player leaves after play started).
- patiences: one row per result, {"seat": 3, "tiles_left": 5, "finish_time": "41:10"}, in the order
  the results were handed in (so typing the missing results later only appends).

`follow` / `follow_patience` score every row for display (points, running totals, the message of a
row the rules refuse) and `derived` turns a sheet the rules accept into `ScoreSheet.derived`: per-seat
totals, finished flag, finishing order and the table's tournament points. `make_derive` is the
`derive(entries, mode)` that `scoring.results.recording.record_sheet` calls: the one recompute path.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.results.checks import rule_message
from scoring.rules.base import RuleError
from scoring.rules.domino import PatienceEntry, play_patience, score_patience
from scoring.rules.tablegames import EntryField, GameSpec, GameState, check_plays_on, table_points

from .config import TableSettings

END = "end"
LEFT = "left"
HANDS_MODE = "hands"
RESULTS_MODE = "results"
TILES_LEFT, FINISH_TIME = "tiles_left", "finish_time"


def shown_fields(spec: GameSpec) -> tuple[list[EntryField], list[EntryField]]:
    """(row-level fields, per-player fields) a sheet row shows: optional per-player details are left out."""
    row_fields = [f for f in spec.entry_fields if not f.per_player]
    player_fields = [f for f in spec.entry_fields if f.per_player and f.required]
    return row_fields, player_fields


def mode_of(settings: TableSettings) -> str:
    return RESULTS_MODE if settings.patience else HANDS_MODE


# --- errors with the names of the players and the row they belong to ------------------------------------


def named(error: RuleError, names: Mapping[int, str], row: int | None = None) -> RuleError:
    """The error with seat numbers replaced by the players' names, and the row it belongs to."""
    player = error.params.get("player")
    if player in names:
        error.params = {**error.params, "player": names[player]}
    error.row = row
    return error


def unreadable(row: int) -> RuleError:
    return RuleError("row_unreadable", gettext_noop("Row %(row)s cannot be read: enter it again."), row=row)


# --- table games ---------------------------------------------------------------------------------------


def hand_entry(spec: GameSpec, row: Any, names: Mapping[int, str], number: int):
    """A stored hand row as the spec's entry object; missing values are refused with a clear message."""
    if not isinstance(row, Mapping):
        raise unreadable(number)
    kwargs = {}
    for entry_field in spec.entry_fields:
        value = row.get(entry_field.key)
        if entry_field.per_player:
            if not value and not entry_field.required:
                continue
            kwargs[entry_field.key] = _per_player(entry_field, value, names, number)
        else:
            if value in (None, "") and entry_field.required:
                raise RuleError("value_missing", gettext_noop("Enter “%(what)s”."), field=entry_field.key,
                                what=_(entry_field.name))
            kwargs[entry_field.key] = None if value == "" else value
    return spec.entry_class(**kwargs)


def _per_player(entry_field: EntryField, value: Any, names: Mapping[int, str], number: int) -> dict[int, Any]:
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise unreadable(number)
    try:
        values = {int(seat): v for seat, v in value.items() if v not in (None, "")}
    except (TypeError, ValueError):
        raise unreadable(number) from None
    if set(values) - set(names):
        raise unreadable(number)
    missing = [seat for seat in names if seat not in values]
    if missing:
        error = RuleError(
            "value_missing_for",
            gettext_noop("“%(what)s” is missing for %(players)s: enter a value for every player (0 when none)."),
            field=entry_field.key, what=_(entry_field.name), players=", ".join(names[seat] for seat in missing),
        )
        error.seat = missing[0]  # the first empty field gets the focus back
        raise error
    return values


def split_end(entries: Any) -> tuple[list, bool]:
    """The hand rows, and whether the game was ended by a last {"end": true} row."""
    if not isinstance(entries, list):
        raise unreadable(1)
    ends = [index for index, row in enumerate(entries) if isinstance(row, Mapping) and row.get(END)]
    if not ends:
        return list(entries), False
    if ends != [len(entries) - 1]:
        raise RuleError("end_not_last", gettext_noop(
            "The game was ended after hand %(hand)s, so no hand can follow. Remove the later hands."),
            hand=ends[0])
    return list(entries[:-1]), True


@dataclass
class FollowedHand:
    number: int
    row: dict
    points: dict[int, int] | None = None
    #: totals after this hand; None once a hand up to here cannot be scored (a sum that skips one misleads)
    running: dict[int, int] | None = None
    winner: int | None = None
    error: str = ""


@dataclass
class Followed:
    """A sheet followed hand by hand: what the entry page and the printouts show."""

    hands: list[FollowedHand]
    ended: bool = False
    state: GameState | None = None
    #: the first thing the rules refuse, with `.row` set to the hand it belongs to (None: the whole sheet)
    error: RuleError | None = None
    totals: dict[int, int] = field(default_factory=dict)
    #: seat -> the last hand of a player who left the table
    left: dict[int, int] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.error is None and (self.ended or bool(self.state and self.state.finished))

    def present_in(self, hand: int, seats) -> list[int]:
        """The seats of `seats` whose player is at the table in hand `hand` (not left before it)."""
        return [seat for seat in seats if seat not in self.left or self.left[seat] >= hand]

    @property
    def extra_hand(self) -> bool:
        return self.error is None and not self.ended and bool(self.state and self.state.extra_hand_needed)


def seated(names: Mapping[int, str], withdrawn: Collection[int], rows: Any, values_of) -> dict[int, str]:
    """The seats at the table: `names` without the seats in `withdrawn` (a withdrawn player nobody plays for)
    that hold no value in `rows` (`values_of(row)`: the seats a row names). Such a seat is empty: a smaller table
    (table-games.md, Decision); a withdrawn player with values on the sheet played before he left."""
    if not withdrawn:
        return dict(names)
    rows = rows if isinstance(rows, list) else []
    named_seats = {seat for row in rows if isinstance(row, Mapping) for seat in values_of(row)}
    return {seat: name for seat, name in names.items() if seat not in withdrawn or seat in named_seats}


def hand_seats(spec: GameSpec):
    """`values_of` for `seated`: the seats a hand row has a per-player value for."""

    def values_of(row: Mapping) -> set[int]:
        seats = set()
        for entry_field in spec.entry_fields:
            values = row.get(entry_field.key)
            if entry_field.per_player and isinstance(values, Mapping):
                seats |= {int(seat) for seat, value in values.items()
                          if str(seat).isdigit() and value not in (None, "")}
        return seats

    return values_of


def result_seat(row: Mapping) -> set[int]:
    """`values_of` for `seated` on a patience's result rows."""
    return {row["seat"]} if isinstance(row.get("seat"), int) else set()


def follow(settings: TableSettings, names: Mapping[int, str], entries: Any, *, withdrawn: Collection[int] = ()
           ) -> Followed:
    """Score every hand of a table's sheet; stops the running totals at the first hand the rules refuse.

    `withdrawn`: seats of withdrawn players nobody plays for, at the table only when the sheet has their values."""
    spec, rules = settings.spec, settings.rules
    names = seated(names, withdrawn, entries, hand_seats(spec))
    try:
        rows, ended = split_end(entries)
    except RuleError as error:
        return Followed([], error=named(error, names))
    if len(names) < spec.min_players:
        return Followed([], ended=ended, error=substitute_needed(spec, names))
    followed = Followed([], ended=ended, totals=dict.fromkeys(names, 0))
    objects = []
    for number, row in enumerate(rows, start=1):
        hand = FollowedHand(number, row if isinstance(row, dict) else {})
        followed.hands.append(hand)
        at_table = {seat: names[seat] for seat in followed.present_in(number, names)}
        try:
            _none_for_who_left(spec, row, followed.left)
            entry = _missing_withdrawn(hand_entry, withdrawn, number)(spec, row, at_table, number)
            result = spec.score_hand(entry, rules)
            _departures(followed, spec, row, at_table, names, number)
        except RuleError as error:
            named(error, names, number)
            hand.error = rule_message(error)
            followed.error = followed.error or error
            continue
        objects.append(entry)
        hand.points, hand.winner = dict(result.points), result.winner
        if followed.error is None:
            followed.totals = {seat: followed.totals[seat] + result.points.get(seat, 0) for seat in names}
            hand.running = dict(followed.totals)
    if followed.error is None:
        _play(followed, spec, rules, names, objects)
    return followed


def _missing_withdrawn(read, withdrawn: Collection[int], number: int):
    """`read` (`hand_entry`), saying what to do when the value missing is a withdrawn player's: he left."""

    def reading(*args):
        try:
            return read(*args)
        except RuleError as error:
            seat = getattr(error, "seat", None)
            if error.code != "value_missing_for" or seat not in withdrawn:
                raise
            missing = RuleError("withdrawn_missing", gettext_noop(
                "%(player)s is withdrawn and has no value in hand %(hand)s: if he left the table, say after which "
                "hand (“A player leaves the table”, below the sheet)."), field=error.field, player=seat, hand=number)
            missing.seat = seat
            raise missing from error

    return reading


def substitute_needed(spec: GameSpec, names: Mapping[int, str]) -> RuleError:
    """A table whose empty seats leave fewer players than the game needs."""
    return RuleError("substitute_needed_table", gettext_noop(
        "Only %(count)s players are left at this table after withdrawals, but the game needs at least %(min)s: a "
        "substitute must take an empty seat before this table can play the round."), count=len(names),
        min=spec.min_players)


def _none_for_who_left(spec: GameSpec, row: Any, left: Mapping[int, int]) -> None:
    """Refuse a value typed for a player after he left the table, saying so."""
    if not left or not isinstance(row, Mapping):
        return
    for entry_field in spec.entry_fields:
        values = row.get(entry_field.key)
        if not entry_field.per_player or not isinstance(values, Mapping):
            continue
        for seat, hand in left.items():
            if values.get(str(seat)) not in (None, ""):
                error = RuleError("entry_after_leaving", gettext_noop(
                    "%(player)s left the table after hand %(hand)s: leave his fields empty from then on."),
                    field=entry_field.key, player=seat, hand=hand)
                error.seat = seat
                raise error


def _departures(followed: Followed, spec: GameSpec, row: Mapping, at_table, names, number: int) -> None:
    """Note who left the table after hand `number` (its row's "left"); a table left with fewer players than the
    game needs is refused: a substitute takes the seat instead (`services.substitute_at_table`), or the game ends."""
    seats = row.get(LEFT) or []
    if not isinstance(seats, list) or not all(isinstance(seat, int) and seat in names for seat in seats):
        raise unreadable(number)
    for seat in seats:
        if seat not in at_table:
            raise RuleError("left_twice", gettext_noop(
                "%(player)s left the table before hand %(hand)s already."), field=LEFT, player=seat, hand=number)
        followed.left[seat] = number
    if seats:
        check_plays_on([names[seat] for seat in names], {names[seat]: hand for seat, hand in followed.left.items()},
                       spec.min_players)


def _play(followed: Followed, spec: GameSpec, rules, names, objects) -> None:
    """The whole game by the rules: end of game, winner, finishing order; hands after the end refused."""
    if not objects:
        if followed.ended:
            followed.error = RuleError("end_without_hands", gettext_noop(
                "No hand was entered: a game can only be ended after its first hand."))
        return
    try:
        followed.state = spec.play(objects, rules, left=followed.left) if followed.left else spec.play(objects, rules)
    except RuleError as error:
        # The game was over before the last hands: point at the first hand too many.
        row = error.params.get("hand", 0) + 1 if error.code == "game_over" else None
        followed.error = named(error, names, row)
        for hand in followed.hands[(row or 1) - 1:] if row else ():
            hand.error, hand.running = rule_message(error), None
        return
    if followed.ended and followed.state.finished:
        followed.error = RuleError("end_after_finish", gettext_noop(
            "The game was over after its last hand already; it needs no end. Remove the end."))


def derived(settings: TableSettings, followed: Followed) -> dict:
    """What a table's accepted sheet is worth (`ScoreSheet.derived`)."""
    totals = followed.totals
    finished = followed.finished
    order = followed.state.finishing_order if followed.state else ()
    winner = order[0][0] if finished and order and len(order[0]) == 1 else None
    points = table_points(totals, lower_is_better=settings.lower_is_better, left=followed.left) if finished else {}
    departures = {LEFT: {str(seat): hand for seat, hand in followed.left.items()}} if followed.left else {}
    return {
        "hands": len(followed.hands),
        "totals": {str(seat): total for seat, total in totals.items()},
        "finished": finished,
        "ended_early": followed.ended,
        "extra_hand": followed.extra_hand,
        "winner": winner,
        "order": [list(group) for group in order] if finished else [],
        "table_points": {str(seat): str(value) for seat, value in points.items()},
        **departures,
    }


# --- patiences -----------------------------------------------------------------------------------------

_TIME = re.compile(r"^(?:(\d+):)?(\d{1,3})(?::(\d{2}))?$")


def parse_time(text: Any, row: int) -> int:
    """A finish time as typed, in seconds: "41:10" (minutes:seconds), "1:05:30" or "41" (minutes)."""
    if text in (None, ""):
        raise RuleError("finish_time_missing", gettext_noop(
            "Enter the finish time too: minutes and seconds (41:10), hours, minutes and seconds (1:05:30) or "
            "whole minutes (41)."), field=FINISH_TIME, row=row)
    match = _TIME.match(str(text).strip().replace(".", ":"))
    # every number after the first is seconds or minutes of an hour: "99:99" is no time
    if not match or (match[1] is not None and int(match[2]) > 59) or (match[3] is not None and int(match[3]) > 59):
        raise RuleError("finish_time_invalid", gettext_noop(
            "“%(value)s” is not a time: write minutes and seconds (41:10), hours, minutes and seconds "
            "(1:05:30) or whole minutes (41)."), field=FINISH_TIME, value=text, row=row)
    hours, middle, seconds = match.groups()
    if seconds is None:  # "41" is minutes, "1:05" is minutes and seconds
        return int(middle) * 60 if hours is None else int(hours) * 60 + int(middle)
    return (int(hours or 0) * 60 + int(middle)) * 60 + int(seconds)


@dataclass
class FollowedResult:
    number: int
    row: dict
    seat: int | None = None
    tiles: int | None = None
    seconds: int | None = None
    error: str = ""


@dataclass
class FollowedPatience:
    results: list[FollowedResult]
    seats: Sequence[int]
    error: RuleError | None = None
    order: tuple = ()

    @property
    def entered(self) -> dict[int, FollowedResult]:
        return {r.seat: r for r in self.results if r.seat is not None and not r.error}

    @property
    def finished(self) -> bool:
        return self.error is None and set(self.entered) == set(self.seats)


def follow_patience(settings: TableSettings, names: Mapping[int, str], entries: Any, *,
                    withdrawn: Collection[int] = ()) -> FollowedPatience:
    """Check every result row; with every player's result in, the finishing order of the patience.

    A withdrawn player nobody plays for (`withdrawn`) is in the field only when his result is entered."""
    names = seated(names, withdrawn, entries if isinstance(entries, list) else [entries], result_seat)
    followed = FollowedPatience([], list(names))
    rows = entries if isinstance(entries, list) else [entries]
    seen: set[int] = set()
    for number, row in enumerate(rows, start=1):
        result = FollowedResult(number, row if isinstance(row, dict) else {})
        followed.results.append(result)
        try:
            _check_result(settings, names, row, number, seen, result)
        except RuleError as error:
            named(error, names, number)
            result.error = rule_message(error)
            followed.error = followed.error or error
    if followed.finished:
        entered = followed.entered
        times = {seat: r.seconds for seat, r in entered.items()} if settings.finish_time else None
        state = play_patience([PatienceEntry({seat: r.tiles for seat, r in entered.items()}, times)], settings.rules)
        followed.order = state.finishing_order
    return followed


def _check_result(settings, names, row, number: int, seen: set[int], result: FollowedResult) -> None:
    if not isinstance(row, Mapping):
        raise unreadable(number)
    seat = row.get("seat")
    if seat not in names:
        raise RuleError("result_unknown_player", gettext_noop(
            "Row %(row)s names nobody of this round: choose a player of the field."), row=number)
    if seat in seen:
        raise RuleError("result_twice", gettext_noop(
            "%(player)s has a result already: correct that row instead of adding another."), player=seat)
    seen.add(seat)
    tiles = row.get(TILES_LEFT)
    score_patience(PatienceEntry({seat: tiles}), settings.rules)
    result.seat, result.tiles = seat, tiles
    if settings.finish_time:
        result.seconds = parse_time(row.get(FINISH_TIME), number)


def derived_patience(followed: FollowedPatience) -> dict:
    entered = followed.entered
    return {
        "results": len(followed.results),
        "totals": {str(seat): r.tiles for seat, r in sorted(entered.items())},
        "times": {str(seat): r.seconds for seat, r in sorted(entered.items()) if r.seconds is not None},
        "finished": followed.finished,
        "order": [list(group) for group in followed.order],
    }


# --- the one recompute path ----------------------------------------------------------------------------


def make_derive(settings: TableSettings, names: Mapping[int, str], withdrawn: Collection[int] = ()):
    """The `derive(entries, mode)` that `record_sheet` calls for a sheet with these seats (seat -> name);
    `withdrawn` as in `follow`."""

    def derive(entries, mode: str) -> dict:
        if mode != mode_of(settings):
            raise ValueError(f"unknown sheet mode {mode!r}")
        if settings.patience:
            followed = follow_patience(settings, names, entries, withdrawn=withdrawn)
            if followed.error:
                raise followed.error
            return derived_patience(followed)
        followed = follow(settings, names, entries, withdrawn=withdrawn)
        if followed.error:
            raise followed.error
        return derived(settings, followed)

    return derive


def table_points_of(sheet_derived: Mapping) -> dict[str, Decimal]:
    return {seat: Decimal(value) for seat, value in sheet_derived.get("table_points", {}).items()}
