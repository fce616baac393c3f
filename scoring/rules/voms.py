"""Voms: what one game is worth, how a pool is ranked, and best-of-N series.

The rules as implemented: docs/rules/voms.md. Pure Python, no Django.

Public API
----------
`VomsSettings(win_points=2, kam_points=2.5, over_points=1.5, target=9, max_absences=2, best_of=3,
sure_lus=12, max_lus=20)`
    Per-tournament settings (points are `Decimal`); invalid values raise `RuleError`.
`score_game(lus_a, lus_b, winner=None, *, confirm_low_winner=False, confirm_high_lus=False, settings)`
    Validate the lus written on a slip and score it (normal 2, kam 2.5, over 1.5; 11:0 is "over");
    lus above `sure_lus` need `confirm_high_lus`, above `max_lus` are refused.
`forfeit(winner, settings) -> GameScore`
    The 9:0 awarded when the other team is absent (kind "forfeit", kam points).
`is_disqualified(absences, settings) -> bool`
    True once a team was absent more than `max_absences` rounds.
`PlayedGame(team_a, team_b, lus_a, lus_b, winner, points_a, points_b)`, `PlayedGame.from_score(a, b, score)`
    One scored pool game between two team ids, as the standings read it.
`pool_standings(team_ids, games, *, seed, settings) -> list[Standing]`
    Rank a pool: points, wins (pools of more than 2 teams), lus difference, games among the
    tied, lot. Each Standing's `values` holds the chain values and the display values
    "played", "wins", "lus_for", "lus_against".
`pool_chain(team_count, games) -> list[Metric]`, `POINTS`, `WINS`, `LUS_DIFF`, `H2H_KEY/H2H_NAME/H2H_ABBR`,
`DISPLAY_COLUMNS`
    The ranking chain and the extra columns, each with a translatable name and abbreviation.
`derive_pool(slots, settings, withdrawn={}) -> PoolDerivation`, `PoolSlot(key, round, team_a, team_b, slip, absent)`
    The absence rule over every pool game, in round order whatever the order of the slips: who is
    disqualified in which round, and what each game counts as ("missing", "as_entered",
    "disqualified_forfeit", "void"); a team withdrawn from round N (`withdrawn` {team: N}) is out from
    that round on as a disqualified team is. `newly_disqualified(before, after)` compares two derivations.
`series_state(games, best_of=3) -> SeriesState(wins_a, wins_b, winner, finished)`
    Where a best-of-N series stands; `check_series_game_allowed(games, best_of)` refuses a
    game after the series is decided.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from .base import RuleError, gettext_noop, is_whole_number, require_count, require_each_once
from .standings import Metric, Standing, rank

Side = Literal["a", "b"]
Kind = Literal["normal", "kam", "over", "forfeit"]
SIDES: tuple[Side, Side] = ("a", "b")

#: The highest value any lus setting may take (what fits the two-digit box on the slip).
MAX_LUS = 99
#: Plausible lus (docs/rules/voms.md): a game stops as soon as a team reaches the target and a trick
#: gives at most a few lus, so a team's lus above 12 need a confirmation and above 20 are refused.
SURE_LUS = 12
LIMIT_LUS = 20

GAME_NAME = gettext_noop("Voms")


def _check_best_of(best_of: object) -> None:
    if not is_whole_number(best_of) or best_of < 1 or best_of % 2 == 0:
        raise RuleError(
            "best_of_invalid",
            gettext_noop("A series must be best of an odd number of games (1, 3, 5, ...); got %(value)s."),
            field="best_of",
            value=best_of,
        )


@dataclass(frozen=True)
class VomsSettings:
    """Per-tournament Voms settings, shown to the director before play starts."""

    win_points: Decimal = Decimal("2")
    kam_points: Decimal = Decimal("2.5")
    over_points: Decimal = Decimal("1.5")
    target: int = 9
    max_absences: int = 2
    best_of: int = 3
    #: a team's lus above this need a confirmation at entry ("13 lus — are you sure?")
    sure_lus: int = SURE_LUS
    #: a team's lus above this are refused
    max_lus: int = LIMIT_LUS

    def __post_init__(self) -> None:
        for name in ("win_points", "kam_points", "over_points"):
            value = getattr(self, name)
            if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
                raise RuleError(
                    "points_setting_invalid",
                    gettext_noop("Points for a win must be a decimal number of 0 or more; got %(value)s."),
                    field=name,
                    value=value,
                )
        if not is_whole_number(self.target) or not 1 <= self.target <= MAX_LUS:
            raise RuleError(
                "target_setting_invalid",
                gettext_noop("The lus needed to win must be a whole number from 1 to %(max)s; got %(value)s."),
                field="target",
                max=MAX_LUS,
                value=self.target,
            )
        require_count(self.max_absences, "absences_setting_invalid",
                      gettext_noop("The number of allowed absences must be a whole number of 0 or more; got "
                                   "%(value)s."),
                      field="max_absences")
        _check_best_of(self.best_of)
        if not is_whole_number(self.sure_lus) or not self.target <= self.sure_lus <= MAX_LUS:
            raise RuleError(
                "sure_lus_setting_invalid",
                gettext_noop(
                    "The lus that need a confirmation must be a whole number from the lus needed to win "
                    "(%(target)s) to %(max)s; got %(value)s."
                ),
                field="sure_lus",
                target=self.target,
                max=MAX_LUS,
                value=self.sure_lus,
            )
        if not is_whole_number(self.max_lus) or not self.sure_lus <= self.max_lus <= MAX_LUS:
            raise RuleError(
                "max_lus_setting_invalid",
                gettext_noop(
                    "The most lus accepted must be a whole number from %(sure)s (the lus that need a "
                    "confirmation) to %(max)s; got %(value)s."
                ),
                field="max_lus",
                sure=self.sure_lus,
                max=MAX_LUS,
                value=self.max_lus,
            )


DEFAULT_SETTINGS = VomsSettings()


@dataclass(frozen=True)
class GameScore:
    """One game as written on the slip, with the winner and the points it is worth."""

    lus_a: int
    lus_b: int
    winner: Side
    points_a: Decimal
    points_b: Decimal
    kind: Kind


def _check_side(winner: object) -> None:
    if winner not in SIDES:
        raise RuleError(
            "winner_invalid",
            gettext_noop("The winner must be team A or team B; got %(value)s."),
            field="winner",
            value=winner,
        )


def _check_lus(value: object, field: str, settings: VomsSettings) -> None:
    if not is_whole_number(value):
        raise RuleError(
            "lus_not_whole",
            gettext_noop("Lus must be a whole number; got %(value)s. Enter the number written on the slip."),
            field=field,
            value=value,
        )
    if value < 0:
        raise RuleError(
            "lus_negative",
            gettext_noop("Lus cannot be negative; got %(value)s. Enter the number written on the slip."),
            field=field,
            value=value,
        )
    if value > settings.max_lus:
        raise RuleError(
            "lus_too_large",
            gettext_noop("%(value)s lus is more than any game can reach: at most %(max)s. Check the slip."),
            field=field,
            value=value,
            max=settings.max_lus,
        )


def _check_plausible(lus_a: int, lus_b: int, settings: VomsSettings) -> None:
    """Plausible lus (docs/rules/voms.md): above `sure_lus` is usually a typing error; asked, not refused."""
    high = max(lus_a, lus_b)
    if high > settings.sure_lus:
        raise RuleError(
            "lus_unlikely",
            gettext_noop("%(value)s lus — are you sure? A game stops at %(target)s; confirm it or correct the slip."),
            field="confirm_high_lus",
            value=high,
            target=settings.target,
        )


def _infer_winner(lus_a: int, lus_b: int, target: int) -> Side:
    """The winner when the slip names none: the only team that reached the target."""
    a_reached, b_reached = lus_a >= target, lus_b >= target
    if a_reached and b_reached:
        raise RuleError(
            "winner_required",
            gettext_noop(
                "Both teams have %(target)s lus or more (%(lus_a)s:%(lus_b)s), so the lus do not decide "
                "the game. Enter the winner written on the slip."
            ),
            field="winner",
            target=target,
            lus_a=lus_a,
            lus_b=lus_b,
        )
    if not (a_reached or b_reached):
        raise _no_team_at_target(lus_a, lus_b, target)
    return "a" if a_reached else "b"


def _no_team_at_target(lus_a: int, lus_b: int, target: int) -> RuleError:
    return RuleError(
        "no_team_at_target",
        gettext_noop(
            "Neither team has %(target)s lus (%(lus_a)s:%(lus_b)s), but a game ends only when a team "
            "reaches %(target)s. Check the slip."
        ),
        field="lus_a",
        target=target,
        lus_a=lus_a,
        lus_b=lus_b,
    )


def _check_named_winner(lus: dict[Side, int], winner: Side, target: int, confirm_low_winner: bool) -> None:
    loser: Side = "b" if winner == "a" else "a"
    if lus[winner] < target:
        if lus[loser] < target:
            raise _no_team_at_target(lus["a"], lus["b"], target)
        raise RuleError(
            "winner_below_target",
            gettext_noop(
                "The named winner has only %(lus)s lus, but a winner needs at least %(target)s. "
                "Check the winner and the lus on the slip."
            ),
            field="winner",
            lus=lus[winner],
            target=target,
        )
    # Legal under rule 45 (the other team overshot further), but usually a typing error.
    if lus[winner] < lus[loser] and not confirm_low_winner:
        raise RuleError(
            "low_winner_unconfirmed",
            gettext_noop(
                "The named winner has fewer lus (%(winner_lus)s) than the loser (%(loser_lus)s). "
                "This is possible only when the loser went over; confirm it or correct the slip."
            ),
            field="winner",
            winner_lus=lus[winner],
            loser_lus=lus[loser],
        )


def _classify(winner_lus: int, loser_lus: int, settings: VomsSettings) -> tuple[Kind, Decimal]:
    # Checked first on purpose: 11:0 is a win over the target, not a kam (docs/rules/voms.md).
    if winner_lus > settings.target:
        return "over", settings.over_points
    if loser_lus == 0:
        return "kam", settings.kam_points
    return "normal", settings.win_points


def _scored(lus_a: int, lus_b: int, winner: Side, kind: Kind, points: Decimal) -> GameScore:
    zero = Decimal("0")
    return GameScore(
        lus_a=lus_a,
        lus_b=lus_b,
        winner=winner,
        points_a=points if winner == "a" else zero,
        points_b=points if winner == "b" else zero,
        kind=kind,
    )


def score_game(
    lus_a: int,
    lus_b: int,
    winner: Side | None = None,
    *,
    confirm_low_winner: bool = False,
    confirm_high_lus: bool = False,
    settings: VomsSettings = DEFAULT_SETTINGS,
) -> GameScore:
    """Validate the final lus of one game and return what it is worth.

    `winner` may be left out when exactly one team reached the target; when both did, the
    slip's winner is required. A winner with fewer lus than the loser needs
    `confirm_low_winner=True`; lus above `settings.sure_lus` need `confirm_high_lus=True` (error
    code "lus_unlikely") and above `settings.max_lus` are refused. Raises `RuleError` (with
    `field`) for any entry the rules refuse.
    """
    _check_lus(lus_a, "lus_a", settings)
    _check_lus(lus_b, "lus_b", settings)
    if winner is None:
        winner = _infer_winner(lus_a, lus_b, settings.target)
    else:
        _check_side(winner)
        _check_named_winner({"a": lus_a, "b": lus_b}, winner, settings.target, confirm_low_winner)
    if not confirm_high_lus:
        _check_plausible(lus_a, lus_b, settings)
    winner_lus, loser_lus = (lus_a, lus_b) if winner == "a" else (lus_b, lus_a)
    kind, points = _classify(winner_lus, loser_lus, settings)
    return _scored(lus_a, lus_b, winner, kind, points)


def forfeit(winner: Side, settings: VomsSettings = DEFAULT_SETTINGS) -> GameScore:
    """The result awarded when the other team is absent: target:0 for `winner`, worth a kam."""
    _check_side(winner)
    lus_a, lus_b = (settings.target, 0) if winner == "a" else (0, settings.target)
    return _scored(lus_a, lus_b, winner, "forfeit", settings.kam_points)


def is_disqualified(absences: int, settings: VomsSettings = DEFAULT_SETTINGS) -> bool:
    """True when a team absent `absences` rounds is out: it may miss `max_absences`, not one more.

    docs/rules/voms.md: its earlier results stand and its later games are forfeits for the opponent.
    """
    require_count(absences, "absences_invalid",
                  gettext_noop("The number of absences must be a whole number of 0 or more; got %(value)s."),
                  field="absences")
    return absences > settings.max_absences


# --- Pool ranking -----------------------------------------------------------------------

TeamId = Hashable


@dataclass(frozen=True)
class PlayedGame:
    """A scored pool game between two teams, as the standings read it."""

    team_a: TeamId
    team_b: TeamId
    lus_a: int
    lus_b: int
    winner: Side
    points_a: Decimal
    points_b: Decimal

    @classmethod
    def from_score(cls, team_a: TeamId, team_b: TeamId, score: GameScore) -> PlayedGame:
        """Attach the two teams to a `GameScore` (from `score_game` or `forfeit`)."""
        return cls(team_a, team_b, score.lus_a, score.lus_b, score.winner, score.points_a, score.points_b)

    def sides(self) -> tuple[tuple[TeamId, int, int, Decimal, bool], tuple[TeamId, int, int, Decimal, bool]]:
        """Each team's view of the game: (team, lus for, lus against, points, won)."""
        return (
            (self.team_a, self.lus_a, self.lus_b, self.points_a, self.winner == "a"),
            (self.team_b, self.lus_b, self.lus_a, self.points_b, self.winner == "b"),
        )


