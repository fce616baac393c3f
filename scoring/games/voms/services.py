"""Voms at the referee table: teams, the pool draw, the schedule, slips, the knockout.

Each function is one operation: it checks who asks, runs in a transaction, writes the
audit log and raises `DomainError` with a translated message. The rules themselves live
in `scoring.rules.voms` and the draws in `tournament.draw`.
"""

from __future__ import annotations

import datetime
import random
import secrets
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import PendingSheet, ScoreSheet
from scoring.rules import voms as rules
from scoring.rules.base import RuleError, gettext_noop
from scoring.services.sheets import confirm_pending, record_sheet, rule_message
from tournament.backup import schedule_backup_after_round
from tournament.draw.bracket import Qualifier, knockout_bracket, resolve_matches, semifinal_round_robin
from tournament.draw.pools import draw_pools as draw_pool_lists
from tournament.draw.pools import pool_name
from tournament.draw.roundrobin import round_robin
from tournament.imports import ImportFileError, read_table
from tournament.models import Draw, Match, Participant, Pool, PoolEntry, Round, Stage, Team
from tournament.permissions import is_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.participants import ImportReport, next_number
from tournament.services.tournaments import sync_status

DEFAULTS = {
    "win_points": "2",
    "kam_points": "2.5",
    "over_points": "1.5",
    "target": 9,
    "max_absences": 2,
    "best_of": 3,
    "pools": 2,
    "start_time": "19:00",
    "slot_minutes": 20,
    "qualifiers_per_pool": 2,
    "third_place": False,
    "semifinal": "bracket",
}


def settings_of(tournament) -> dict:
    return {**DEFAULTS, **(tournament.settings or {})}


def rules_settings(tournament) -> rules.VomsSettings:
    s = settings_of(tournament)
    return rules.VomsSettings(
        win_points=Decimal(str(s["win_points"])),
        kam_points=Decimal(str(s["kam_points"])),
        over_points=Decimal(str(s["over_points"])),
        target=int(s["target"]),
        max_absences=int(s["max_absences"]),
        best_of=int(s["best_of"]),
    )


def _require_director(by, tournament) -> None:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can do this."))


def _refuse(error: RuleError) -> DomainError:
    return DomainError(rule_message(error), field=error.field)


def play_started(tournament) -> bool:
    # a first entry awaiting confirmation (double entry) counts too: a redraw would delete it
    return (ScoreSheet.objects.filter(tournament=tournament).exists()
            or PendingSheet.objects.filter(tournament=tournament).exists())


def update_settings(tournament, *, by, changes: dict, reason: str = "") -> dict:
    _require_director(by, tournament)
    merged = {**settings_of(tournament), **changes}
    try:
        rules.VomsSettings(
            win_points=Decimal(str(merged["win_points"])), kam_points=Decimal(str(merged["kam_points"])),
            over_points=Decimal(str(merged["over_points"])), target=int(merged["target"]),
            max_absences=int(merged["max_absences"]), best_of=int(merged["best_of"]),
        )
    except RuleError as error:
        raise _refuse(error) from error
    scoring_keys = {"win_points", "kam_points", "over_points", "target"}
    if play_started(tournament) and any(str(changes.get(k, merged[k])) != str(settings_of(tournament)[k])
                                          for k in scoring_keys if k in changes):
        raise DomainError(_("The points cannot be changed once results have been entered."))
    with transaction.atomic():
        before = settings_of(tournament)
        tournament.settings = {k: merged[k] for k in DEFAULTS}
        tournament.save(update_fields=["settings", "updated"])
        log_action("settings.update", by=by, tournament=tournament, obj=tournament, before=before,
                   after=tournament.settings, reason=reason)
    return tournament.settings


# --- Teams ------------------------------------------------------------------------------------


def _new_player(tournament, first_name: str, last_name: str) -> Participant:
    return Participant.objects.create(
        tournament=tournament, number=next_number(tournament), first_name=first_name.strip(),
        last_name=last_name.strip(),
    )


