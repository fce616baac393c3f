"""Schafkopf state changes: settings, the seating draw, starting rounds, substitutes, score lists.

Each service checks who may do it, runs in one transaction, writes the audit log and raises a
`DomainError` with a translated message. Score lists go through `scoring.results.recording.record_sheet`
(the one path for sheets) with a `derive` built here on the pure rules in `scoring.rules.schafkopf`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields, replace

from django.db import transaction
from django.utils import timezone
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
from tournament.backup import schedule_backup_after_round
from tournament.draw.seating import draw_seating as draw_seating_plan
from tournament.models import Draw, Participant, Round, Seat, Table, Tournament
from tournament.permissions import can_enter_results, is_director
from tournament.services import seating
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.seating import SEED_LIMIT as SEED_LIMIT
from tournament.services.seating import current_draw as current_draw
from tournament.services.seating import lot_seed as lot_seed
from tournament.services.seating import new_seed, rounds_stage
from tournament.services.text import limited_reason

from .config import GAMES_MODE, TABLE_SIZES, TOTALS_MODE, Settings, settings_of

#: settings that shape play: fixed once round 1 has started
PLAY_SETTINGS = ("rounds", "games_per_round", "games_at_five", "tariff")
GAME_ENTRY_FIELDS = tuple(f.name for f in fields(GameEntry))


class ListRefused(DomainError):
    """A score list the rules refuse; `game_number` points at the row when one game is wrong."""

    def __init__(self, message, *, field=None, game_number=None):
        super().__init__(message, field=field)
        self.game_number = game_number


def _require_director(by, tournament) -> None:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can do this."))


# --- reading the structure (rounds_stage, current_draw, lot_seed: tournament.services.seating) --------


def play_started(tournament) -> bool:
    """True once any round was started or any list was entered: the seating is final from then on."""
    return seating.play_started(tournament, any_round=True)


# --- settings --------------------------------------------------------------------------------------


def update_settings(tournament: Tournament, new: Settings, *, by, reason: str = "") -> tuple[Tournament, bool]:
    """Store new settings; return the tournament and whether the seating had to be removed.

    The rounds, the games and the tariff are fixed once play has started (entered lists would
    no longer match them). A seating drawn for another number of rounds is removed before play,
    so that a stale draw is never printed.
    """
    _require_director(by, tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        old = settings_of(locked)
        changed = [name for name in PLAY_SETTINGS if getattr(old, name) != getattr(new, name)]
        if changed and play_started(locked):
            raise DomainError(
                _("Play has started: the rounds, the games per round and the tariff can no longer be changed.")
            )
        seating_removed = old.rounds != new.rounds and _remove_seating(locked)
        locked.settings = new.to_json()
        locked.entry_fee = new.entry_fee
        locked.save(update_fields=["settings", "entry_fee", "updated"])
        log_action("schafkopf.settings", by=by, tournament=locked, obj=locked,
                   before={**old.to_json(), "entry_fee": old.entry_fee},
                   after={**locked.settings, "entry_fee": new.entry_fee}, reason=reason)
    # the caller's copy reads the new settings too
    tournament.settings, tournament.entry_fee = locked.settings, locked.entry_fee
    return locked, seating_removed


def _remove_seating(tournament) -> bool:
    stage = rounds_stage(tournament)
    if stage is None or not stage.rounds.exists():
        return False
    stage.rounds.all().delete()
    return True


def set_fixed_table(participant: Participant, table: int | None, *, by) -> None:
    """Fix a player to a table in every round (accessibility); None lifts it. Applies at the next draw."""
    tournament = participant.tournament
    _require_director(by, tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        current = settings_of(locked)
        fixed = dict(current.fixed_tables)
        before = fixed.get(participant.number)
        if table is None:
            fixed.pop(participant.number, None)
        else:
            fixed[participant.number] = table
        locked.settings = replace(current, fixed_tables=fixed).to_json()
        locked.save(update_fields=["settings", "updated"])
        log_action("schafkopf.fixed_table", by=by, tournament=locked, obj=participant,
                   before={"table": before}, after={"table": table})
    tournament.settings = locked.settings


# --- the seating draw ------------------------------------------------------------------------------


def draw_seating(tournament: Tournament, *, by, seed: int | None = None, avoid=None) -> Draw:
    """Draw tables and seats of every round for the active players, replacing any earlier draw.

    Refused once play has started (substitutes from then on). A seed given by the director
    reproduces an earlier draw of the same players with the same settings. `avoid`: pairs of participant
    numbers who met earlier in the season, as for `tournament.services.seating.draw_seating`.
    """
    _require_director(by, tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if play_started(locked):
            raise DomainError(
                _("Round 1 has started: the seating can no longer be drawn again. Put a substitute on the seat "
                  "of a player who dropped out.")
            )
        settings = settings_of(locked)
        players = list(locked.participants.filter(status=Participant.Status.ACTIVE))
        seed = seed if seed is not None else new_seed()
        avoid = seating.season_avoid(locked, avoid)
        plan = _plan(players, settings, seed, avoid)
        params = {
            "rounds": settings.rounds,
            "players": len(players),
            "table_sizes": plan.table_sizes,
            "repeated_pairs": plan.repeated_pairs(),
            "seat_repeats": plan.seat_repeats(),
            "group_conflicts": plan.group_conflicts(_groups(players, settings)),
            "large_table_twice": seating.large_table_twice_params(plan),
            "separate_clubs": settings.separate_clubs,
            "fixed_tables": {str(k): v for k, v in settings.fixed_tables.items()},
            **seating.met_before_params(plan, avoid, [p.number for p in players]),
        }
        return seating.store_draw(locked, plan.rounds, players, by=by, seed=seed, params=params,
                                  action="schafkopf.seating")


def _groups(players, settings: Settings) -> dict[int, str]:
    """Who should sit apart: a named group (a family) first, otherwise the club when that is wished."""
    groups = {}
    for p in players:
        if p.group:
            groups[p.number] = f"group:{p.group.casefold()}"
        elif settings.separate_clubs and p.club:
            groups[p.number] = f"club:{p.club.casefold()}"
    return groups


def _plan(players, settings: Settings, seed: int, avoid=None):
    numbers = {p.number for p in players}
    fixed = {number: table for number, table in settings.fixed_tables.items() if number in numbers}
    try:
        return draw_seating_plan(sorted(numbers), settings.rounds, seed=seed, sizes=TABLE_SIZES,
                                 groups=_groups(players, settings), fixed=fixed, avoid=dict(avoid or {}))
    except RuleError as error:
        raise DomainError(rule_message(error), field=error.field) from error


def start_round(round_: Round, *, by) -> Round:
    """Mark a round as started (round 1 fixes the seating)."""
    tournament = round_.stage.tournament
    _require_director(by, tournament)
    with transaction.atomic():
        updated = Round.objects.filter(pk=round_.pk, starts_at__isnull=True).update(starts_at=timezone.now())
        if updated:
            log_action("schafkopf.round.start", by=by, tournament=tournament, obj=round_,
                       after={"round": round_.number})
    round_.refresh_from_db()
    return round_


# --- substitutes -----------------------------------------------------------------------------------


def set_substitute(seat: Seat, substitute: Participant | None, *, by, points_to_substitute: bool = False,
                   reason: str = "") -> Seat:
    """Let `substitute` play `seat` from now on (None: the seat's player again).

    The points of the seat go to the seat's player, or to the substitute when the director says so.
    """
    reason = limited_reason(reason)
    table = seat.table
    tournament = table.round.stage.tournament
    _require_director(by, tournament)
    if substitute is not None:
        _check_substitute(seat, substitute, tournament)
    with transaction.atomic():
        locked = Seat.objects.select_for_update().get(pk=seat.pk)
        before = {"substitute": locked.substitute_id and str(locked.substitute),
                  "points_to_substitute": locked.points_to_substitute}
        locked.substitute = substitute
        locked.points_to_substitute = bool(substitute) and points_to_substitute
        locked.save(update_fields=["substitute", "points_to_substitute"])
        log_action("schafkopf.substitute", by=by, tournament=tournament,
                   obj=(table.round, table, locked), before=before,
                   after={"substitute": substitute and str(substitute),
                          "points_to_substitute": locked.points_to_substitute},
                   reason=reason)
    return locked


def _check_substitute(seat: Seat, substitute: Participant, tournament) -> None:
    if substitute.tournament_id != tournament.pk or substitute.status != Participant.Status.ACTIVE:
        raise DomainError(_("The substitute must be an active player of this tournament."), field="substitute")
    if substitute.pk == seat.participant_id:
        raise DomainError(_("A player cannot substitute for himself."), field="substitute")
    busy = Seat.objects.filter(table__round=seat.table.round).exclude(pk=seat.pk)
    if busy.filter(participant=substitute).exists() or busy.filter(substitute=substitute).exists():
        raise DomainError(
            _("%(player)s already plays in this round and cannot also take this seat.") % {"player": substitute.name},
            field="substitute",
        )


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
    with transaction.atomic():
        sheet = record_sheet(tournament=tournament, entries=entries, derive=derive, by=by, table=table, mode=mode,
                             expected_version=expected_version, reason=reason, decide=decide,
                             pending_version=pending_version, sent=sent)
        _round_started(round_.pk)
        if sheet.counted:
            _after_list(tournament, table)
    return sheet


def confirm_sheet(table: Table, *, by, expected_version: int | None = None) -> ScoreSheet:
    """Double entry: a second person confirms the first entry of a list as it stands."""
    tournament = table.round.stage.tournament
    derive = make_derive(settings_of(tournament), table.seats.count())
    with transaction.atomic():
        sheet = confirm_pending(tournament=tournament, table=table, derive=derive, by=by,
                                expected_version=expected_version)
        _after_list(tournament, table)
    return sheet


def checked_derive(tournament, table: Table, entries: list[dict], mode: str):
    """The list's derive function, after checking `entries` with it: a list the rules refuse is `ListRefused`
    (the same refusal at the referee table and from a table's link)."""
    derive = make_derive(settings_of(tournament), table.seats.count())
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


def _round_started(round_id: int) -> None:
    """The first list of a round marks it started (that fixes the seating)."""
    Round.objects.filter(pk=round_id, starts_at__isnull=True).update(starts_at=timezone.now())


def _after_list(tournament, table: Table) -> None:
    """The backup once every table of the round has its (counted) list."""
    if not Table.objects.filter(round=table.round, sheet__isnull=True).exists():
        schedule_backup_after_round(tournament, table.round.number)


def enter_from_link(link, *, mode: str, entries: list[dict]):
    """What a table sends from its private link: a first entry awaiting confirmation, or (when the tournament
    lets table entries count at once) the counted list. The same rules refuse the same lists as at the
    referee table; sending the same again changes nothing (`scoring.results.counting`)."""
    table = link.table
    tournament = link.tournament
    derive = checked_derive(tournament, table, entries, mode)
    with transaction.atomic():
        sheet = record_table_entry(link, entries=entries, mode=mode, derive=derive)
        _round_started(table.round_id)
        if sheet.counted:
            _after_list(tournament, table)
    return sheet
