"""The Voms knockout: built from the qualifiers, its best-of-N series entered and corrected, the bracket
advanced (or, after a semifinal round robin, the final set) once a series is decided."""

from __future__ import annotations

from django.db import models, transaction
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet
from scoring.results.recording import record_sheet
from scoring.rules.base import RuleError
from tournament.draw.bracket import Qualifier, knockout_bracket, resolve_matches, semifinal_round_robin
from tournament.models import Match, Pool, PoolEntry, Round, Stage, Team
from tournament.permissions import require_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.tournaments import sync_status

from ..entries import derive_slip
from ..queries import bracket_of, knockout_played, knockout_stage, rules_settings, series_winners, settings_of
from ..standings import pool_tables
from .common import refused


def create_knockout(tournament, *, by, qualifiers: list[Qualifier], third_place: bool, semifinal: str,
                    qualifiers_per_pool: int | None = None, confirm_rebuild: bool = False) -> Stage:
    """Build the knockout from the qualifiers (decided by the pool standings).

    Rebuilding an existing knockout needs `confirm_rebuild=True`. The knockout's rounds are `Round`s
    with a slot of `series_minutes`, so the round clock runs them like the pool rounds.
    """
    require_director(by, tournament)
    if knockout_stage(tournament) is not None and not confirm_rebuild:
        raise DomainError(_("There is a knockout already: tick “Yes, rebuild it” to replace it."),
                          field="confirm_rebuild")
    if knockout_played(tournament):
        raise DomainError(_("Knockout results have been entered: the knockout cannot be rebuilt."))
    best_of = rules_settings(tournament).best_of
    with transaction.atomic():
        Stage.objects.filter(tournament=tournament, kind__in=[Stage.Kind.KNOCKOUT, Stage.Kind.SEMIFINAL_POOL]).delete()
        stage = Stage.objects.create(tournament=tournament, kind=Stage.Kind.KNOCKOUT, order=2)
        q_data = [[q.pool, q.place, q.team] for q in qualifiers]
        if semifinal == "round_robin":
            if len(qualifiers) != 4:
                raise DomainError(_("The semifinal round robin needs exactly 4 qualified teams."))
            stage.settings = {"qualifiers": q_data, "third_place": third_place, "semifinal": "round_robin",
                              "qualifiers_per_pool": qualifiers_per_pool}
            stage.save()
            _create_semifinal_pool(tournament, qualifiers, best_of)
        else:
            try:
                bracket = knockout_bracket(qualifiers, third_place=third_place)
            except RuleError as error:
                raise refused(error) from error
            stage.settings = {"qualifiers": q_data, "third_place": third_place, "semifinal": "bracket",
                              "qualifiers_per_pool": qualifiers_per_pool}
            stage.save()
            minutes = int(settings_of(tournament)["series_minutes"])
            rounds = [Round.objects.create(stage=stage, number=n, slot_minutes=minutes)
                      for n in range(1, len(bracket.rounds) + 1)]
            round_of_match = {m.id: rounds[n] for n, rnd in enumerate(bracket.rounds) for m in rnd}
            Match.objects.bulk_create(
                Match(stage=stage, key=m.id, best_of=best_of, round=round_of_match.get(m.id, rounds[-1]))
                for m in bracket.matches() if not m.is_bye
            )
            sync_bracket(stage)
        # the log names the qualified teams ("A1 Lars & Jens"), as they are called now; the stage keeps the ids
        names = dict(Team.objects.filter(pk__in=[q.team for q in qualifiers]).values_list("pk", "name"))
        log_action("knockout.create", by=by, tournament=tournament, obj=tournament, after={
            **stage.settings, "qualifiers": [f"{q.label} {names.get(q.team, q.team)}" for q in qualifiers]})
        sync_status(tournament, by=by)
    return stage


def _create_semifinal_pool(tournament, qualifiers: list[Qualifier], best_of: int) -> None:
    stage = Stage.objects.create(tournament=tournament, kind=Stage.Kind.SEMIFINAL_POOL, order=2)
    teams = [q.team for q in sorted(qualifiers, key=lambda q: (q.place, q.pool))]
    pool = Pool.objects.create(stage=stage, index=0, name="SF")
    PoolEntry.objects.bulk_create(PoolEntry(pool=pool, team_id=t, position=i) for i, t in enumerate(teams, 1))
    table_base = 0
    minutes = int(settings_of(tournament)["series_minutes"])
    for number, pairs in enumerate(semifinal_round_robin(teams), 1):
        rnd = Round.objects.create(stage=stage, number=number, slot_minutes=minutes)
        Match.objects.bulk_create(
            Match(stage=stage, round=rnd, pool=pool, table_number=table_base + i, team_a_id=a, team_b_id=b,
                  best_of=best_of)
            for i, (a, b) in enumerate(pairs, 1)
        )