POINTS = Metric("points", gettext_noop("Points"), gettext_noop("Pts"))
WINS = Metric("wins", gettext_noop("Wins"), gettext_noop("W"))
LUS_DIFF = Metric("lus_diff", gettext_noop("Lus difference"), gettext_noop("+/-"))
H2H_KEY = "h2h"
H2H_NAME = gettext_noop("Games among the tied")
H2H_ABBR = gettext_noop("H2H")

#: Display-only columns in each Standing's values: (key, name, abbreviation).
DISPLAY_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("played", gettext_noop("Played"), gettext_noop("P")),
    ("wins", WINS.name, WINS.abbr),
    ("lus_for", gettext_noop("Lus for"), gettext_noop("L+")),
    ("lus_against", gettext_noop("Lus against"), gettext_noop("L-")),
)


def _totals(team_ids: Iterable[TeamId], games: Iterable[PlayedGame]) -> dict[TeamId, dict[str, object]]:
    """Points, wins and lus per team over `games` (which must only involve `team_ids`)."""
    totals: dict[TeamId, dict[str, object]] = {
        t: {"points": Decimal("0"), "wins": 0, "played": 0, "lus_for": 0, "lus_against": 0} for t in team_ids
    }
    for game in games:
        for team, lus_for, lus_against, points, won in game.sides():
            row = totals[team]
            row["points"] += points
            row["wins"] += int(won)
            row["played"] += 1
            row["lus_for"] += lus_for
            row["lus_against"] += lus_against
    for row in totals.values():
        row["lus_diff"] = row["lus_for"] - row["lus_against"]
    return totals