def _split_name(full: str) -> tuple[str, str]:
    parts = full.strip().rsplit(" ", 1)
    return (parts[0], parts[1]) if len(parts) == 2 else ("", parts[0])


def _next_team_number(tournament) -> int:
    last = tournament.teams.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def _refuse_after_draw(tournament) -> None:
    if Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).exists():
        raise DomainError(_("The pools are drawn already: redo the draw after changing the teams."))


def register_team(tournament, *, by, name: str, players: list[str], seeded: bool = False) -> Team:
    """A team of 1 or 2 players, given as full names ("First Last")."""
    _require_director(by, tournament)
    players = [p.strip() for p in players if p and p.strip()]
    if not 1 <= len(players) <= 2:
        raise DomainError(_("A team has one or two players."), field="player1")
    name = name.strip() or " & ".join(players)
    if tournament.teams.filter(name__iexact=name, withdrawn=False).exists():
        raise DomainError(_("There is a team called “%(name)s” already.") % {"name": name}, field="name")
    with transaction.atomic():
        team = Team.objects.create(tournament=tournament, number=_next_team_number(tournament), name=name,
                                   seeded=seeded)
        team.members.set([_new_player(tournament, *_split_name(p)) for p in players])
        log_action("team.add", by=by, tournament=tournament, obj=team,
                   after={"name": name, "players": players, "seeded": seeded})
    return team


def withdraw_team(team: Team, *, by) -> Team:
    tournament = team.tournament
    _require_director(by, tournament)
    _refuse_after_draw(tournament)
    with transaction.atomic():
        team.withdrawn = True
        team.save(update_fields=["withdrawn"])
        team.members.update(status=Participant.Status.WITHDRAWN)
        log_action("team.withdraw", by=by, tournament=tournament, obj=team, before={"withdrawn": False},
                   after={"withdrawn": True})
    return team


def register_individual(tournament, *, by, name: str) -> Participant:
    """A player without a partner yet: partners are drawn by lot (`draw_partners`)."""
    _require_director(by, tournament)
    if not name.strip():
        raise DomainError(_("Type the player's name."), field="name")
    with transaction.atomic():
        player = _new_player(tournament, *_split_name(name))
        log_action("participant.add", by=by, tournament=tournament, obj=player, after={"name": player.name})
    return player


def players_without_team(tournament):
    return tournament.participants.filter(status=Participant.Status.ACTIVE, teams__isnull=True).order_by("number")


def draw_partners(tournament, *, by, seed: int | None = None) -> list[Team]:
    """Pair the players without a team by lot; with an odd number one plays alone."""
    _require_director(by, tournament)
    _refuse_after_draw(tournament)
    players = list(players_without_team(tournament))
    if len(players) < 2:
        raise DomainError(_("At least two players without a partner are needed to draw partners."))
    seed = secrets.randbelow(10**9) if seed is None else seed
    random.Random(f"partners:{seed}").shuffle(players)
    teams = []
    with transaction.atomic():
        Draw.objects.create(tournament=tournament, kind=Draw.Kind.PARTNERS, seed=seed, created_by=by,
                            params={"players": [p.pk for p in players]})
        for i in range(0, len(players), 2):
            pair = players[i:i + 2]
            team = Team.objects.create(tournament=tournament, number=_next_team_number(tournament),
                                       name=" & ".join(p.name for p in pair))
            team.members.set(pair)
            teams.append(team)
        log_action("draw.partners", by=by, tournament=tournament, obj=tournament,
                   after={"seed": seed, "teams": [t.name for t in teams]})
    return teams


