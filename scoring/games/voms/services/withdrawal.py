"""A Voms team that leaves early (voms.md, Decision "a team leaves early").

The director withdraws it from pool round N on: it is handled like a disqualification from round N (its earlier
results stand, every game of it from round N on is a 9:0 forfeit for the opponent and counts as entered, no slip
is typed for it) and it is marked "withdrawn from round N" wherever it appears. What is stored is only the round
(`Team.withdrawn_from_round`); the pool rule (`scoring.rules.voms.derive_pool`) derives the rest, so undoing the
withdrawal restores every slip typed for those games.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournament.models import Match, Round, Stage, Team
from tournament.permissions import require_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.tournaments import sync_status

from ..queries import knockout_stage, pool_state, pools_stage


@dataclass(frozen=True)
class Forfeit:
    """A game of the withdrawn team that counts 9:0 for its opponent."""

    round: int
    table: int | None
    opponent: str
    #: a slip was typed for it: it stays in the history and counts again if the withdrawal is undone
    typed: bool


@dataclass(frozen=True)
class WithdrawalEffect:
    """What withdrawing `team` from `from_round` on does, for the confirmation."""

    team: Team
    from_round: int
    forfeits: list[Forfeit]
    #: the rounds before `from_round` whose results stand
    standing_rounds: int


def pool_round_numbers(tournament) -> list[int]:
    stage = pools_stage(tournament)
    if stage is None:
        return []
    return list(Round.objects.filter(stage=stage).order_by("number").values_list("number", flat=True))


def check_withdrawal(team: Team, from_round: int | None, *, by) -> Stage:
    """Refuse what `withdraw_team` (a round) or `undo_withdrawal` (None) would refuse, before it is asked."""
    tournament = team.tournament
    require_director(by, tournament)
    stage = pools_stage(tournament)
    if stage is None or not team.pool_entries.filter(pool__stage=stage).exists():
        raise DomainError(_("%(team)s plays in no pool: a team is withdrawn from a round only after the pool "
                            "draw (before it, withdraw it on its page).") % {"team": team.name})
    if knockout_stage(tournament) is not None:
        raise DomainError(_("The knockout is built already: withdrawing a team from a pool round (or undoing it) "
                            "would change who qualified. Only a team of the pools can be withdrawn, before the "
                            "knockout."))
    if from_round is not None:
        rounds = pool_round_numbers(tournament)
        if from_round not in rounds:
            raise DomainError(_("Round %(round)s is not a round of the pools (1 to %(last)s).")
                              % {"round": from_round, "last": rounds[-1] if rounds else 0}, field="from_round")
        disqualified = pool_state(tournament, stage).disqualified.get(team.pk)
        if disqualified is not None and disqualified < from_round:
            raise DomainError(_("%(team)s was disqualified in round %(round)s already: its later games count 9:0 "
                                "for the opponents.") % {"team": team.name, "round": disqualified},
                              field="from_round")
    return stage


def withdrawal_effect(team: Team, from_round: int) -> WithdrawalEffect:
    """The games of `team` from `from_round` on, each a 9:0 forfeit for its opponent once it is withdrawn."""
    stage = pools_stage(team.tournament)
    games = (Match.objects.filter(stage=stage, round__number__gte=from_round, team_b__isnull=False)
             .filter(Q(team_a=team) | Q(team_b=team)).select_related("round", "team_a", "team_b", "sheet")
             .order_by("round__number", "table_number"))
    forfeits = [Forfeit(m.round.number, m.table_number, (m.team_b if m.team_a_id == team.pk else m.team_a).name,
                        hasattr(m, "sheet")) for m in games]
    return WithdrawalEffect(team, from_round, forfeits, from_round - 1)


def withdraw_team(team: Team, *, by, from_round: int) -> Team:
    """Withdraw `team` from pool round `from_round` on (a team that left the evening). Withdrawing it from another
    round instead moves the withdrawal; audited either way."""
    check_withdrawal(team, from_round, by=by)
    return _store_withdrawal(team, from_round, by=by, action="team.withdraw_round")


def undo_withdrawal(team: Team, *, by) -> Team:
    """The team plays on after all: every slip typed for its games from the withdrawal on counts again, the games
    without a slip wait for one again."""
    check_withdrawal(team, None, by=by)
    return _store_withdrawal(team, None, by=by, action="team.withdrawal_undone")


def _store_withdrawal(team: Team, from_round: int | None, *, by, action: str) -> Team:
    """Store the round the team is withdrawn from (None: not withdrawn) under its row lock, audited, and bring
    the tournament's status along; nothing when it is so already."""
    tournament = team.tournament
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        before = team.withdrawn_from_round
        if before == from_round:
            return team
        team.withdrawn_from_round = from_round
        team.save(update_fields=["withdrawn_from_round"])
        log_action(action, by=by, tournament=tournament, obj=team,
                   before={"withdrawn_from_round": before}, after={"withdrawn_from_round": from_round})
        sync_status(tournament, by=by)
    return team