def h2h_metric(games: Sequence[PlayedGame]) -> Metric:
    """Head-to-head: (points, lus difference) in the games among the teams still tied."""

    def among(group: frozenset) -> dict[TeamId, tuple[Decimal, int]]:
        inner = [g for g in games if g.team_a in group and g.team_b in group]
        totals = _totals(group, inner)
        return {t: (row["points"], row["lus_diff"]) for t, row in totals.items()}

    return Metric(H2H_KEY, H2H_NAME, H2H_ABBR, subset=among)


def pool_chain(team_count: int, games: Sequence[PlayedGame]) -> list[Metric]:
    """The ranking chain for a pool of `team_count` teams (lot follows at the end)."""
    # The source applies wins "with more than 2 teams in the group".
    chain = [POINTS, WINS] if team_count > 2 else [POINTS]
    return [*chain, LUS_DIFF, h2h_metric(games)]


def _check_pool_games(team_ids: Sequence[TeamId], games: Sequence[PlayedGame]) -> None:
    require_each_once(team_ids, "duplicate_team",
                      gettext_noop("Team %(team)s is listed twice in the pool. Remove the duplicate."),
                      field="team_ids", name="team")
    members = set(team_ids)
    for game in games:
        if game.team_a == game.team_b:
            raise RuleError(
                "team_plays_itself",
                gettext_noop("Team %(team)s cannot play against itself. Correct the game."),
                field="games",
                team=game.team_a,
            )
        for team in (game.team_a, game.team_b):
            if team not in members:
                raise RuleError(
                    "team_not_in_pool",
                    gettext_noop("Team %(team)s played a game in this pool but is not in it."),
                    field="games",
                    team=team,
                )


