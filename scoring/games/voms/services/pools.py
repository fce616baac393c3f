"""The Voms pool draw and its schedule: all pools play the same round at once, the tables numbered across them."""

from __future__ import annotations

import datetime
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.rules.base import RuleError
from tournament.draw.pools import draw_pools as draw_pool_lists
from tournament.draw.pools import pool_name
from tournament.draw.roundrobin import round_robin
from tournament.models import Draw, Match, Pool, PoolEntry, Round, Stage
from tournament.permissions import require_director
from tournament.printjobs import prepare_after_draw
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.tournaments import sync_status

from ..queries import active_teams, play_started, settings_of, teams_without_pool
from .common import refused


def draw_pools(tournament, *, by, pools: int, seed: int | None = None) -> Stage:
    """Draw the teams into pools and schedule the round robin; can be redone until the first slip."""
    require_director(by, tournament)
    if play_started(tournament):
        raise DomainError(_("Results have been entered: the draw cannot be redone any more."))
    teams = list(active_teams(tournament))
    seed = secrets.randbelow(10**9) if seed is None else seed
    try:
        drawn = draw_pool_lists([t.pk for t in teams], pools, seed=seed, seeded=[t.pk for t in teams if t.seeded])
    except RuleError as error:
        raise refused(error) from error
    with transaction.atomic():
        Stage.objects.filter(tournament=tournament).delete()
        stage = Stage.objects.create(tournament=tournament, kind=Stage.Kind.POOLS, order=1)
        schedules = []
        for index, team_ids in enumerate(drawn):
            pool = Pool.objects.create(stage=stage, index=index, name=pool_name(index))
            PoolEntry.objects.bulk_create(
                PoolEntry(pool=pool, team_id=team_id, position=i) for i, team_id in enumerate(team_ids, 1)
            )
            schedules.append((pool, round_robin(team_ids)))
        _schedule(tournament, stage, schedules)
        Draw.objects.create(tournament=tournament, kind=Draw.Kind.POOLS, seed=seed, created_by=by,
                            params={"pools": drawn})
        tournament.settings = {**settings_of(tournament), "pools": pools}
        tournament.save(update_fields=["settings", "updated"])
        names = {t.pk: t.name for t in teams}  # the log names the teams as they are called now, not by their ids
        log_action("draw.pools", by=by, tournament=tournament, obj=tournament, after={
            "seed": seed, "pools": {pool_name(i): [names[pk] for pk in ids] for i, ids in enumerate(drawn)}})
        sync_status(tournament, by=by)
        prepare_after_draw(tournament)  # the rounds' match slips, made by the print worker once this commits
    return stage


def refuse_teams_without_pool(tournament) -> None:
    """The first slip fixes the pools: refused while a team would be left in no pool for the whole evening."""
    late = teams_without_pool(tournament)
    if late:
        raise DomainError(_("%(teams)s registered after the pool draw and play in no pool: redo the draw before "
                            "the first slip, so that every team plays.") % {"teams": ", ".join(t.name for t in late)})


def _schedule(tournament, stage: Stage, schedules) -> None:
    """All pools play the same round at once; tables are numbered across the pools."""
    rounds = max(len(rr) for _pool, rr in schedules)
    slot = int(settings_of(tournament)["slot_minutes"])
    matches = []
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(stage=stage, number=number, starts_at=_slot_start(tournament, number),
                                   slot_minutes=slot)
        table = 0
        for pool, rr in schedules:
            if number > len(rr):
                continue
            for team_a, team_b in rr[number - 1]:
                if team_b is None:
                    # The bye is scheduled without a table: the team does not play this round.
                    matches.append(Match(stage=stage, round=rnd, pool=pool, team_a_id=team_a))
                    continue
                table += 1
                matches.append(Match(stage=stage, round=rnd, pool=pool, table_number=table,
                                     team_a_id=team_a, team_b_id=team_b))
    Match.objects.bulk_create(matches)


def _slot_start(tournament, round_number: int) -> datetime.datetime | None:
    s = settings_of(tournament)
    try:
        hours, minutes = (int(x) for x in str(s["start_time"]).split(":"))
        start = datetime.datetime.combine(tournament.date, datetime.time(hours, minutes))
    except (TypeError, ValueError):
        return None
    start = timezone.make_aware(start)
    return start + datetime.timedelta(minutes=int(s["slot_minutes"]) * (round_number - 1))
