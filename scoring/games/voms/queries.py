"""Voms read helpers: the settings in force, the stages, the pool games after the absence rule (`pool_state`), the
knockout's series and rounds. Nothing here writes; services, standings, documents and pages build on these."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from scoring.models import PendingSheet, ScoreSheet
from scoring.rules import voms as rules
from tournament.draw.bracket import Qualifier, knockout_bracket, round_name
from tournament.models import Draw, Match, Participant, Round, Stage, Team
from tournament.queries import exists_any

from .text import team_marks

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
    # a best-of-3 series takes about an hour (docs/rules/voms.md)
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


def play_started(tournament) -> bool:
    # a first entry awaiting confirmation (double entry) counts too: a redraw would delete it
    return exists_any(tournament, ScoreSheet.objects.filter(tournament=tournament),
                      PendingSheet.objects.filter(tournament=tournament))


# --- Teams and stages ---------------------------------------------------------------------------------


def active_teams(tournament):
    return tournament.teams.filter(withdrawn=False).order_by("number")


def players_without_team(tournament):
    return tournament.participants.filter(status=Participant.Status.ACTIVE, teams__isnull=True).order_by("number")


def teams_without_pool(tournament) -> list[Team]:
    """Active teams registered after the pool draw: they play in no pool until the draw is redone."""
    stage = Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).first()
    if stage is None:
        return []
    return list(active_teams(tournament).exclude(pool_entries__pool__stage=stage))


def pools_stage(tournament) -> Stage | None:
    return Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).first()


def knockout_stage(tournament) -> Stage | None:
    return Stage.objects.filter(tournament=tournament, kind=Stage.Kind.KNOCKOUT).first()


def knockout_played(tournament) -> bool:
    """Whether a knockout result (or a first entry awaiting confirmation) exists: then it cannot be rebuilt."""
    stages = Stage.objects.filter(tournament=tournament, kind__in=[Stage.Kind.KNOCKOUT, Stage.Kind.SEMIFINAL_POOL])
    return (ScoreSheet.objects.filter(match__stage__in=stages).exists()
            or PendingSheet.objects.filter(match__stage__in=stages).exists())


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


def lot_seed(tournament) -> int | None:
    draw = Draw.objects.filter(tournament=tournament, kind=Draw.Kind.POOLS).order_by("-created", "-id").first()
    return draw.seed if draw else None


# --- The pool games after the absence rule -------------------------------------------------------------


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


def disqualifications(tournament) -> dict[int, int]:
    """Team id -> the round of the absence that disqualified it (pool games only)."""
    return pool_state(tournament).disqualified


def marks_of(tournament) -> dict[int, str]:
    """Team id -> its mark ("disqualified in round 3", "withdrawn from round 3")."""
    return pool_state(tournament).marks


# --- The knockout -----------------------------------------------------------------------------------


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


def is_series(match: Match) -> bool:
    """A knockout match or a semifinal round robin's match: a best-of-N series (a pool game is one slip)."""
    return match.stage.kind != Stage.Kind.POOLS


def knockout_rounds(tournament) -> list[tuple[str, list[Match]]]:
    """The knockout matches grouped by round, with translated round names."""
    stage = knockout_stage(tournament)
    if stage is None:
        return []
    if stage.settings.get("semifinal") == "round_robin":
        sf = Stage.objects.filter(tournament=tournament, kind=Stage.Kind.SEMIFINAL_POOL).first()
        matches = list(Match.objects.filter(stage=sf).select_related("team_a", "team_b", "sheet"))
        finals = {m.key: m for m in stage.matches.select_related("team_a", "team_b", "sheet")}
        out = [(_("Semifinal round robin"), matches)]
        if "3P" in finals:
            out.append((_("Match for third place"), [finals["3P"]]))
        if "F" in finals:
            out.append((_("Final"), [finals["F"]]))
        return out
    bracket = bracket_of(stage)
    matches = {m.key: m for m in stage.matches.select_related("team_a", "team_b", "sheet")}
    out = []
    total = len(bracket.rounds)
    for number, rnd in enumerate(bracket.rounds, 1):
        message, params = round_name(number, total)
        out.append((_(message) % params, [matches[m.id] for m in rnd if m.id in matches]))
    if bracket.third_place is not None and "3P" in matches:
        out.insert(len(out) - 1, (_("Match for third place"), [matches["3P"]]))
    return out