def pool_standings(
    team_ids: Sequence[TeamId],
    games: Sequence[PlayedGame],
    *,
    seed: int | str | None,
    settings: VomsSettings = DEFAULT_SETTINGS,
    lot_keys: Mapping[TeamId, Hashable] | None = None,
) -> list[Standing]:
    """Rank a pool from its played games (forfeits are 9:0 games and count in every column).

    Chain: points, wins (only with more than 2 teams), lus difference, games among the still
    tied (points, then lus difference in them), then lot from `seed` (marked `by_lot`).
    `seed=None` draws no lot: still-tied teams share a rank. `settings` does not change the
    ranking (each game's points were fixed when it was scored); it keeps the signature uniform.

    A team in no game yet (none played, no forfeit counted) has no result yet: it gets no rank (`rank` None)
    and follows the ranked teams in the pool's order, never ranked on zero points or by lot (a bye in round 1
    put a team above the teams that had lost).
    """
    team_ids = list(team_ids)
    games = list(games)
    _check_pool_games(team_ids, games)
    totals = _totals(team_ids, games)
    with_result = {team for game in games for team in (game.team_a, game.team_b)}
    ranked = [team for team in team_ids if team in with_result]
    chain = pool_chain(len(team_ids), games)
    rows = rank(ranked, chain, {team: totals[team] for team in ranked}, seed=seed, lot_keys=lot_keys) if ranked else []
    subset_keys = [metric.key for metric in chain if metric.subset is not None]
    return rows + [Standing(team, rank=None, values={**totals[team], **dict.fromkeys(subset_keys)})
                   for team in team_ids if team not in with_result]


