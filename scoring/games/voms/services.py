"""Voms at the referee table: teams, the pool draw, the schedule, slips, the knockout.

Each function is one operation: it checks who asks, runs in a transaction, writes the
audit log and raises `DomainError` with a translated message. The rules themselves live
in `scoring.rules.voms` and the draws in `tournament.draw`.
"""

from __future__ import annotations

import datetime
import functools
import json
import random
import secrets
from dataclasses import dataclass, replace
from decimal import Decimal

from django.db import models, transaction
from django.db.models import Exists, Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.games import game_of
from scoring.models import PendingSheet, ScoreSheet
from scoring.progress import ResultProgress, counted_progress, expected_places, is_finished, is_finished_text
from scoring.rules import voms as rules
from scoring.rules.base import RuleError, gettext_noop
from scoring.services.sheets import FIRST, confirm_pending, record_sheet, rule_message
from scoring.services.tablelinks import record_table_entry
from tournament.backup import schedule_backup_after_round
from tournament.draw.bracket import Qualifier, knockout_bracket, resolve_matches, semifinal_round_robin
from tournament.draw.pools import draw_pools as draw_pool_lists
from tournament.draw.pools import pool_name
from tournament.draw.roundrobin import round_robin
from tournament.imports import ImportFileError, read_table, refuse_after_play
from tournament.models import Draw, Match, Participant, Pool, PoolEntry, Round, Stage, Team
from tournament.permissions import is_director
from tournament.queries import exists_any, holds
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.participants import (
    ImportReport,
    name_warnings,
    new_player,
    next_team_number,
    refuse_team_after_play,
    register_team,
    split_name,
)
from tournament.services.replay import claim
from tournament.services.text import same_name
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
    "sure_lus": rules.SURE_LUS,
    "max_lus": rules.LIMIT_LUS,
    # a best-of-3 series takes about an hour (digest "Tournament structure")
    "series_minutes": 60,
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
        sure_lus=int(s["sure_lus"]),
        max_lus=int(s["max_lus"]),
    )


def _require_director(by, tournament) -> None:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can do this."))


def _refuse(error: RuleError) -> DomainError:
    return DomainError(rule_message(error), field=error.field)


def play_started(tournament) -> bool:
    # a first entry awaiting confirmation (double entry) counts too: a redraw would delete it
    return exists_any(tournament, ScoreSheet.objects.filter(tournament=tournament),
                      PendingSheet.objects.filter(tournament=tournament))


def update_settings(tournament, *, by, changes: dict, reason: str = "") -> dict:
    _require_director(by, tournament)
    merged = {**settings_of(tournament), **changes}
    try:
        rules.VomsSettings(
            win_points=Decimal(str(merged["win_points"])), kam_points=Decimal(str(merged["kam_points"])),
            over_points=Decimal(str(merged["over_points"])), target=int(merged["target"]),
            max_absences=int(merged["max_absences"]), best_of=int(merged["best_of"]),
            sure_lus=int(merged["sure_lus"]), max_lus=int(merged["max_lus"]),
        )
    except RuleError as error:
        raise _refuse(error) from error
    scoring_keys = {"win_points", "kam_points", "over_points", "target", "max_absences"}
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


def _refuse_after_draw(tournament) -> None:
    if Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).exists():
        raise DomainError(_("The pools are drawn already: redo the draw after changing the teams."))


def register_individual(tournament, *, by, name: str, sent=None) -> Participant:
    """A player without a partner yet: partners are drawn by lot (`draw_partners`)."""
    _require_director(by, tournament)
    refuse_team_after_play(tournament)  # a player without a partner would play in no team and no pool
    if not name.strip():
        raise DomainError(_("Type the player's name."), field="name")
    with transaction.atomic():
        claim(sent, by=by, action="participant.add", what=name.strip())
        player = new_player(tournament, *split_name(name))
        log_action("participant.add", by=by, tournament=tournament, obj=player, after={"name": player.name})
    return player


def players_without_team(tournament):
    return tournament.participants.filter(status=Participant.Status.ACTIVE, teams__isnull=True).order_by("number")