def sync_bracket(stage: Stage) -> None:
    """Put the teams known so far into the knockout matches that have no result yet."""
    teams = resolve_matches(bracket_of(stage), series_winners(stage))
    for match in stage.matches.filter(sheet__isnull=True):
        team_a, team_b = teams[match.key]
        if (match.team_a_id, match.team_b_id) != (team_a, team_b):
            match.team_a_id, match.team_b_id = team_a, team_b
            match.save(update_fields=["team_a", "team_b"])


def record_series(match: Match, *, by, games: list[dict], expected_version: int | None = None, reason: str = "",
                  decide: str = "", pending_version: int | None = None, sent=None):
    """Enter the games of a best-of-N series so far; the series ends when a team has won enough."""
    tournament = match.stage.tournament
    if match.team_a_id is None or match.team_b_id is None:
        raise DomainError(_("The teams of this match are not known yet."))
    derive = derive_slip(rules_settings(tournament), match.best_of)
    # One transaction: the public pages' cache version (the newest audit entry) must never
    # be seen with the bracket not yet advanced.
    with transaction.atomic():
        sheet = record_sheet(tournament=tournament, match=match, entries=games, derive=derive, by=by,
                             expected_version=expected_version, reason=reason, decide=decide,
                             pending_version=pending_version, sent=sent)
        if sheet.counted:
            after_series(tournament, match, by)
    return sheet


def after_series(tournament, match: Match, by) -> None:
    if match.stage.kind == Stage.Kind.KNOCKOUT and match.stage.settings.get("semifinal") != "round_robin":
        sync_bracket(match.stage)
    elif match.stage.kind == Stage.Kind.SEMIFINAL_POOL:
        _final_after_semifinal_pool(tournament, by)


def _final_after_semifinal_pool(tournament, by) -> None:
    """Once every semifinal series is decided: 1st v 2nd in the final, 3rd v 4th for third place."""
    stage = knockout_stage(tournament)
    pool_stage = Stage.objects.get(tournament=tournament, kind=Stage.Kind.SEMIFINAL_POOL)
    if stage.matches.exists():
        return
    table = pool_tables(tournament, pool_stage)[0]
    if not table.complete:
        return
    order = [row.participant for row in table.rows]
    best_of = rules_settings(tournament).best_of
    rnd = Round.objects.create(stage=stage, number=1, slot_minutes=int(settings_of(tournament)["series_minutes"]))
    Match.objects.create(stage=stage, round=rnd, key="F", best_of=best_of, team_a_id=order[0], team_b_id=order[1])
    if stage.settings.get("third_place"):
        Match.objects.create(stage=stage, round=rnd, key="3P", best_of=best_of, team_a_id=order[2],
                             team_b_id=order[3])
    names = dict(Team.objects.filter(pk__in=order).values_list("pk", "name"))
    log_action("knockout.final", by=by, tournament=tournament, obj=tournament,
               after={"semifinal_pool_order": [names.get(pk, pk) for pk in order]})
    sync_status(tournament, by=by)  # the final is expected now: running again


def correct_series_game(match: Match, *, by, number: int, game: dict, reason: str,
                        expected_version: int | None = None):
    """A director corrects game `number` (1-based) of a series, with a reason, audited like a pool slip.

    A correction that changes who won the series is refused while the match it leads to has results.
    """
    tournament = match.stage.tournament
    require_director(by, tournament)
    sheet = ScoreSheet.objects.filter(match=match).first()
    if sheet is None or not 1 <= number <= len(sheet.entries):
        raise DomainError(_("There is no game %(number)s in this series to correct.") % {"number": number},
                          field="number")
    games = [dict(entry) for entry in sheet.entries]
    games[number - 1] = game
    derived = derive_slip(rules_settings(tournament), match.best_of)
    try:
        new = derived(games, "games")
    except RuleError as error:
        raise refused(error) from error
    old_winner = sheet.derived.get("winner") if sheet.derived.get("finished") else None
    new_winner = new.get("winner") if new.get("finished") else None
    if old_winner != new_winner and match.stage.kind == Stage.Kind.KNOCKOUT:
        old_team = {"a": match.team_a_id, "b": match.team_b_id}.get(old_winner)
        later = match.stage.matches.exclude(pk=match.pk).filter(sheet__isnull=False)
        if old_team is not None and later.filter(models.Q(team_a_id=old_team) | models.Q(team_b_id=old_team)).exists():
            raise DomainError(_("This correction changes who won the series, but the next match of the winner has "
                                "results already. Correct that match first."))
    with transaction.atomic():
        saved = record_sheet(tournament=tournament, match=match, entries=games, derive=derived, by=by,
                             expected_version=expected_version if expected_version is not None else sheet.version,
                             reason=reason)
        after_series(tournament, match, by)
    return saved