# --- Best-of-N series ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesState:
    """Where a best-of-N series stands; `winner` is set once `finished`."""

    wins_a: int
    wins_b: int
    winner: Side | None
    finished: bool


def series_state(games: Sequence[GameScore], best_of: int = 3) -> SeriesState:
    """Count the wins in a series; it ends when a team has won more than half of `best_of`.

    Raises `RuleError` if a game was recorded after the series was already decided.
    """
    _check_best_of(best_of)
    needed = best_of // 2 + 1
    wins = {"a": 0, "b": 0}
    for number, game in enumerate(games, start=1):
        if max(wins.values()) >= needed:
            raise _series_decided(number - 1, best_of)
        _check_side(game.winner)
        wins[game.winner] += 1
    winner = next((side for side in SIDES if wins[side] >= needed), None)
    return SeriesState(wins["a"], wins["b"], winner, winner is not None)


def _series_decided(played: int, best_of: int) -> RuleError:
    return RuleError(
        "series_decided",
        gettext_noop(
            "This best-of-%(best_of)s series was already decided after %(played)s games; "
            "no further game can be recorded."
        ),
        field="games",
        best_of=best_of,
        played=played,
    )


def check_series_game_allowed(games: Sequence[GameScore], best_of: int = 3) -> None:
    """Raise `RuleError` when another game would be played in an already decided series."""
    if series_state(games, best_of).finished:
        raise _series_decided(len(games), best_of)