def import_teams(tournament, filename: str, data: bytes, *, by) -> ImportReport:
    """Teams from a list with the columns team, player 1, player 2 (optional), seeded (optional).

    A list without a team column is read as individual players (first name, last name), to be
    paired by `draw_partners`. If any row is rejected, nothing is imported.
    """
    _require_director(by, tournament)
    report = ImportReport()
    try:
        parsed = read_table(filename, data, required=())
    except ImportFileError as error:
        report.rejected.append((0, str(error)))
        return report
    report.rejected.extend(parsed.rejected)
    columns = set().union(*(row.keys() for _n, row in parsed.rows)) if parsed.rows else set()
    as_teams = "team" in columns or "player1" in columns
    if not as_teams and "last_name" not in columns:
        report.rejected.append((1, _("The first row must name the columns: team, player 1, player 2 — or "
                                     "first name, last name for players without a partner.")))
        return report
    seen = set(tournament.teams.filter(withdrawn=False).values_list("name", flat=True))
    seen = {n.lower() for n in seen}
    wanted = []
    for row_number, row in parsed.rows:
        if as_teams:
            players = [row.get("player1", ""), row.get("player2", "")]
            players = [p for p in players if p]
            name = row.get("team", "") or " & ".join(players)
            if not players:
                report.rejected.append((row_number, _("The team has no players.")))
            elif name.lower() in seen:
                report.rejected.append((row_number, _("There is a team called “%(name)s” already.") % {"name": name}))
            else:
                seen.add(name.lower())
                seeded = row.get("seeded", "").lower() in {"1", "x", "yes", "ja", "true"}
                wanted.append((name, players, seeded))
        elif not row.get("last_name"):
            report.rejected.append((row_number, _("The last name is missing.")))
        else:
            wanted.append((None, [f"{row.get('first_name', '')} {row['last_name']}"], False))
    if report.rejected:
        return report
    with transaction.atomic():
        for name, players, seeded in wanted:
            if name is None:
                report.created.append(register_individual(tournament, by=by, name=players[0]))
            else:
                team = register_team(tournament, by=by, name=name, players=players, seeded=seeded)
                report.created.extend(team.members.all())
    return report


# --- Pools and schedule -----------------------------------------------------------------------


def _slot_start(tournament, round_number: int) -> datetime.datetime | None:
    s = settings_of(tournament)
    try:
        hours, minutes = (int(x) for x in str(s["start_time"]).split(":"))
        start = datetime.datetime.combine(tournament.date, datetime.time(hours, minutes))
    except (TypeError, ValueError):
        return None
    start = timezone.make_aware(start)
    return start + datetime.timedelta(minutes=int(s["slot_minutes"]) * (round_number - 1))


def active_teams(tournament):
    return tournament.teams.filter(withdrawn=False).order_by("number")


def draw_pools(tournament, *, by, pools: int, seed: int | None = None) -> Stage:
    """Draw the teams into pools and schedule the round robin; can be redone until the first slip."""
    _require_director(by, tournament)
    if play_started(tournament):
        raise DomainError(_("Results have been entered: the draw cannot be redone any more."))
    teams = list(active_teams(tournament))
    seed = secrets.randbelow(10**9) if seed is None else seed
    try:
        drawn = draw_pool_lists([t.pk for t in teams], pools, seed=seed, seeded=[t.pk for t in teams if t.seeded])
    except RuleError as error:
        raise _refuse(error) from error
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
        log_action("draw.pools", by=by, tournament=tournament, obj=tournament,
                   after={"seed": seed, "pools": {pool_name(i): ids for i, ids in enumerate(drawn)}})
        sync_status(tournament, by=by)
    return stage


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


def current_round(stage: Stage) -> Round | None:
    """The first round with a game still missing its slip (or the last round)."""
    open_round = (
        Round.objects.filter(stage=stage, matches__team_b__isnull=False, matches__sheet__isnull=True)
        .order_by("number").first()
    )
    return open_round or stage.rounds.order_by("-number").first()


# --- Slips ------------------------------------------------------------------------------------


