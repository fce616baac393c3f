"""A seated game's state changes that are not a sheet: settings, the seating draw, starting rounds,
substitutes, fixed tables, and what follows a counted sheet.

Each service checks who may do it, runs in one transaction, writes the audit log and raises a
`DomainError` with a translated message. What differs between the games is asked of the tournament's
`SeatedGame` (`scoring.seated.game`): its settings, how its seating is drawn, when a sheet is finished.

The seating is drawn by `tournament.services.seating` (the one draw; audit `seating.draw` / `seating.redraw`
for every seated game). The backup after a round has one trigger for every seated game (`after_sheet`):
every table of the round has a counted sheet whose game is finished.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.backup import schedule_backup_after_round
from tournament.models import Draw, Participant, Round, Seat, Table, Tournament
from tournament.permissions import is_director
from tournament.printjobs import prepare_after_draw
from tournament.services import seating
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.text import limited_reason

from .game import seated_game


def require_director(by, tournament) -> None:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can do this."))


def play_started(tournament) -> bool:
    """True once any round was started or any sheet was entered: the seating is final from then on."""
    return seating.play_started(tournament, any_round=True)


# --- settings ------------------------------------------------------------------------------------------


def update_settings(tournament: Tournament, new, *, by, reason: str = "") -> tuple[Tournament, bool]:
    """Store new settings; return the tournament and whether a seating drawn for other settings was removed.

    What play fixes (the game says which settings) cannot change once play has started. A seating drawn for
    settings it no longer fits (another number of rounds, other table sizes) is removed before play, so that
    a stale draw is never printed.
    """
    require_director(by, tournament)
    game = seated_game(tournament)
    game.check_new_settings(new)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        old = game.settings_of(locked)
        if game.play_fixed_changed(old, new) and play_started(locked):
            raise DomainError(game.play_fixed_message())
        removed = game.seating_outdated(old, new) and seating.remove_seating(
            locked, by=by, reason=_("The settings changed."))
        fields, before, after = game.store_settings(locked, new)
        locked.save(update_fields=[*fields, "updated"])
        prefix = game.audit_prefix
        log_action(f"{prefix}.settings", by=by, tournament=locked, obj=locked, before=before, after=after,
                   reason=reason)
    for name in fields:  # the caller's copy reads the new settings too
        setattr(tournament, name, getattr(locked, name))
    return locked, removed


def set_fixed_table(participant: Participant, table: int | None, *, by) -> None:
    """Fix a player to a table in every round (accessibility); None lifts it. Applies at the next draw."""
    tournament = participant.tournament
    require_director(by, tournament)
    game = seated_game(tournament)
    prefix = game.audit_prefix
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        current = game.settings_of(locked)
        fixed = dict(current.fixed_tables)
        before = fixed.get(participant.number)
        if table is None:
            fixed.pop(participant.number, None)
        else:
            fixed[participant.number] = table
        locked.settings = replace(current, fixed_tables=fixed).to_json()
        locked.save(update_fields=["settings", "updated"])
        log_action(f"{prefix}.fixed_table", by=by, tournament=locked, obj=participant,
                   before={"table": before}, after={"table": table})
    tournament.settings = locked.settings


# --- the seating draw ----------------------------------------------------------------------------------


def draw_seating(tournament: Tournament, *, by, seed: int | None = None, avoid=None) -> Draw:
    """Seat the active players for every round, replacing any earlier draw: tables of the game's sizes drawn by
    `tournament.services.seating.draw_seating`, or the whole field on one sheet per round (patiences).

    Refused once play has started. A seed given by the director reproduces an earlier draw of the same players
    with the same settings. `avoid`: pairs of participant numbers who met earlier in the season, as for
    `tournament.services.seating.draw_seating`.
    """
    require_director(by, tournament)
    game = seated_game(tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if play_started(locked):
            raise DomainError(game.redraw_refused_message())
        settings = game.settings_of(locked)
        players = list(locked.participants.filter(status=Participant.Status.ACTIVE))
        options = game.seating_options(settings, players)
        if options is None:
            draw = seating.seat_field(locked, by=by, rounds=settings.rounds)
        else:
            draw = seating.draw_seating(locked, by=by, rounds=settings.rounds, sizes=options.sizes, seed=seed,
                                        groups=options.groups, fixed=options.fixed, avoid=avoid,
                                        params=options.params)
        prepare_after_draw(locked)  # the rounds' score sheets, made by the print worker once this commits
    return draw


def seating_groups(players, *, separate_clubs: bool = False) -> dict[int, str]:
    """Who should sit apart: a named group (a family) first, otherwise the club when that is wished."""
    groups = {}
    for p in players:
        if p.group:
            groups[p.number] = f"group:{p.group.casefold()}"
        elif separate_clubs and p.club:
            groups[p.number] = f"club:{p.club.casefold()}"
    return groups


def start_round(round_: Round, *, by) -> Round:
    """Mark a round as started (round 1 fixes the seating)."""
    tournament = round_.stage.tournament
    require_director(by, tournament)
    with transaction.atomic():
        updated = Round.objects.filter(pk=round_.pk, starts_at__isnull=True).update(starts_at=timezone.now())
        if updated:
            prefix = seated_game(tournament).audit_prefix
            log_action(f"{prefix}.round.start", by=by, tournament=tournament, obj=round_,
                       after={"round": round_.number})
    round_.refresh_from_db()
    return round_


# --- substitutes ---------------------------------------------------------------------------------------


def set_substitute(seat: Seat, substitute: Participant | None, *, by, points_to_substitute: bool = False,
                   reason: str = "") -> Seat:
    """Let `substitute` play `seat` from now on (None: the seat's player again).

    The points of the seat go to the seat's player, or to the substitute when the director says so.
    """
    reason = limited_reason(reason)
    table = seat.table
    tournament = table.round.stage.tournament
    require_director(by, tournament)
    if substitute is not None:
        _check_substitute(seat, substitute, tournament)
    with transaction.atomic():
        locked = Seat.objects.select_for_update().get(pk=seat.pk)
        before = {"substitute": locked.substitute_id and str(locked.substitute),
                  "points_to_substitute": locked.points_to_substitute}
        locked.substitute = substitute
        locked.points_to_substitute = bool(substitute) and points_to_substitute
        locked.save(update_fields=["substitute", "points_to_substitute"])
        prefix = seated_game(tournament).audit_prefix
        log_action(f"{prefix}.substitute", by=by, tournament=tournament,
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


# --- after a sheet -------------------------------------------------------------------------------------


def recorded(tournament, table: Table, record):
    """Store a table's sheet through `record` (a results service: an entry, a table's send, a confirmation) and
    what follows it, in one transaction: the round counts as started (that fixes the seating), and a sheet that
    counts may complete the round (`after_sheet`). A first entry awaiting confirmation sets nothing else off."""
    with transaction.atomic():
        sheet = record()
        round_started(table.round)
        if sheet.counted:
            after_sheet(tournament, table)
    return sheet


def round_started(round_: Round) -> None:
    """The first sheet of a round marks it started (that fixes the seating). A round loaded as started is
    started: its start is never taken back."""
    if round_.starts_at is None:
        Round.objects.filter(pk=round_.pk, starts_at__isnull=True).update(starts_at=timezone.now())


def after_sheet(tournament, table: Table) -> None:
    """After a counted sheet: the backup once every table of the round has a counted sheet whose game is
    finished (the game says when a sheet is: a Schafkopf list always, a table game's sheet once the game is
    over). One condition for every seated game: a table game's sheet counts hand by hand while its game runs,
    so "every table has a sheet" would back up mid-round."""
    game = seated_game(tournament)
    if not Table.objects.filter(round=table.round).exclude(game.finished_sheet).exists():
        schedule_backup_after_round(tournament, table.round.number)