# --- Absences and disqualification ---------------------------------------------------------

Outcome = Literal["missing", "as_entered", "disqualified_forfeit", "void"]


@dataclass(frozen=True)
class PoolSlot:
    """One scheduled pool game (not a bye) as the disqualification rule reads it.

    `slip` is what the slip says (`score_game` or `forfeit`), None while no slip was entered;
    `absent` is the side the slip marks absent ("a"/"b"), None for a played game.
    """

    key: Hashable
    round: int
    team_a: TeamId
    team_b: TeamId
    slip: GameScore | None = None
    absent: Side | None = None


@dataclass(frozen=True)
class SlotResult:
    """What one pool game counts as after the disqualifications.

    outcome:
      "missing"               no slip yet, and the game still has to be played
      "as_entered"            the slip counts as written (an absence on it is a 9:0 forfeit)
      "disqualified_forfeit"  a team was disqualified in an earlier round (or withdrawn from this round
                              or an earlier one): `target`:0 for the opponent, whatever the slip says (its
                              typed lus stay in the history)
      "void"                  both teams out of it (both disqualified, or the opponent of a
                              disqualified team was absent too): no points, no win, no lus
    `game` is the score that counts (None for "missing" and "void"); `absent` lists the sides
    whose absence this game adds to their count; `disqualified` the sides already out (disqualified or
    withdrawn).
    """

    slot: PoolSlot
    outcome: Outcome
    game: GameScore | None
    absent: tuple[Side, ...] = ()
    disqualified: tuple[Side, ...] = ()

    @property
    def entered(self) -> bool:
        """True when nothing is left to enter for this game (a forfeit or void game counts as entered)."""
        return self.outcome != "missing"

    def played_game(self) -> PlayedGame | None:
        """The game as the pool standings count it; None when it counts for neither team."""
        if self.game is None:
            return None
        return PlayedGame.from_score(self.slot.team_a, self.slot.team_b, self.game)


@dataclass(frozen=True)
class PoolDerivation:
    """Every pool game's result after the absence rule, and who was disqualified in which round."""

    results: dict[Hashable, SlotResult]
    #: team -> the round of the absence that disqualified it
    disqualified: dict[TeamId, int]
    #: team -> the rounds it was counted absent, in order
    absences: dict[TeamId, tuple[int, ...]]
    #: team -> the round it was withdrawn from (it left the evening; docs/rules/voms.md), for the
    #: teams not disqualified before that round
    withdrawn: dict[TeamId, int] = field(default_factory=dict)

    def games(self) -> list[PlayedGame]:
        """The games the standings count (forfeits included, void and missing games left out)."""
        return [game for result in self.results.values() if (game := result.played_game()) is not None]

    def missing(self) -> list[PoolSlot]:
        """The games still waiting for a slip, in round order."""
        return [r.slot for r in self.results.values() if r.outcome == "missing"]

    def first_open_round(self) -> int | None:
        """The lowest round with a game still waiting for a slip (None when every game is entered)."""
        return min((slot.round for slot in self.missing()), default=None)