def draw_partners(tournament, *, by, seed: int | None = None, sent=None) -> list[Team]:
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
        claim(sent, by=by, action="draw.partners", what=_("Partners drawn: %(count)s teams.")
              % {"count": (len(players) + 1) // 2})
        Draw.objects.create(tournament=tournament, kind=Draw.Kind.PARTNERS, seed=seed, created_by=by,
                            params={"players": [p.pk for p in players]})
        for i in range(0, len(players), 2):
            pair = players[i:i + 2]
            team = Team.objects.create(tournament=tournament, number=next_team_number(tournament),
                                       name=" & ".join(p.name for p in pair))
            team.members.set(pair)
            teams.append(team)
        log_action("draw.partners", by=by, tournament=tournament, obj=tournament,
                   after={"seed": seed, "teams": [t.name for t in teams]})
    return teams


#: what the "seeded" column may say (any case); anything else is refused with its row
SEEDED_YES = frozenset({"1", "x", "yes", "y", "ja", "j", "true"})
SEEDED_NO = frozenset({"", "0", "no", "n", "nein", "nej", "false", "-"})


def import_teams(tournament, filename: str, data: bytes, *, by, sent=None,
                 confirm_duplicates: bool = False) -> ImportReport:
    """Teams from a list with the columns team, player 1, player 2 (optional), seeded (optional).

    A list without a team column is read as individual players (first name, last name), to be
    paired by `draw_partners`. If any row is rejected, nothing is imported. A player's name twice (in the list
    or registered already), or a team whose players are those of a team registered already under another name,
    holds the import back with a warning until the director confirms it (`confirm_duplicates`).
    """
    _require_director(by, tournament)
    report = ImportReport()
    try:
        refuse_after_play(tournament)
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
    names = []  # (row, a player's full name): each checked for a second registration
    for row_number, row in parsed.rows:
        if as_teams:
            players = [row.get("player1", ""), row.get("player2", "")]
            players = [p for p in players if p]
            name = row.get("team", "") or " & ".join(players)
            seeded = row.get("seeded", "").lower()
            if not players:
                report.rejected.append((row_number, _("The team has no players.")))
            elif name.lower() in seen:
                report.rejected.append((row_number, _("There is a team called “%(name)s” already.") % {"name": name}))
            elif seeded not in SEEDED_YES | SEEDED_NO:
                report.rejected.append((row_number, _(
                    "“%(value)s” in the column Seeded: write yes (or x, 1) for a seeded team, no or nothing "
                    "for the others.") % {"value": row["seeded"]}))
            else:
                seen.add(name.lower())
                wanted.append((row_number, name, players, seeded in SEEDED_YES))
                names += [(row_number, player) for player in players]
        elif not row.get("last_name"):
            report.rejected.append((row_number, _("The last name is missing.")))
        else:
            name = f"{row.get('first_name', '')} {row['last_name']}"
            wanted.append((row_number, None, [name], False))
            names.append((row_number, name))
    if report.rejected:
        return report
    report.warnings = sorted(name_warnings(names, tournament) + _same_players_warnings(tournament, wanted),
                             key=lambda item: item[0])
    if report.warnings and not confirm_duplicates:
        return report
    with transaction.atomic():
        claim(sent, by=by, action="team.import", what=filename)
        for _row, name, players, seeded in wanted:
            if name is None:
                report.created.append(register_individual(tournament, by=by, name=players[0]))
            else:
                team = register_team(tournament, by=by, name=name, players=players, seeded=seeded,
                                     confirm_duplicate=True, imported_from=filename)  # rows checked above
                report.created.extend(team.members.all())
                report.teams += 1
        log_action("team.import", by=by, tournament=tournament, obj=tournament,
                   after={"file": filename, "teams": report.teams, "players": len(report.created)},
                   reason=_("the warnings about names in the list, confirmed") if report.warnings else "")
    return report


def _same_players_warnings(tournament, wanted) -> list[tuple[int, str]]:
    """A team of the list whose players are those of a team registered already (or of an earlier row) under
    another name: most likely one team registered twice."""
    def players_key(names) -> frozenset:
        return frozenset(same_name(n) for n in names)

    known = {}
    for team in tournament.teams.filter(withdrawn=False).prefetch_related("members").order_by("number"):
        known.setdefault(players_key(p.name for p in team.members.all()), _("team %(number)s “%(name)s”")
                         % {"number": team.number, "name": team.name})
    warnings = []
    for row_number, name, players, _seeded in wanted:
        if name is None:
            continue
        key = players_key(players)
        if key in known:
            warnings.append((row_number, _("“%(name)s” has the same players as %(team)s.")
                             % {"name": name, "team": known[key]}))
        else:
            known[key] = _("row %(row)s “%(name)s”") % {"row": row_number, "name": name}
    return warnings


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
        names = {t.pk: t.name for t in teams}  # the log names the teams as they are called now, not by their ids
        log_action("draw.pools", by=by, tournament=tournament, obj=tournament, after={
            "seed": seed, "pools": {pool_name(i): [names[pk] for pk in ids] for i, ids in enumerate(drawn)}})
        sync_status(tournament, by=by)
    return stage


def teams_without_pool(tournament) -> list[Team]:
    """Active teams registered after the pool draw: they play in no pool until the draw is redone."""
    stage = Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).first()
    if stage is None:
        return []
    return list(active_teams(tournament).exclude(pool_entries__pool__stage=stage))


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


def current_round(stage: Stage) -> Round | None:
    """The first round with a game still waiting for its slip (or the last round).

    In the pool stage the games a disqualification decides (forfeits and void games) count as
    entered, so the current round moves on past them.
    """
    if stage.kind == Stage.Kind.POOLS:
        number = pool_state(stage.tournament, stage).derivation.first_open_round()
        if number is not None:
            return stage.rounds.filter(number=number).first()
        return stage.rounds.order_by("-number").first()
    open_round = (
        Round.objects.filter(stage=stage, matches__team_b__isnull=False, matches__sheet__isnull=True)
        .order_by("number").first()
    )
    return open_round or stage.rounds.order_by("-number").first()


# --- Absences and disqualification ------------------------------------------------------------


@dataclass(frozen=True)
class PoolMatch:
    """A pool game (not a bye) as read for the absence rule: plain values, no model instances."""

    pk: int
    team_a_id: int
    team_b_id: int
    pool_id: int
    round_number: int
    #: the slip's derived values (None: no slip yet)
    derived: dict | None
    #: the side the slip marks absent
    absent: str | None
    #: the round each team was withdrawn from (None: it was not)
    withdrawn_a: int | None = None
    withdrawn_b: int | None = None


@dataclass(frozen=True)
class PoolState:
    """Every pool game with what it counts as after the absence rule (`rules.derive_pool`)."""

    matches: list[PoolMatch]
    derivation: rules.PoolDerivation

    @property
    def disqualified(self) -> dict[int, int]:
        return self.derivation.disqualified

    @property
    def withdrawals(self) -> dict[int, int]:
        """Team -> the round it was withdrawn from, as the director set it (`derivation.withdrawn`: as it counts)."""
        return withdrawals_of(self.matches)

    @functools.cached_property
    def marks(self) -> dict[int, str]:
        """Team -> how it is marked wherever it appears: "disqualified in round 3", "withdrawn from round 3"."""
        return team_marks(self.derivation)

    def result(self, match_pk: int) -> rules.SlotResult | None:
        return self.derivation.results.get(match_pk)


def _stored_score(derived_game: dict) -> rules.GameScore:
    return rules.GameScore(
        lus_a=derived_game["lus_a"], lus_b=derived_game["lus_b"], winner=derived_game["winner"],
        points_a=_decimal(derived_game["points_a"]), points_b=_decimal(derived_game["points_b"]),
        kind=derived_game["kind"],
    )


@functools.lru_cache(maxsize=64)
def _decimal(text: str) -> Decimal:
    """A stored points value ("2", "2.5", "1.5", "0"): a handful of distinct values for thousands of games."""
    return Decimal(text)


def _absent_side(entries_text: str | None) -> str | None:
    # Absences are rare: a slip whose text does not mention one is not decoded at all.
    if entries_text is None or '"absent"' not in entries_text:
        return None
    entries = json.loads(entries_text)
    entry = entries[0] if isinstance(entries, list) and entries else {}
    side = entry.get("absent") if isinstance(entry, dict) else None
    return side if side in ("a", "b") else None


def slot_of(match: PoolMatch) -> rules.PoolSlot:
    slip = _stored_score(match.derived["games"][0]) if match.derived else None
    return rules.PoolSlot(match.pk, match.round_number, match.team_a_id, match.team_b_id, slip, match.absent)


def read_pool_matches(stage: Stage) -> list[PoolMatch]:
    """Every pool game of `stage` with its slip, in one query (the slips' JSON read as text, decoded at once)."""
    rows = list(
        Match.objects.filter(stage=stage, team_b__isnull=False)
        .order_by("round__number", "table_number", "pk")
        .values_list("pk", "team_a_id", "team_b_id", "pool_id", "round__number",
                     Cast("sheet__derived", TextField()), Cast("sheet__entries", TextField()),
                     "team_a__withdrawn_from_round", "team_b__withdrawn_from_round")
    )
    # 2,400 separate decodes (Django's JSONField converter) were a third of the standings' time for 200 teams.
    derived = json.loads(f"[{','.join(row[5] or 'null' for row in rows)}]")
    return [PoolMatch(*row[:5], d, _absent_side(row[6]), *row[7:]) for row, d in zip(rows, derived, strict=True)]


def withdrawals_of(matches: list[PoolMatch]) -> dict[int, int]:
    """Team -> the round it was withdrawn from, read off the pool games (the same query, no second one)."""
    out = {}
    for m in matches:
        if m.withdrawn_a is not None:
            out[m.team_a_id] = m.withdrawn_a
        if m.withdrawn_b is not None:
            out[m.team_b_id] = m.withdrawn_b
    return out


def pool_state(tournament, stage: Stage | None = None) -> PoolState:
    """The pool stage's games after the absence rule and the withdrawals; empty before the draw."""
    stage = stage or Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).first()
    matches = read_pool_matches(stage) if stage is not None else []
    return PoolState(matches, rules.derive_pool([slot_of(m) for m in matches], rules_settings(tournament),
                                                withdrawals_of(matches)))


