"""Voms: what one game is worth, how a pool is ranked, and best-of-N series.

The authority is the digest `shared/rules/voms.md`. Pure Python, no Django.

Public API
----------
`VomsSettings(win_points=2, kam_points=2.5, over_points=1.5, target=9, max_absences=2, best_of=3)`
    Per-tournament settings (points are `Decimal`); invalid values raise `RuleError`.
`score_game(lus_a, lus_b, winner=None, *, confirm_low_winner=False, settings) -> GameScore`
    Validate the lus written on a slip and score it (normal 2, kam 2.5, over 1.5; 11:0 is "over").
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
`series_state(games, best_of=3) -> SeriesState(wins_a, wins_b, winner, finished)`
    Where a best-of-N series stands; `check_series_game_allowed(games, best_of)` refuses a
    game after the series is decided.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from .base import RuleError, gettext_noop
from .standings import Metric, Standing, rank

Side = Literal["a", "b"]
Kind = Literal["normal", "kam", "over", "forfeit"]
SIDES: tuple[Side, Side] = ("a", "b")

#: Highest lus accepted on a slip. A game stops as soon as a team reaches the target, and
#: overshooting (rule 45) or playing on after a forgotten stop (rule 18) adds only a few lus,
#: so real results stay in the low teens. 99 is what fits the two-digit box on the slip;
#: anything larger is certainly a typing error.
MAX_LUS = 99

GAME_NAME = gettext_noop("Voms")


def _is_whole(value: object) -> bool:
    # bool is an int subclass, but True is never a lus count.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_best_of(best_of: object) -> None:
    if not _is_whole(best_of) or best_of < 1 or best_of % 2 == 0:
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
        if not _is_whole(self.target) or not 1 <= self.target <= MAX_LUS:
            raise RuleError(
                "target_setting_invalid",
                gettext_noop("The lus needed to win must be a whole number from 1 to %(max)s; got %(value)s."),
                field="target",
                max=MAX_LUS,
                value=self.target,
            )
        if not _is_whole(self.max_absences) or self.max_absences < 0:
            raise RuleError(
                "absences_setting_invalid",
                gettext_noop("The number of allowed absences must be a whole number of 0 or more; got %(value)s."),
                field="max_absences",
                value=self.max_absences,
            )
        _check_best_of(self.best_of)


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


def _check_lus(value: object, field: str) -> None:
    if not _is_whole(value):
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
    if value > MAX_LUS:
        raise RuleError(
            "lus_too_large",
            gettext_noop("%(value)s lus is more than any game can reach (at most %(max)s). Check the slip."),
            field=field,
            value=value,
            max=MAX_LUS,
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
    # Checked first on purpose: 11:0 is a win over the target, not a kam (digest Decision).
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
    settings: VomsSettings = DEFAULT_SETTINGS,
) -> GameScore:
    """Validate the final lus of one game and return what it is worth.

    `winner` may be left out when exactly one team reached the target; when both did, the
    slip's winner is required. A winner with fewer lus than the loser needs
    `confirm_low_winner=True`. Raises `RuleError` (with `field`) for any entry the rules refuse.
    """
    _check_lus(lus_a, "lus_a")
    _check_lus(lus_b, "lus_b")
    if winner is None:
        winner = _infer_winner(lus_a, lus_b, settings.target)
    else:
        _check_side(winner)
        _check_named_winner({"a": lus_a, "b": lus_b}, winner, settings.target, confirm_low_winner)
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

    Digest Decision: its earlier results stand and its later games are forfeits for the opponent.
    """
    if not _is_whole(absences) or absences < 0:
        raise RuleError(
            "absences_invalid",
            gettext_noop("The number of absences must be a whole number of 0 or more; got %(value)s."),
            field="absences",
            value=absences,
        )
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
    members: set[TeamId] = set()
    for team in team_ids:
        if team in members:
            raise RuleError(
                "duplicate_team",
                gettext_noop("Team %(team)s is listed twice in the pool. Remove the duplicate."),
                field="team_ids",
                team=team,
            )
        members.add(team)
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
) -> list[Standing]:
    """Rank a pool from its played games (forfeits are 9:0 games and count in every column).

    Chain: points, wins (only with more than 2 teams), lus difference, games among the still
    tied (points, then lus difference in them), then lot from `seed` (marked `by_lot`).
    `seed=None` draws no lot: still-tied teams share a rank. `settings` does not change the
    ranking (each game's points were fixed when it was scored); it keeps the signature uniform.
    """
    team_ids = list(team_ids)
    games = list(games)
    _check_pool_games(team_ids, games)
    return rank(team_ids, pool_chain(len(team_ids), games), _totals(team_ids, games), seed=seed)


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
