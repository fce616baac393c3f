"""Schafkopf score lists: entered, confirmed, sent from a table's link.

Each service checks who may do it, runs in one transaction, writes the audit log and raises a
`DomainError` with a translated message. Score lists go through `scoring.results.recording.record_sheet`
(the one path for sheets) with a `derive` built here on the pure rules in `scoring.rules.schafkopf`.
Settings, the seating, substitutes and what follows a counted list are the seated layer's
(`scoring.seated.services`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields

from django.utils.translation import gettext as _

from scoring.models import ScoreSheet
from scoring.results.checks import rule_message
from scoring.results.counting import confirm_pending, record_table_entry
from scoring.results.recording import record_sheet
from scoring.rules.base import RuleError, gettext_noop
from scoring.rules.schafkopf import (
    COUNT_FIELDS,
    Counts,
    GameEntry,
    score_list,
    validate_totals,
)
from scoring.seated.services import recorded
from tournament.models import Table
from tournament.permissions import can_enter_results
from tournament.services.errors import DomainError

from .config import GAMES_MODE, TOTALS_MODE, Settings, settings_of

GAME_ENTRY_FIELDS = tuple(f.name for f in fields(GameEntry))


class ListRefused(DomainError):
    """A score list the rules refuse; `game_number` points at the row when one game is wrong."""

    def __init__(self, message, *, field=None, game_number=None):
        super().__init__(message, field=field)
        self.game_number = game_number


# --- score lists -----------------------------------------------------------------------------------


def _wrong_game_count(count: int, games: int) -> RuleError:
    return RuleError(
        "game_count_wrong",
        gettext_noop("The list has %(count)s games, but this table plays %(games)s in a round. Enter every game "
                     "of the list."),
        field="entries", count=count, games=games,
    )


def entry_from_json(row: dict) -> GameEntry:
    """A stored game row back as a `GameEntry` (the JSON holds exactly its fields)."""
    return GameEntry(**{name: row[name] for name in GAME_ENTRY_FIELDS if name in row})


def entry_to_json(entry: GameEntry) -> dict:
    return asdict(entry)


def _derived(totals: dict[int, int], counts: dict[int, Counts], games: int) -> dict:
    return {
        "games": games,
        "totals": {str(seat): total for seat, total in totals.items()},
        "counts": {str(seat): asdict(c) for seat, c in counts.items()},
    }


def totals_from_json(entries: list[dict]) -> tuple[dict[int, int], dict[int, Counts]]:
    totals = {int(row["seat"]): row["total"] for row in entries}
    counts = {int(row["seat"]): Counts(**{name: row.get(name, 0) for name in COUNT_FIELDS}) for row in entries}
    return totals, counts


def make_derive(settings: Settings, table_size: int):
    """The `derive(entries, mode)` that `record_sheet` calls for a list of this table."""
    games = settings.games_at(table_size)

    def derive(entries, mode: str) -> dict:
        if mode == GAMES_MODE:
            if len(entries) != games:
                raise _wrong_game_count(len(entries), games)
            result = score_list([entry_from_json(row) for row in entries], table_size=table_size,
                                tariff=settings.tariff)
            return _derived(result.totals, result.counts, games)
        if mode == TOTALS_MODE:
            totals, counts = totals_from_json(entries)
            if sorted(totals) != list(range(1, table_size + 1)):
                raise RuleError("totals_seats", gettext_noop("Enter a total for every seat of the table."),
                                field="totals")
            validate_totals(totals, counts, games=games, tariff=settings.tariff)
            return _derived(totals, counts, games)
        raise ValueError(f"unknown list mode {mode!r}")

    return derive


def enter_sheet(table: Table, *, by, mode: str, entries: list[dict], expected_version: int | None = None,
                reason: str = "", decide: str = "", pending_version: int | None = None, sent=None):
    """Enter or correct the score list of `table`; the round counts as started from then on.

    `expected_version` is the version the form was loaded with (0 for a new list), so a list saved
    meanwhile by someone else is reported as a conflict instead of being overwritten. Under double
    entry a first entry comes back as a `PendingSheet` (`.counted` is False) and sets nothing off.
    """
    round_ = table.round
    tournament = round_.stage.tournament
    if not can_enter_results(by, tournament):
        raise DomainError(_("You are not allowed to enter results in this tournament."))
    derive = checked_derive(tournament, table, entries, mode)
    return recorded(tournament, table, lambda: record_sheet(
        tournament=tournament, entries=entries, derive=derive, by=by, table=table, mode=mode,
        expected_version=expected_version, reason=reason, decide=decide, pending_version=pending_version, sent=sent))


def confirm_sheet(table: Table, *, by, expected_version: int | None = None, report: int | None = None,
                  size: int | None = None) -> ScoreSheet:
    """Double entry: a second person confirms the first entry of a list as it stands (or, `report`, a seat's
    report that differs from it). `size`: the table's players, when the caller has them already."""
    tournament = table.round.stage.tournament
    derive = make_derive(settings_of(tournament), table.seats.count() if size is None else size)
    return recorded(tournament, table, lambda: confirm_pending(
        tournament=tournament, table=table, derive=derive, by=by, expected_version=expected_version,
        report=report))


def checked_derive(tournament, table: Table, entries: list[dict], mode: str, *, size: int | None = None):
    """The list's derive function, after checking `entries` with it: a list the rules refuse is `ListRefused`
    (the same refusal at the referee table and from a table's link). `size`: the table's players, when the
    caller has them already."""
    derive = make_derive(settings_of(tournament), table.seats.count() if size is None else size)
    try:
        checked = derive(entries, mode)
    except RuleError as error:
        raise ListRefused(rule_message(error), field=error.field,
                          game_number=error.params.get("game_number")) from error
    as_checked = [mode, json.dumps(entries, sort_keys=True, default=str)]

    def derive_checked(again, again_mode: str) -> dict:
        # `record_sheet` derives the list it is given: the list just checked (the same, unchanged) is not scored
        # a second time; its derivation is handed over once
        if as_checked and again_mode == as_checked[0] \
                and json.dumps(again, sort_keys=True, default=str) == as_checked[1]:
            as_checked.clear()
            return checked
        return derive(again, again_mode)

    return derive_checked


def enter_from_link(link, *, mode: str, entries: list[dict], size: int | None = None):
    """What a table sends from its private link: a first entry awaiting confirmation, or (when the tournament
    lets table entries count at once) the counted list. The same rules refuse the same lists as at the
    referee table; sending the same again changes nothing (`scoring.results.counting`). `size`: the table's
    players, when the caller has them already."""
    table = link.table
    tournament = link.tournament
    derive = checked_derive(tournament, table, entries, mode, size=size)
    return recorded(tournament, table, lambda: record_table_entry(link, entries=entries, mode=mode, derive=derive))