def derive_slip(settings: rules.VomsSettings, best_of: int = 1):
    """What a slip's games are worth; used by `record_sheet` as the one recompute path."""

    def derive(entries, mode) -> dict:
        if not isinstance(entries, list) or not entries:
            raise RuleError("no_games", gettext_noop("The slip has no game."))
        games = [score_entry(entry, settings) for entry in entries]
        if best_of > 1:
            state = rules.series_state(games, best_of)
            return {"games": [_game_dict(g) for g in games], "wins_a": state.wins_a, "wins_b": state.wins_b,
                    "winner": state.winner, "finished": state.finished}
        if len(games) != 1:
            raise RuleError("one_game", gettext_noop("A pool slip holds one game."))
        return {"games": [_game_dict(games[0])], "winner": games[0].winner, "finished": True}

    return derive


def score_entry(entry: dict, settings: rules.VomsSettings) -> rules.GameScore:
    absent = entry.get("absent")
    if absent in ("a", "b"):
        return rules.forfeit("b" if absent == "a" else "a", settings)
    return rules.score_game(entry.get("lus_a"), entry.get("lus_b"), entry.get("winner"),
                            confirm_low_winner=bool(entry.get("confirm_low_winner")), settings=settings)


def _game_dict(game: rules.GameScore) -> dict:
    return {"lus_a": game.lus_a, "lus_b": game.lus_b, "winner": game.winner, "kind": game.kind,
            "points_a": str(game.points_a), "points_b": str(game.points_b)}


def slip_entry(*, lus_a=None, lus_b=None, winner=None, confirm_low_winner=False, absent=None) -> dict:
    """The raw entry as the slip says it (what is stored)."""
    if absent:
        return {"absent": absent}
    entry = {"lus_a": lus_a, "lus_b": lus_b}
    if winner:
        entry["winner"] = winner
    if confirm_low_winner:
        entry["confirm_low_winner"] = True
    return entry


def forfeited_by_disqualification(match, disqualified: dict[int, int]) -> str | None:
    """The side ("a"/"b") that forfeits this match because its team was disqualified earlier.

    `match` is a `Match` or any object with `team_a_id`, `team_b_id` and `round_number`.
    """
    round_number = getattr(match, "round_number", None)
    if round_number is None:
        round_number = match.round.number if getattr(match, "round", None) is not None else None
    if round_number is None:
        return None
    for side, team_id in (("a", match.team_a_id), ("b", match.team_b_id)):
        after = disqualified.get(team_id)
        if after is not None and round_number > after:
            return side
    return None


def disqualifications(tournament) -> dict[int, int]:
    """Team id -> the round of the absence that disqualified it (pool games only)."""
    limit = rules_settings(tournament).max_absences
    absences: dict[int, list[int]] = {}
    # Plain values, not model instances: this runs on every standings request.
    rows = ScoreSheet.objects.filter(tournament=tournament, match__stage__kind=Stage.Kind.POOLS).values_list(
        "entries", "match__team_a_id", "match__team_b_id", "match__round__number"
    )
    for entries, team_a, team_b, round_number in rows:
        for entry in entries:
            side = entry.get("absent") if isinstance(entry, dict) else None
            if side in ("a", "b"):
                absences.setdefault(team_a if side == "a" else team_b, []).append(round_number)
    return {
        team: sorted(rounds)[limit]
        for team, rounds in absences.items()
        if rules.is_disqualified(len(rounds), rules.VomsSettings(max_absences=limit))
    }


def record_slip(match: Match, *, by, entry: dict, expected_version: int | None = None, reason: str = "",
                decide: bool = False):
    """Enter (or, for a director, correct) the slip of a pool game.

    Under double entry the first entry comes back as a `PendingSheet` (`.counted` is False) and
    nothing follows from it: no absence, no backup.
    """
    tournament = match.stage.tournament
    if match.team_b_id is None:
        raise DomainError(_("This team has a bye in this round: there is no slip to enter."))
    if entry.get("absent") is None and forfeited_by_disqualification(match, disqualifications(tournament)):
        raise DomainError(_("A team of this game has been disqualified: the game counts as 9:0 for the opponent."))
    with transaction.atomic():
        sheet = record_sheet(
            tournament=tournament, match=match, entries=[entry], derive=derive_slip(rules_settings(tournament)),
            by=by, expected_version=expected_version, reason=reason, decide=decide,
        )
        if sheet.counted:
            _after_slip(tournament, match, sheet, by)
    return sheet