def derive_pool(slots: Iterable[PoolSlot], settings: VomsSettings = DEFAULT_SETTINGS,
                withdrawn: Mapping[TeamId, int] | None = None) -> PoolDerivation:
    """Apply the absence rule (docs/rules/voms.md, "Absences, disqualification, a team that leaves") to every pool game.

    A team may be absent `max_absences` rounds; its next absence disqualifies it in that round.
    "Later" is by round number, never by the order the slips were typed: the games are read in
    round order, so the result does not depend on the order of `slots`. From the round after
    the disqualification on, every game of the team is a `target`:0 forfeit for the opponent,
    even when the slip was typed with lus; if that opponent was absent too (the slip marks it
    absent), the opponent gets the absence (towards its own limit) and the game is void; two
    disqualified teams meeting: void. A disqualified team never gains a point, win or lus.
    A team withdrawn from round N (`withdrawn`) is out from round N on exactly so, its own games needing
    no slip; an absence of it in that round or later does not count (it is out already).
    """
    withdrawn = dict(withdrawn or {})
    ordered = sorted(slots, key=lambda slot: (slot.round, repr(slot.key)))
    seen: set[Hashable] = set()
    absences: dict[TeamId, list[int]] = {}
    disqualified: dict[TeamId, int] = {}
    results: dict[Hashable, SlotResult] = {}

    def is_out(team: TeamId, round_number: int) -> bool:
        return (disqualified.get(team, round_number) < round_number
                or withdrawn.get(team, round_number + 1) <= round_number)

    def count_absence(team: TeamId, round_number: int) -> None:
        rounds = absences.setdefault(team, [])
        rounds.append(round_number)
        if team not in disqualified and is_disqualified(len(rounds), settings):
            disqualified[team] = round_number

    for slot in ordered:
        if slot.key in seen:
            raise RuleError("duplicate_game", gettext_noop("The game %(key)s is listed twice."), field="games",
                            key=slot.key)
        seen.add(slot.key)
        if slot.absent is not None:
            _check_side(slot.absent)
        teams = {"a": slot.team_a, "b": slot.team_b}
        out = tuple(side for side in SIDES if is_out(teams[side], slot.round))
        if len(out) == 2:
            results[slot.key] = SlotResult(slot, "void", None, (), out)
        elif out:
            other: Side = "b" if out[0] == "a" else "a"
            if slot.absent == other:
                count_absence(teams[other], slot.round)
                results[slot.key] = SlotResult(slot, "void", None, (other,), out)
            else:
                results[slot.key] = SlotResult(slot, "disqualified_forfeit", forfeit(other, settings), (), out)
        elif slot.absent is not None:
            count_absence(teams[slot.absent], slot.round)
            present: Side = "b" if slot.absent == "a" else "a"
            results[slot.key] = SlotResult(slot, "as_entered", slot.slip or forfeit(present, settings), (slot.absent,))
        elif slot.slip is None:
            results[slot.key] = SlotResult(slot, "missing", None)
        else:
            results[slot.key] = SlotResult(slot, "as_entered", slot.slip)
    # a team disqualified before the round it was withdrawn from is shown as disqualified
    left = {team: rnd for team, rnd in withdrawn.items() if not disqualified.get(team, rnd) < rnd}
    return PoolDerivation(results, disqualified, {team: tuple(rounds) for team, rounds in absences.items()}, left)


def newly_disqualified(before: PoolDerivation, after: PoolDerivation) -> dict[TeamId, int]:
    """Teams disqualified (or disqualified in another round) in `after` but not so in `before`."""
    return {team: rnd for team, rnd in after.disqualified.items() if before.disqualified.get(team) != rnd}
