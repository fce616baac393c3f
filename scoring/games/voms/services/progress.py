"""How far the Voms evening is: slips entered against slips expected (the provisional heading and the
tournament's status), when a slip is certainly still missing, when a round is complete."""

from __future__ import annotations

from dataclasses import replace

from django.db import models
from django.db.models import Exists, Q, TextField
from django.db.models.functions import Cast

from scoring.games import game_of
from scoring.models import ScoreSheet
from scoring.progress import ResultProgress, counted_progress, expected_places, is_finished, is_finished_text
from tournament.models import Match, PoolEntry, Round, Stage, Team
from tournament.queries import holds

from ..queries import PoolState, pool_state, settings_of


def progress(tournament, *, after_round: int | None = None):
    """Slips entered against slips expected, for the provisional heading and the tournament's status.

    A game that a disqualification decides counts as entered although no slip was typed for it
    (voms.md: "the forfeited games of a disqualified team count as entered"). Once the pools are drawn, a knockout
    not built yet counts as one result still missing, its final (how many more it holds is known once it is
    built): the evening is not over, nor its ranking final, while the semifinals and the final are still to come.
    Only pools that qualify fewer than two teams between them make no knockout."""
    counted = counted_progress(tournament, after_round=after_round)
    state = pool_state(tournament)
    decided_without_slip = sum(
        1 for match in state.matches
        if match.derived is None and (after_round is None or match.round_number <= after_round)
        and (result := state.result(match.pk)) is not None and result.outcome != "missing")
    knockout_to_come = after_round is None and _knockout_still_to_build(tournament)
    return replace(counted, entered=counted.entered + decided_without_slip,
                   expected=counted.expected + knockout_to_come)


def _knockout_still_to_build(tournament, pool_sizes: list[int] | None = None) -> bool:
    """The pools are drawn and qualify two teams or more, and no knockout (nor semifinal round robin) exists.
    `pool_sizes`: the teams in each pool, when the caller has read them already."""
    if Stage.objects.filter(tournament=tournament).exclude(kind=Stage.Kind.POOLS).exists():
        return False
    per_pool = int(settings_of(tournament)["qualifiers_per_pool"])
    if pool_sizes is None:
        pool_sizes = (PoolEntry.objects.filter(pool__stage__tournament=tournament, pool__stage__kind=Stage.Kind.POOLS)
                      .values("pool").annotate(teams=models.Count("pk")).values_list("teams", flat=True))
    return sum(min(per_pool, teams) for teams in pool_sizes) >= 2


def standings_progress(tournament, state: PoolState, pool_sizes: list[int]) -> ResultProgress:
    """`progress(tournament)`'s entered and expected results (the whole evening) from the pool games the
    standings page has read already (`state`, `pool_sizes`: the teams of each pool) and one query of the
    knockout's and semifinal round robin's matches: the page's heading without reading the pools a second time.
    First entries awaiting confirmation are not counted (`awaiting` is 0: the heading does not show them)."""
    others = list(Match.objects.filter(stage__tournament=tournament).exclude(stage__kind=Stage.Kind.POOLS)
                  .values_list(Cast("sheet__derived", TextField()), flat=True))
    entered = sum(1 for text in others if text is not None and is_finished_text(text))
    expected = len(others)
    for match in state.matches:
        if match.derived is None:
            # decided without a slip (a disqualification's forfeit, a void game): counts as entered
            result = state.result(match.pk)
            entered += result is not None and result.outcome != "missing"
        elif match.team_a_id is not None and is_finished(match.derived):
            entered += 1
        expected += match.team_a_id is not None
    knockout_to_come = not others and _knockout_still_to_build(tournament, pool_sizes)
    return ResultProgress(entered=entered, expected=expected + knockout_to_come,
                          unit=game_of(tournament).result_unit)


def missing_result_condition(tournament) -> Q:
    """When a slip is certainly still missing (the `progress_open` hook; `progress` counts): a knockout or
    semifinal match without a sheet, or a pool game without a slip while no pool slip records an absence and no
    team is withdrawn. Without an absence nobody is disqualified, and without a withdrawal nobody left, so no pool
    game is decided without its slip."""
    tables, matches = expected_places(tournament)
    pools = Stage.Kind.POOLS
    return (Q(Exists(tables.filter(sheet__isnull=True)))
            | Q(Exists(matches.exclude(stage__kind=pools).filter(sheet__isnull=True)))
            | (Q(Exists(matches.filter(stage__kind=pools, sheet__isnull=True)))
               & ~Q(Exists(_pool_absences(tournament))) & ~Q(Exists(_withdrawn_teams(tournament)))))


def round_complete(tournament, rnd: Round) -> bool:
    """Every game of the round has its slip, or is decided by a disqualification."""
    open_game = Match.objects.filter(round=rnd, team_b__isnull=False, sheet__isnull=True)
    if holds(tournament, Q(Exists(open_game)) & ~Q(Exists(_pool_absences(tournament)))
             & ~Q(Exists(_withdrawn_teams(tournament)))):
        return False  # a game without its slip, nobody absent or withdrawn (so nobody out): it is missing
    state = pool_state(tournament, rnd.stage)
    return not any(slot.round == rnd.number for slot in state.derivation.missing())


def _withdrawn_teams(tournament):
    """The teams withdrawn from a pool round on (`withdrawal.withdraw_team`): their games need no slip."""
    return Team.objects.filter(tournament=tournament, withdrawn_from_round__isnull=False)


def _pool_absences(tournament):
    """The pool slips that may record an absence (their text mentions one; `_absent_side` reads the same text).
    None: no team is absent anywhere, so none is disqualified and no game is decided without its slip."""
    return (ScoreSheet.objects.filter(match__stage__tournament=tournament, match__stage__kind=Stage.Kind.POOLS)
            .annotate(text=Cast("entries", TextField())).filter(text__contains='"absent"'))
