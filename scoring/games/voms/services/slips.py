"""A pool game's slip: entered, corrected, confirmed (double entry), or sent from a table's link; the absence
rule's disqualification asked before it is saved, and what a counted slip sets off."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet
from scoring.results.counting import confirm_pending, record_table_entry
from scoring.results.double_entry import FIRST
from scoring.results.recording import record_sheet
from scoring.rules import voms as rules
from scoring.rules.base import RuleError
from tournament.backup import schedule_backup_after_round
from tournament.models import Match, Stage, Team
from tournament.services.audit import log_action
from tournament.services.errors import DomainError

from ..entries import derive_slip, score_entry
from ..queries import PoolState, is_series, play_started, pool_state, rules_settings, slot_of
from .knockout import after_series
from .pools import refuse_teams_without_pool
from .progress import round_complete


class DisqualificationUnconfirmed(DomainError):
    """An entry that would disqualify a team: asked, not refused (`confirm_disqualify=True` saves it)."""

    def __init__(self, teams: list[tuple[Team, int, int]]):
        self.teams = teams
        text = " ".join(
            _("This is absence number %(count)s of %(team)s: the team is disqualified in round %(round)s, and "
              "every later game of it counts 9:0 for the opponent.") % {"count": count, "team": team, "round": rnd}
            for team, rnd, count in teams
        )
        super().__init__(text + " " + _("Tick “Yes, disqualify” to save it."), field="confirm_disqualify")


def record_slip(match: Match, *, by, entry: dict, expected_version: int | None = None, reason: str = "",
                decide: str = "", pending_version: int | None = None, confirm_disqualify: bool = False,
                sent=None):
    """Enter (or, for a director, correct) the slip of a pool game.

    The absence that disqualifies a team (by round: a correction of an early round counts too) is
    saved only with `confirm_disqualify=True`. A new slip for a game a disqualification decides is
    refused, except the absence of the opponent (which makes the game void). The returned sheet
    carries `disqualified` and `reinstated` ({team id: round}): what this slip changed.

    Under double entry the first entry comes back as a `PendingSheet` (`.counted` is False) and
    nothing follows from it: no disqualification, no backup. A director who lets the first entry count
    (`decide="first"`) counts it as it stands, as with Confirm; the slip they typed goes to the audit log only.
    """
    tournament = match.stage.tournament
    if match.team_b_id is None:
        raise DomainError(_("This team has a bye in this round: there is no slip to enter."))
    settings = rules_settings(tournament)
    with transaction.atomic():
        if decide == FIRST:
            before = pool_state(tournament, match.stage)
            sheet = record_sheet(tournament=tournament, match=match, entries=[entry], derive=derive_slip(settings),
                                 by=by, expected_version=expected_version, reason=reason, decide=decide,
                                 pending_version=pending_version, sent=sent)
            _first_entry_counted(tournament, match, sheet, before, by)
            return sheet
        state, after, added = _check_slip(match, entry, settings, confirm_disqualify=confirm_disqualify)
        sheet = record_sheet(
            tournament=tournament, match=match, entries=[entry], derive=derive_slip(settings),
            by=by, expected_version=expected_version, reason=reason, decide=decide,
            pending_version=pending_version, sent=sent,
        )
        _slip_counted(tournament, match, sheet, state, after, added, by)
    return sheet


def _check_slip(match: Match, entry: dict, settings: rules.VomsSettings, *, confirm_disqualify: bool):
    """Before a pool slip is stored: a game a disqualification decides takes only the opponent's absence, and
    an absence that disqualifies needs `confirm_disqualify`. Returns the pool state, the derivation with the
    slip (None when the rules refuse it) and the teams it disqualifies."""
    if not play_started(match.stage.tournament):
        refuse_teams_without_pool(match.stage.tournament)  # a team drawn into no pool: draw again first
    state = pool_state(match.stage.tournament, match.stage)
    correcting = ScoreSheet.objects.filter(match=match).exists()
    result = state.result(match.pk)
    if not correcting and result is not None and result.disqualified:
        out = result.disqualified
        if len(out) == 2 or entry.get("absent") != ("b" if out[0] == "a" else "a"):
            _check_disqualified_game(match, state)
    try:
        after = _state_with(state, match, entry, settings)
    except RuleError:
        after = None  # record_sheet refuses the entry with the rules' own message
    added = rules.newly_disqualified(state.derivation, after) if after is not None else {}
    if added and not confirm_disqualify:
        teams = {t.pk: t for t in Team.objects.filter(pk__in=added)}
        raise DisqualificationUnconfirmed([(teams[t], rnd, len(after.absences[t])) for t, rnd in added.items()])
    return state, after, added


def _check_disqualified_game(match: Match, state: PoolState) -> None:
    """A new slip for a game a disqualification decides: only the absence of the opponent can be entered."""
    result = state.result(match.pk)
    if result is None or not result.disqualified:
        return
    teams = {"a": match.team_a, "b": match.team_b}
    if len(result.disqualified) == 2:
        raise DomainError(_("Both teams of this game are out of the tournament (disqualified or withdrawn): the game "
                            "is void and there is nothing to enter."))
    out = result.disqualified[0]
    team = teams[out]
    if team.pk in state.derivation.withdrawn:
        text = _("%(team)s was withdrawn from round %(round)s: this game counts 9:0 for %(other)s and there is "
                 "nothing to enter. Only if %(other)s was absent too, type x for it.")
        rnd = state.derivation.withdrawn[team.pk]
    else:
        text = _("%(team)s was disqualified in round %(round)s: this game counts 9:0 for %(other)s and there is "
                 "nothing to enter. Only if %(other)s was absent too, type x for it.")
        rnd = state.disqualified[team.pk]
    raise DomainError(text % {"team": team, "round": rnd, "other": teams["b" if out == "a" else "a"]})


def _state_with(state: PoolState, match: Match, entry: dict, settings: rules.VomsSettings) -> rules.PoolDerivation:
    """The derivation as it would be with `entry` as the slip of `match`."""
    absent = entry.get("absent") if entry.get("absent") in ("a", "b") else None
    score = score_entry(entry, settings)
    slots = [rules.PoolSlot(m.pk, m.round_number, m.team_a_id, m.team_b_id, score, absent) if m.pk == match.pk
             else slot_of(m) for m in state.matches]
    return rules.derive_pool(slots, settings, state.withdrawals)


def _slip_counted(tournament, match: Match, sheet, state: PoolState, after, added, by) -> None:
    """What a stored pool slip changed (`sheet.disqualified`, `sheet.reinstated`), and what follows once it counts."""
    sheet.disqualified, sheet.reinstated = {}, {}
    if sheet.counted:
        sheet.disqualified = added
        sheet.reinstated = {t: rnd for t, rnd in state.disqualified.items() if t not in after.disqualified}
        _after_slip(tournament, match, sheet, by)


def enter_from_link(link, *, entries: list[dict], confirm_disqualify: bool = False):
    """What a table sends from its private link: a pool game's slip (one game) or a series' games so far.

    The same rules refuse the same entries as at the referee table, with the same messages; an absence that
    disqualifies asks the same confirmation. The result is a first entry awaiting confirmation, or (when the
    tournament lets table entries count at once) counted like the referee's entry; sending the same again
    changes nothing (`scoring.results.counting.record_table_entry`).
    """
    match = link.match
    tournament = link.tournament
    if match.team_a_id is None or match.team_b_id is None:
        raise DomainError(_("The teams of this match are not known yet."))
    settings = rules_settings(tournament)
    with transaction.atomic():
        if is_series(match):
            sheet = record_table_entry(link, entries=entries, mode="games", derive=derive_slip(settings, match.best_of))
            if sheet.counted:
                after_series(tournament, match, None)
            return sheet
        if len(entries) != 1:
            raise DomainError(_("A pool slip holds one game."))
        state, after, added = _check_slip(match, entries[0], settings, confirm_disqualify=confirm_disqualify)
        sheet = record_table_entry(link, entries=entries, mode="games", derive=derive_slip(settings))
        _slip_counted(tournament, match, sheet, state, after, added, None)
    return sheet


def confirm_slip(match: Match, *, by, expected_version: int | None = None, report: int | None = None):
    """Double entry: a second person confirms the first entry of a slip (or series) as it stands (or, `report`, a
    team's report that differs from it)."""
    tournament = match.stage.tournament
    derive = derive_slip(rules_settings(tournament), match.best_of if match.stage.kind != Stage.Kind.POOLS else 1)
    with transaction.atomic():
        before = pool_state(tournament, match.stage) if match.stage.kind == Stage.Kind.POOLS else None
        sheet = confirm_pending(tournament=tournament, match=match, derive=derive, by=by,
                                expected_version=expected_version, report=report)
        if before is not None:
            _first_entry_counted(tournament, match, sheet, before, by)
        else:
            after_series(tournament, match, by)
    return sheet


def _first_entry_counted(tournament, match: Match, sheet, before: PoolState, by) -> None:
    """A pool slip's first entry counts now (confirmed, or let count by a director): what it changed, from the
    pool before it (`before`) and after it, and what follows."""
    after = pool_state(tournament, match.stage).disqualified
    sheet.disqualified = {t: r for t, r in after.items() if before.disqualified.get(t) != r}
    sheet.reinstated = {t: r for t, r in before.disqualified.items() if t not in after}
    _after_slip(tournament, match, sheet, by)


def _after_slip(tournament, match: Match, sheet, by) -> None:
    """What a counted pool slip sets off: the audit of a disqualification (or its lifting), and the backup
    once its round is complete."""
    for team_id, rnd in getattr(sheet, "disqualified", {}).items():
        team = Team.objects.get(pk=team_id)
        log_action("team.disqualify", by=by, tournament=tournament, obj=team, after={"round": rnd})
    for team_id, rnd in getattr(sheet, "reinstated", {}).items():
        team = Team.objects.get(pk=team_id)
        log_action("team.reinstate", by=by, tournament=tournament, obj=team, before={"round": rnd},
                   after={"round": None})
    if round_complete(tournament, match.round):
        schedule_backup_after_round(tournament, match.round.number)
