"""The round clock: the director starts, pauses, resumes and resets a round's slot.

The state is three fields on `Round` (started, paused since, seconds paused so far). What the
clock shows is one pure function of them and of `now` (`clock_state`), so the arithmetic is
tested with frozen times and the public pages compute it without writing anything.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Round
from ..permissions import is_director
from ..prepared import Prepared
from .audit import log_action
from .errors import DomainError

IDLE, RUNNING, PAUSED = "idle", "running", "paused"


@dataclass(frozen=True)
class ClockState:
    status: str
    #: seconds played so far (pauses not counted)
    elapsed: int
    #: seconds left in the slot; negative once over, None when the round has no time limit
    remaining: int | None

    @property
    def time_up(self) -> bool:
        return self.remaining is not None and self.status != IDLE and self.remaining <= 0


def clock_state(
    started_at: datetime.datetime | None,
    paused_at: datetime.datetime | None,
    paused_seconds: int,
    slot_minutes: int | None,
    *,
    now: datetime.datetime,
) -> ClockState:
    """What the clock shows at `now`: a paused clock stands still at the moment it was paused."""
    if started_at is None:
        return ClockState(IDLE, 0, slot_minutes * 60 if slot_minutes else None)
    until = paused_at or now
    elapsed = max(0, int((until - started_at).total_seconds()) - paused_seconds)
    remaining = slot_minutes * 60 - elapsed if slot_minutes else None
    return ClockState(PAUSED if paused_at else RUNNING, elapsed, remaining)


def format_seconds(seconds: int) -> str:
    """A clock face: 19:59, 0:05, 1:02:03 (never negative: past the end it stays at 0:00)."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def state_of(round_: Round, slot_minutes: int | None, *, now: datetime.datetime | None = None) -> ClockState:
    return clock_state(round_.clock_started_at, round_.clock_paused_at, round_.clock_paused_seconds, slot_minutes,
                       now=now or timezone.now())


def clock_round(tournament) -> Round | None:
    """The round whose clock was started last: the one the hall is playing."""
    return (
        Round.objects.filter(stage__tournament=tournament, clock_started_at__isnull=False)
        .select_related("stage")
        .order_by("-clock_started_at", "-pk")
        .first()
    )


def playing_round(tournament, rounds=None) -> Round | None:
    """The round the hall plays now, as the seating and schedule pages show it: the first round (stages in their
    order) with a result still to come (a seated table or a match between two teams without its result), else
    the last round; None before the first draw. `rounds`: the tournament's rounds to choose from (a game's
    `PublicContent.clock_round` may leave some out)."""
    from scoring.models import ScoreSheet
    from tournament.models import Match, Seat

    waiting = (Exists(Seat.objects.filter(table__round=OuterRef("pk"))
                      .exclude(Exists(ScoreSheet.objects.filter(table=OuterRef("table")))))
               | Exists(Match.objects.filter(round=OuterRef("pk"), team_a__isnull=False, team_b__isnull=False)
                        .exclude(Exists(ScoreSheet.objects.filter(match=OuterRef("pk"))))))
    rounds = Round.objects.filter(stage__tournament=tournament) if rounds is None else rounds
    rounds = list(rounds.select_related("stage")
                  .annotate(waiting=ExpressionWrapper(waiting, output_field=BooleanField()))
                  .order_by("stage__order", "stage__pk", "number"))
    return next((r for r in rounds if r.waiting), rounds[-1] if rounds else None)


def clock_in_use(tournament) -> bool:
    """Whether the director runs the round clock this evening (some round's clock is started): only then do the
    public pages show a clock."""
    return bool(_CLOCK_STARTED.all(tournament=tournament.pk))


#: asked by the public pages' polls at every new state: compiled once (tournament/prepared.py)
_CLOCK_STARTED = Prepared(Round, lambda tournament: Round.objects.filter(
    stage__tournament_id=tournament, clock_started_at__isnull=False).values_list("pk", flat=True)[:1])


def _snapshot(round_: Round) -> dict:
    return {"started_at": round_.clock_started_at, "paused_at": round_.clock_paused_at,
            "paused_seconds": round_.clock_paused_seconds, "slot_minutes": round_.slot_minutes}


def _change(round_: Round, *, by, action: str, apply, now: datetime.datetime | None = None) -> Round:
    """Lock the round, let `apply(locked, now)` change it (or refuse), save and write the audit log."""
    tournament = round_.stage.tournament
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can run the round clock."))
    now = now or timezone.now()
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("stage").get(pk=round_.pk)
        before = _snapshot(locked)
        apply(locked, now)
        locked.save(update_fields=["clock_started_at", "clock_paused_at", "clock_paused_seconds", "slot_minutes"])
        log_action(f"clock.{action}", by=by, tournament=tournament, obj=(locked.stage, locked),
                   before=before, after=_snapshot(locked))
    return locked


def start_clock(round_: Round, *, by, now: datetime.datetime | None = None) -> Round:
    def apply(r: Round, now):
        if r.clock_started_at is not None:
            raise DomainError(_("The clock of this round is running already: reset it to start again."))
        r.clock_started_at, r.clock_paused_at, r.clock_paused_seconds = now, None, 0

    return _change(round_, by=by, action="start", apply=apply, now=now)


def pause_clock(round_: Round, *, by, now: datetime.datetime | None = None) -> Round:
    def apply(r: Round, now):
        if r.clock_started_at is None or r.clock_paused_at is not None:
            raise DomainError(_("Only a running clock can be paused."))
        r.clock_paused_at = now

    return _change(round_, by=by, action="pause", apply=apply, now=now)


def resume_clock(round_: Round, *, by, now: datetime.datetime | None = None) -> Round:
    def apply(r: Round, now):
        if r.clock_paused_at is None:
            raise DomainError(_("Only a paused clock can be resumed."))
        r.clock_paused_seconds += max(0, int((now - r.clock_paused_at).total_seconds()))
        r.clock_paused_at = None

    return _change(round_, by=by, action="resume", apply=apply, now=now)


def reset_clock(round_: Round, *, by) -> Round:
    def apply(r: Round, now):
        r.clock_started_at, r.clock_paused_at, r.clock_paused_seconds = None, None, 0

    return _change(round_, by=by, action="reset", apply=apply)


def set_slot_minutes(round_: Round, minutes: int, *, by) -> Round:
    """The length of the round's slot (a best-of-3 semifinal needs about an hour, not 20 minutes)."""
    if not 1 <= minutes <= 600:
        raise DomainError(_("A slot lasts between 1 and 600 minutes."), field="minutes")

    def apply(r: Round, now):
        r.slot_minutes = minutes

    return _change(round_, by=by, action="slot", apply=apply)