def disqualified_note(round_number: int) -> str:
    """How a disqualified team is marked wherever it appears."""
    return _("disqualified in round %(round)s") % {"round": round_number}


def withdrawn_note(round_number: int) -> str:
    """How a team that left the evening is marked wherever it appears (voms.md "a team leaves early")."""
    return _("withdrawn from round %(round)s") % {"round": round_number}


def team_marks(derivation: rules.PoolDerivation) -> dict[int, str]:
    """Team -> its mark: disqualified in round N, or withdrawn from round N."""
    marks = {team: withdrawn_note(rnd) for team, rnd in derivation.withdrawn.items()}
    marks.update((team, disqualified_note(rnd)) for team, rnd in derivation.disqualified.items())
    return marks


def with_note(name: str, marks: dict[int, str], team_id) -> str:
    """A team's name, marked when it was disqualified or withdrawn (`PoolState.marks`)."""
    mark = marks.get(team_id)
    return name if mark is None else f"{name} ({mark})"


def disqualifications(tournament) -> dict[int, int]:
    """Team id -> the round of the absence that disqualified it (pool games only)."""
    return pool_state(tournament).disqualified


def marks_of(tournament) -> dict[int, str]:
    """Team id -> its mark ("disqualified in round 3", "withdrawn from round 3")."""
    return pool_state(tournament).marks


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
                            confirm_low_winner=bool(entry.get("confirm_low_winner")),
                            confirm_high_lus=bool(entry.get("confirm_high_lus")), settings=settings)


