"""Voms standings from the stored slips: per pool, live, and the final ranking.

Reads every slip of the stage in one query and ranks with the pure rules; the number of
queries does not grow with the number of teams. The standings page that shows them (cached per version of the
tournament) is `scoring.games.voms.views.standings`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from django.db.models import F, TextField
from django.db.models.functions import Cast

from scoring.rules import voms as rules
from scoring.rules.standings import Standing
from tournament.draw.bracket import Qualifier
from tournament.models import Match, Pool, Stage, Team

from .queries import PoolState, bracket_of, knockout_stage, lot_seed, pool_state, rules_settings, series_winners


@dataclass
class PoolTable:
    pool: Pool
    rows: list[Standing]
    teams: dict[int, Team]
    #: (team_a, team_b) -> (lus_a, lus_b) for the cross-table
    results: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    complete: bool = False
    #: (team, opponent) pairs whose game is void (both teams out of it)
    void: set[tuple[int, int]] = field(default_factory=set)
    #: team -> the round it was disqualified in
    disqualified: dict[int, int] = field(default_factory=dict)
    #: team -> its mark wherever it appears ("disqualified in round 3", "withdrawn from round 3")
    marks: dict[int, str] = field(default_factory=dict)

    @property
    def decided_by_lot(self) -> bool:
        return any(r.by_lot for r in self.rows)


@dataclass(frozen=True)
class MatchRow:
    """What the standings need of a series match, read as plain values (no model instances)."""

    team_a_id: int
    team_b_id: int
    pool_id: int
    round_number: int | None
    derived: dict | None


def pool_tables(tournament, stage: Stage | None = None, *, state: PoolState | None = None) -> list[PoolTable]:
    """The pools of `stage` (the pool stage by default) ranked; `state`: the pool stage's games after the absence
    rule, when the caller has read them already (`pool_state`)."""
    stage = stage or Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).first()
    if stage is None:
        return []
    settings = rules_settings(tournament)
    # The teams, each with its pool and place in it, in one query: the standings never show players, and
    # the pool entries need not be objects of their own (200 fewer model instances for 200 teams).
    pools = list(stage.pools.all())
    teams_by_pool: dict[int, dict[int, Team]] = {pool.pk: {} for pool in pools}
    for team in (Team.objects.filter(pool_entries__pool__stage=stage)
                 .annotate(entry_pool=F("pool_entries__pool_id"), entry_position=F("pool_entries__position"))
                 .order_by("entry_pool", "entry_position")):
        teams_by_pool[team.entry_pool][team.pk] = team
    by_pool: dict[int, list[rules.PlayedGame]] = {p.pk: [] for p in pools}
    missing: dict[int, int] = {p.pk: 0 for p in pools}
    void: dict[int, set[tuple[int, int]]] = {p.pk: set() for p in pools}
    dq: dict[int, int] = {}
    marks: dict[int, str] = {}
    if stage.kind == Stage.Kind.POOLS:
        # The absence rule decides what each slip counts as (forfeits of disqualified teams, void games).
        state = pool_state(tournament, stage) if state is None else state
        dq, marks = state.disqualified, state.marks
        for match in state.matches:
            result = state.result(match.pk)
            if (game := result.played_game()) is not None:
                by_pool[match.pool_id].append(game)
            elif result.outcome == "void":
                void[match.pool_id] |= {(match.team_a_id, match.team_b_id), (match.team_b_id, match.team_a_id)}
            else:
                missing[match.pool_id] += 1
    else:
        rows = list(Match.objects.filter(stage=stage, team_b__isnull=False).values_list(
            "team_a_id", "team_b_id", "pool_id", "round__number", Cast("sheet__derived", TextField())))
        derived_values = json.loads(f"[{','.join(row[4] or 'null' for row in rows)}]")
        for row, derived in zip(rows, derived_values, strict=True):
            match = MatchRow(*row[:4], derived)
            if derived is not None and derived.get("finished"):
                by_pool[match.pool_id].append(series_as_game(match, derived, settings))
            else:
                missing[match.pool_id] += 1
    seed = lot_seed(tournament)
    tables = []
    for pool in pools:
        teams = teams_by_pool[pool.pk]  # in the pool's order (PoolEntry.position)
        games = by_pool[pool.pk]
        rows = rules.pool_standings(list(teams), games, seed=None if seed is None else f"{seed}:{pool.index}",
                                    settings=settings, lot_keys={pk: team.number for pk, team in teams.items()})
        results = {}
        for g in games:
            results[(g.team_a, g.team_b)] = (g.lus_a, g.lus_b)
            results[(g.team_b, g.team_a)] = (g.lus_b, g.lus_a)
        tables.append(PoolTable(pool, rows, teams, results, complete=missing[pool.pk] == 0, void=void[pool.pk],
                                disqualified={t: r for t, r in dq.items() if t in teams},
                                marks={t: m for t, m in marks.items() if t in teams}))
    return tables


def series_as_game(match, derived: dict, settings: rules.VomsSettings) -> rules.PlayedGame:
    """A decided semifinal-pool series, counted as one won match with its total lus."""
    lus_a = sum(g["lus_a"] for g in derived["games"])
    lus_b = sum(g["lus_b"] for g in derived["games"])
    winner = derived["winner"]
    points = (Decimal(1), Decimal(0)) if winner == "a" else (Decimal(0), Decimal(1))
    return rules.PlayedGame(match.team_a_id, match.team_b_id, lus_a, lus_b, winner, *points)


def final_ranking(tournament, tables: list[PoolTable] | None = None, *,
                  knockout: Stage | None | Literal[False] = False) -> list[tuple[int, Team, str]]:
    """(place, team, how) from the knockout down, then the rest by their pool places.

    Places 1 and 2 from the final; 3 from the third-place match (or both semifinal losers
    share 3rd); every other team follows by its pool place, then points, wins, lus difference.
    `knockout`: the knockout stage (or None) when the caller has read it already.
    """
    tables = pool_tables(tournament) if tables is None else tables
    pool_rank = {}
    for table in tables:
        for row in table.rows:
            v = row.values
            # a team without a pool result (no rank) after every ranked one
            place = row.rank if row.rank is not None else len(table.rows) + 1
            pool_rank[row.participant] = (place, -v["points"], -v["wins"], -v["lus_diff"], table.pool.index)
    # Every ranked team is in a pool table already: no second read of the teams.
    teams = {pk: team for table in tables for pk, team in table.teams.items()}
    placed: list[tuple[int, Team, str]] = []
    done: set[int] = set()
    stage = knockout_stage(tournament) if knockout is False else knockout
    if stage is not None:
        knockout_matches = list(stage.matches.select_related("sheet"))
        winners = series_winners(stage, knockout_matches)
        matches = {m.key: m for m in knockout_matches}
        final = matches.get("F")
        if final and "F" in winners:
            loser = final.team_b_id if winners["F"] == final.team_a_id else final.team_a_id
            placed += [(1, teams[winners["F"]], "final"), (2, teams[loser], "final")]
            done |= {winners["F"], loser}
            if "3P" in winners:
                third = matches["3P"]
                fourth = third.team_b_id if winners["3P"] == third.team_a_id else third.team_a_id
                placed += [(3, teams[winners["3P"]], "third_place"), (4, teams[fourth], "third_place")]
                done |= {winners["3P"], fourth}
            elif stage.settings.get("semifinal") == "round_robin":
                sf_stage = Stage.objects.get(tournament=tournament, kind=Stage.Kind.SEMIFINAL_POOL)
                for row in pool_tables(tournament, sf_stage)[0].rows[2:]:
                    placed.append((row.rank, teams[row.participant], "semifinal"))
                    done.add(row.participant)
            placed += knockout_losers(stage, matches, winners, teams, done)
    rest = sorted((t for t in pool_rank if t not in done), key=lambda t: pool_rank[t])
    position = len(placed) + 1
    for team_id in rest:
        placed.append((position, teams[team_id], "pool"))
        position += 1
    return placed


def knockout_losers(stage: Stage, matches: dict, winners: dict[str, int], teams: dict[int, Team],
                    done: set[int]) -> list[tuple[int, Team, str]]:
    """The losers of each bracket round below the final, by their real stage: the semifinal losers share 3rd
    (unless a match for third place placed them, `done`), the quarterfinal losers 5th, the round of 16's 9th …;
    `how` is "semifinal", "quarterfinal" or "round_of_16". Adds the placed teams to `done`."""
    if stage.settings.get("semifinal") == "round_robin":
        return []
    bracket = bracket_of(stage)
    placed = []
    place = 3
    total = len(bracket.rounds)
    for number in range(total - 1, 0, -1):  # the semifinals first, then the rounds before them
        size = 2 ** (total - number + 1)  # teams in that round
        how = {4: "semifinal", 8: "quarterfinal"}.get(size, f"round_of_{size}")
        for bracket_match in bracket.rounds[number - 1]:
            m = matches.get(bracket_match.id)
            if m is None or bracket_match.id not in winners or m.team_a_id is None or m.team_b_id is None:
                continue
            loser = m.team_b_id if winners[bracket_match.id] == m.team_a_id else m.team_a_id
            if loser not in done:
                placed.append((place, teams[loser], how))
                done.add(loser)
        place += size // 2
    return placed


def qualifiers_from(tables: list[PoolTable], per_pool: int) -> list:
    """The knockout's teams: the best `per_pool` of each pool by rank, passing over the teams out of the
    tournament (withdrawn from a round, or disqualified; voms.md): they left or may not play on, so the next
    team of the pool takes the place. `place` is the place among the qualifiers of the pool (1, 2, …)."""
    qualifiers = []
    for table in tables:
        ranked = [row for row in table.rows if row.rank is not None and row.participant not in table.marks]
        qualifiers += [Qualifier(pool=table.pool.index, place=place, team=row.participant)
                       for place, row in enumerate(ranked[:per_pool], 1)]
    return qualifiers