def _after_slip(tournament, match: Match, sheet, by) -> None:
    """What a counted pool slip sets off: a disqualification, and the backup once its round is complete."""
    _after_absence(tournament, match, sheet.entries[0], by)
    if not Match.objects.filter(round=match.round, team_b__isnull=False, sheet__isnull=True).exists():
        schedule_backup_after_round(tournament, match.round.number)


def confirm_slip(match: Match, *, by, expected_version: int | None = None):
    """Double entry: a second person confirms the first entry of a slip (or series) as it stands."""
    tournament = match.stage.tournament
    derive = derive_slip(rules_settings(tournament), match.best_of if match.stage.kind != Stage.Kind.POOLS else 1)
    with transaction.atomic():
        sheet = confirm_pending(tournament=tournament, match=match, derive=derive, by=by,
                                expected_version=expected_version)
        if match.stage.kind == Stage.Kind.POOLS:
            _after_slip(tournament, match, sheet, by)
        else:
            _after_series(tournament, match, by)
    return sheet


def _after_absence(tournament, match: Match, entry: dict, by) -> None:
    side = entry.get("absent")
    if side not in ("a", "b"):
        return
    team = match.team_a if side == "a" else match.team_b
    if disqualifications(tournament).get(team.pk) == match.round.number:
        log_action("team.disqualify", by=by, tournament=tournament, obj=team,
                   after={"round": match.round.number, "absences": rules_settings(tournament).max_absences + 1})


# --- Knockout ---------------------------------------------------------------------------------


def knockout_stage(tournament) -> Stage | None:
    return Stage.objects.filter(tournament=tournament, kind=Stage.Kind.KNOCKOUT).first()


def create_knockout(tournament, *, by, qualifiers: list[Qualifier], third_place: bool, semifinal: str) -> Stage:
    """Build the knockout from the qualifiers (decided by the pool standings)."""
    _require_director(by, tournament)
    existing = knockout_stage(tournament)
    if existing and (ScoreSheet.objects.filter(match__stage=existing).exists()
                     or PendingSheet.objects.filter(match__stage=existing).exists()):
        raise DomainError(_("Knockout results have been entered: the knockout cannot be rebuilt."))
    best_of = rules_settings(tournament).best_of
    with transaction.atomic():
        Stage.objects.filter(tournament=tournament, kind__in=[Stage.Kind.KNOCKOUT, Stage.Kind.SEMIFINAL_POOL]).delete()
        stage = Stage.objects.create(tournament=tournament, kind=Stage.Kind.KNOCKOUT, order=2)
        q_data = [[q.pool, q.place, q.team] for q in qualifiers]
        if semifinal == "round_robin":
            if len(qualifiers) != 4:
                raise DomainError(_("The semifinal round robin needs exactly 4 qualified teams."))
            stage.settings = {"qualifiers": q_data, "third_place": third_place, "semifinal": "round_robin"}
            stage.save()
            _create_semifinal_pool(tournament, qualifiers, best_of)
        else:
            try:
                bracket = knockout_bracket(qualifiers, third_place=third_place)
            except RuleError as error:
                raise _refuse(error) from error
            stage.settings = {"qualifiers": q_data, "third_place": third_place, "semifinal": "bracket"}
            stage.save()
            Match.objects.bulk_create(
                Match(stage=stage, key=m.id, best_of=best_of) for m in bracket.matches() if not m.is_bye
            )
            sync_bracket(stage)
        log_action("knockout.create", by=by, tournament=tournament, obj=tournament, after=stage.settings)
        sync_status(tournament, by=by)
    return stage