def _game_dict(game: rules.GameScore) -> dict:
    return {"lus_a": game.lus_a, "lus_b": game.lus_b, "winner": game.winner, "kind": game.kind,
            "points_a": str(game.points_a), "points_b": str(game.points_b)}


def slip_entry(*, lus_a=None, lus_b=None, winner=None, confirm_low_winner=False, confirm_high_lus=False,
               absent=None) -> dict:
    """The raw entry as the slip says it (what is stored)."""
    if absent:
        return {"absent": absent}
    entry = {"lus_a": lus_a, "lus_b": lus_b}
    if winner:
        entry["winner"] = winner
    if confirm_low_winner:
        entry["confirm_low_winner"] = True
    if confirm_high_lus:
        entry["confirm_high_lus"] = True
    return entry


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


def _slip_counted(tournament, match: Match, sheet, state: PoolState, after, added, by) -> None:
    """What a stored pool slip changed (`sheet.disqualified`, `sheet.reinstated`), and what follows once it counts."""
    sheet.disqualified, sheet.reinstated = {}, {}
    if sheet.counted:
        sheet.disqualified = added
        sheet.reinstated = {t: rnd for t, rnd in state.disqualified.items() if t not in after.disqualified}
        _after_slip(tournament, match, sheet, by)


def is_series(match: Match) -> bool:
    """A knockout match or a semifinal round robin's match: a best-of-N series (a pool game is one slip)."""
    return match.stage.kind != Stage.Kind.POOLS


def enter_from_link(link, *, entries: list[dict], confirm_disqualify: bool = False):
    """What a table sends from its private link: a pool game's slip (one game) or a series' games so far.

    The same rules refuse the same entries as at the referee table, with the same messages; an absence that
    disqualifies asks the same confirmation. The result is a first entry awaiting confirmation, or (when the
    tournament lets table entries count at once) counted like the referee's entry; sending the same again
    changes nothing (`scoring.services.tablelinks.record_table_entry`).
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
                _after_series(tournament, match, None)
            return sheet
        if len(entries) != 1:
            raise DomainError(_("A pool slip holds one game."))
        state, after, added = _check_slip(match, entries[0], settings, confirm_disqualify=confirm_disqualify)
        sheet = record_table_entry(link, entries=entries, mode="games", derive=derive_slip(settings))
        _slip_counted(tournament, match, sheet, state, after, added, None)
    return sheet


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


def round_complete(tournament, rnd: Round) -> bool:
    """Every game of the round has its slip, or is decided by a disqualification."""
    open_game = Match.objects.filter(round=rnd, team_b__isnull=False, sheet__isnull=True)
    if holds(tournament, Q(Exists(open_game)) & ~Q(Exists(_pool_absences(tournament)))
             & ~Q(Exists(_withdrawn_teams(tournament)))):
        return False  # a game without its slip, nobody absent or withdrawn (so nobody out): it is missing
    state = pool_state(tournament, rnd.stage)
    return not any(slot.round == rnd.number for slot in state.derivation.missing())


def confirm_slip(match: Match, *, by, expected_version: int | None = None):
    """Double entry: a second person confirms the first entry of a slip (or series) as it stands."""
    tournament = match.stage.tournament
    derive = derive_slip(rules_settings(tournament), match.best_of if match.stage.kind != Stage.Kind.POOLS else 1)
    with transaction.atomic():
        before = pool_state(tournament, match.stage) if match.stage.kind == Stage.Kind.POOLS else None
        sheet = confirm_pending(tournament=tournament, match=match, derive=derive, by=by,
                                expected_version=expected_version)
        if before is not None:
            _first_entry_counted(tournament, match, sheet, before, by)
        else:
            _after_series(tournament, match, by)
    return sheet


# --- Knockout ---------------------------------------------------------------------------------



def _first_entry_counted(tournament, match: Match, sheet, before: PoolState, by) -> None:
    """A pool slip's first entry counts now (confirmed, or let count by a director): what it changed, from the
    pool before it (`before`) and after it, and what follows."""
    after = pool_state(tournament, match.stage).disqualified
    sheet.disqualified = {t: r for t, r in after.items() if before.disqualified.get(t) != r}
    sheet.reinstated = {t: r for t, r in before.disqualified.items() if t not in after}
    _after_slip(tournament, match, sheet, by)

def knockout_stage(tournament) -> Stage | None:
    return Stage.objects.filter(tournament=tournament, kind=Stage.Kind.KNOCKOUT).first()


def knockout_played(tournament) -> bool:
    """Whether a knockout result (or a first entry awaiting confirmation) exists: then it cannot be rebuilt."""
    stages = Stage.objects.filter(tournament=tournament, kind__in=[Stage.Kind.KNOCKOUT, Stage.Kind.SEMIFINAL_POOL])
    return (ScoreSheet.objects.filter(match__stage__in=stages).exists()
            or PendingSheet.objects.filter(match__stage__in=stages).exists())


def create_knockout(tournament, *, by, qualifiers: list[Qualifier], third_place: bool, semifinal: str,
                    qualifiers_per_pool: int | None = None, confirm_rebuild: bool = False) -> Stage:
    """Build the knockout from the qualifiers (decided by the pool standings).

    Rebuilding an existing knockout needs `confirm_rebuild=True`. The knockout's rounds are `Round`s
    with a slot of `series_minutes`, so the round clock runs them like the pool rounds.
    """
    _require_director(by, tournament)
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
                raise _refuse(error) from error
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


def bracket_of(stage: Stage):
    qualifiers = [Qualifier(pool=p, place=pl, team=t) for p, pl, t in stage.settings["qualifiers"]]
    return knockout_bracket(qualifiers, third_place=stage.settings.get("third_place", False))


def series_winners(stage: Stage, matches: list[Match] | None = None) -> dict[str, int]:
    """Match key -> the winning team of each decided series of `stage`; `matches`: the stage's matches with
    their sheets (`select_related("sheet")`), when the caller has read them already."""
    winners = {}
    for match in stage.matches.select_related("sheet") if matches is None else matches:
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
    _require_director(by, tournament)
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
        raise _refuse(error) from error
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
        _after_series(tournament, match, by)
    return saved


# --- Results entered ----------------------------------------------------------------------------


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


def _withdrawn_teams(tournament):
    """The teams withdrawn from a pool round on (`withdrawal.withdraw_team`): their games need no slip."""
    return Team.objects.filter(tournament=tournament, withdrawn_from_round__isnull=False)


def _pool_absences(tournament):
    """The pool slips that may record an absence (their text mentions one; `_absent_side` reads the same text).
    None: no team is absent anywhere, so none is disqualified and no game is decided without its slip."""
    return (ScoreSheet.objects.filter(match__stage__tournament=tournament, match__stage__kind=Stage.Kind.POOLS)
            .annotate(text=Cast("entries", TextField())).filter(text__contains='"absent"'))