def _create_semifinal_pool(tournament, qualifiers: list[Qualifier], best_of: int) -> None:
    stage = Stage.objects.create(tournament=tournament, kind=Stage.Kind.SEMIFINAL_POOL, order=2)
    teams = [q.team for q in sorted(qualifiers, key=lambda q: (q.place, q.pool))]
    pool = Pool.objects.create(stage=stage, index=0, name="SF")
    PoolEntry.objects.bulk_create(PoolEntry(pool=pool, team_id=t, position=i) for i, t in enumerate(teams, 1))
    table_base = 0
    for number, pairs in enumerate(semifinal_round_robin(teams), 1):
        rnd = Round.objects.create(stage=stage, number=number)
        Match.objects.bulk_create(
            Match(stage=stage, round=rnd, pool=pool, table_number=table_base + i, team_a_id=a, team_b_id=b,
                  best_of=best_of)
            for i, (a, b) in enumerate(pairs, 1)
        )


def bracket_of(stage: Stage):
    qualifiers = [Qualifier(pool=p, place=pl, team=t) for p, pl, t in stage.settings["qualifiers"]]
    return knockout_bracket(qualifiers, third_place=stage.settings.get("third_place", False))


def series_winners(stage: Stage) -> dict[str, int]:
    winners = {}
    for match in stage.matches.select_related("sheet"):
        sheet = getattr(match, "sheet", None)
        if sheet is not None and sheet.derived.get("finished"):
            winners[match.key] = match.team_a_id if sheet.derived["winner"] == "a" else match.team_b_id
    return winners


def sync_bracket(stage: Stage) -> None:
    """Put the teams known so far into the knockout matches that have no result yet."""
    teams = resolve_matches(bracket_of(stage), series_winners(stage))
    for match in stage.matches.filter(sheet__isnull=True):
        team_a, team_b = teams[match.key]
        if (match.team_a_id, match.team_b_id) != (team_a, team_b):
            match.team_a_id, match.team_b_id = team_a, team_b
            match.save(update_fields=["team_a", "team_b"])


def record_series(match: Match, *, by, games: list[dict], expected_version: int | None = None, reason: str = "",
                  decide: bool = False):
    """Enter the games of a best-of-N series so far; the series ends when a team has won enough."""
    tournament = match.stage.tournament
    if match.team_a_id is None or match.team_b_id is None:
        raise DomainError(_("The teams of this match are not known yet."))
    derive = derive_slip(rules_settings(tournament), match.best_of)
    # One transaction: the public pages' cache version (the newest audit entry) must never
    # be seen with the bracket not yet advanced.
    with transaction.atomic():
        sheet = record_sheet(tournament=tournament, match=match, entries=games, derive=derive, by=by,
                             expected_version=expected_version, reason=reason, decide=decide)
        if sheet.counted:
            _after_series(tournament, match, by)
    return sheet


def _after_series(tournament, match: Match, by) -> None:
    if match.stage.kind == Stage.Kind.KNOCKOUT and match.stage.settings.get("semifinal") != "round_robin":
        sync_bracket(match.stage)
    elif match.stage.kind == Stage.Kind.SEMIFINAL_POOL:
        _final_after_semifinal_pool(tournament, by)


def _final_after_semifinal_pool(tournament, by) -> None:
    """Once every semifinal series is decided: 1st v 2nd in the final, 3rd v 4th for third place."""
    from .standings import pool_tables

    stage = knockout_stage(tournament)
    pool_stage = Stage.objects.get(tournament=tournament, kind=Stage.Kind.SEMIFINAL_POOL)
    if stage.matches.exists():
        return
    table = pool_tables(tournament, pool_stage)[0]
    if not table.complete:
        return
    order = [row.participant for row in table.rows]
    best_of = rules_settings(tournament).best_of
    Match.objects.create(stage=stage, key="F", best_of=best_of, team_a_id=order[0], team_b_id=order[1])
    if stage.settings.get("third_place"):
        Match.objects.create(stage=stage, key="3P", best_of=best_of, team_a_id=order[2], team_b_id=order[3])
    log_action("knockout.final", by=by, tournament=tournament, obj=tournament,
               after={"semifinal_pool_order": order})
    sync_status(tournament, by=by)  # the final is expected now: running again
