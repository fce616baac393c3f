"""Quad-Ominos: points per turn, a bonus for going out, first to 800 wins.

Rules digest: shared/rules/quad-ominos.md. Shapes shared with the other table games
(`GameSpec`, `HandResult`, `GameState`) are described in `tablegames.py`.

- `QuadSettings`: target 800, tiles dealt per player count, bonus 25, draw and pass
  penalties -20, at most 20 per tile; `QuadSettings.beginner()` is the 70-tile set without
  fives, played to 600 (at most 16 per tile).
- `turn_points(tile_sum, *, bonuses=0, draws=0, passes=0, settings=None) -> int`: one turn's
  signed points, for a sheet that records turns in detail.
- `QuadRound(turn_points, winner, remaining, tiles_left=None)`: each player's signed points
  from turns in the round, who laid all tiles (None: nobody could, no bonus), each other
  player's remaining tile sum, and optionally each player's tiles left (tightens validation).
- `score_round(entry, settings=None) -> HandResult`: turn points, plus for the winner the
  sum of everyone else's remaining tiles.
- `play(rounds, settings=None) -> GameState`: running totals; over when a total reaches the
  target; several past it: the highest total wins (equal: one more round). `max_rounds` ends a
  time-boxed game.

`SPECS` maps "quadominos" and "quadominos_beginner" to their `GameSpec`s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from .base import RuleError, gettext_noop
from .tablegames import (
    FAMILY_QUADOMINOS,
    FIELD_INT,
    FIELD_PLAYER,
    FIELD_SIGNED_INT,
    KIND_TABLE,
    EntryField,
    GameSpec,
    GameState,
    HandResult,
    Player,
    check_player_count,
    check_same_players,
    follow_game,
    is_whole_number,
)


def _default_deal() -> dict[int, int]:
    return {2: 15, 3: 10, 4: 8, 5: 7, 6: 6, 7: 6, 8: 6}


@dataclass(frozen=True)
class QuadSettings:
    """Every number of the digest, as a per-tournament setting; `tiles_each` keys are the player counts."""

    target: int = 800
    tiles_in_set: int = 125
    tiles_each: Mapping[int, int] = field(default_factory=_default_deal)
    start_bonus: int = 25
    bonus: int = 25
    draw_penalty: int = -20
    pass_penalty: int = -20
    max_per_tile: int = 20
    max_rounds: int | None = None

    @classmethod
    def beginner(cls, **overrides) -> QuadSettings:
        """The beginner set: 70 tiles without any 5, played to 600."""
        return replace(cls(target=600, tiles_in_set=70, max_per_tile=16), **overrides)

    @property
    def min_players(self) -> int:
        return min(self.tiles_each)

    @property
    def max_players(self) -> int:
        return max(self.tiles_each)

    def max_tiles_held(self, players: int) -> int:
        """The most tiles one player can hold: the deal plus the whole well."""
        # The other players' dealt tiles never reach this hand.
        return self.tiles_in_set - (players - 1) * self.tiles_each[players]


def turn_points(tile_sum: int, *, bonuses: int = 0, draws: int = 0, passes: int = 0,
                settings: QuadSettings | None = None) -> int:
    """One turn's signed points: the tile's sum, 25 per bonus, -20 per tile drawn and per pass."""
    settings = settings or QuadSettings()
    return tile_sum + bonuses * settings.bonus + draws * settings.draw_penalty + passes * settings.pass_penalty


@dataclass(frozen=True)
class QuadRound:
    """One round as the table writes it (see the module docstring)."""

    turn_points: Mapping[Player, int]
    winner: Player | None
    remaining: Mapping[Player, int]
    tiles_left: Mapping[Player, int] | None = None


def score_round(entry: QuadRound, settings: QuadSettings | None = None) -> HandResult:
    """Validate one round; each player's points are their turn points, the winner's plus the bonus.

    The bonus is the sum of all numbers on every other player's remaining tiles.
    """
    settings = settings or QuadSettings()
    players = list(entry.turn_points)
    check_player_count(len(players), settings.min_players, settings.max_players)
    _check_turn_points(entry.turn_points)
    if entry.winner is not None and entry.winner not in entry.turn_points:
        raise RuleError(
            "winner_not_at_table",
            gettext_noop("%(player)s is named as the round's winner but is not a player of this round."),
            field="winner",
            player=entry.winner,
        )
    remaining = _checked_remaining(entry, players, settings)
    points = dict(entry.turn_points)
    if entry.winner is not None:
        points[entry.winner] += sum(remaining.values())
    return HandResult(points=points, winner=entry.winner, blocked=entry.winner is None)


def _check_turn_points(turn_points: Mapping[Player, int]) -> None:
    for player, value in turn_points.items():
        if not is_whole_number(value):
            raise RuleError(
                "turn_points_invalid",
                gettext_noop(
                    "Points from turns must be a whole number (negative after penalties); %(player)s has "
                    "%(value)s."
                ),
                field="turn_points",
                player=player,
                value=value,
            )


def _checked_remaining(entry: QuadRound, players: list[Player], settings: QuadSettings) -> dict[Player, int]:
    """Each player's remaining tile sum (the winner's 0, whether written or not), validated."""
    remaining = {p: entry.remaining.get(p, 0) for p in players}
    unknown = [str(p) for p in entry.remaining if p not in entry.turn_points]
    if unknown:
        raise RuleError(
            "players_mismatch",
            gettext_noop("Remaining tiles are written for players not at this table: %(players)s."),
            field="remaining",
            players=", ".join(unknown),
        )
    missing = [str(p) for p in players if p != entry.winner and p not in entry.remaining]
    if missing:
        raise RuleError(
            "remaining_missing",
            gettext_noop("Enter the sum of the remaining tiles of %(players)s (0 when it is 0)."),
            field="remaining",
            players=", ".join(missing),
        )
    if entry.tiles_left is not None:
        check_same_players(players, entry.tiles_left, "tiles_left")
    for player in players:
        tiles = _tiles_held(entry, player, len(players), settings)
        value = remaining[player]
        if not is_whole_number(value) or value < 0:
            raise RuleError(
                "remaining_invalid",
                gettext_noop("The remaining tile sum must be a whole number of 0 or more; %(player)s has %(value)s."),
                field="remaining",
                player=player,
                value=value,
            )
        if value > settings.max_per_tile * tiles:
            raise RuleError(
                "remaining_too_high",
                gettext_noop(
                    "%(player)s cannot have %(value)s left on %(tiles)s tiles: a tile holds at most %(per_tile)s. "
                    "Check the entry."
                ),
                field="remaining",
                player=player,
                value=value,
                tiles=tiles,
                per_tile=settings.max_per_tile,
            )
    if entry.winner is not None and remaining[entry.winner] != 0:
        raise RuleError(
            "winner_has_tiles",
            gettext_noop(
                "%(player)s laid all tiles and won the round, so their remaining sum must be 0, not %(value)s."
            ),
            field="remaining",
            player=entry.winner,
            value=remaining[entry.winner],
        )
    return remaining


def _tiles_held(entry: QuadRound, player: Player, players: int, settings: QuadSettings) -> int:
    """The tiles `player` holds: as written, else the most that player could hold."""
    if entry.tiles_left is None:
        return settings.max_tiles_held(players)
    tiles = entry.tiles_left[player]
    if not is_whole_number(tiles) or not 0 <= tiles <= settings.max_tiles_held(players):
        raise RuleError(
            "tiles_left_invalid",
            gettext_noop(
                "%(player)s cannot hold %(value)s tiles; enter a whole number from 0 to %(max)s."
            ),
            field="tiles_left",
            player=player,
            value=tiles,
            max=settings.max_tiles_held(players),
        )
    if player == entry.winner and tiles != 0:
        raise RuleError(
            "winner_has_tiles_left",
            gettext_noop("%(player)s won the round by laying all tiles, so their tiles left must be 0, not %(value)s."),
            field="tiles_left",
            player=player,
            value=tiles,
        )
    return tiles


def play(rounds: Sequence[QuadRound], settings: QuadSettings | None = None) -> GameState:
    """Follow a game round by round; over at the target, the highest total wins."""
    settings = settings or QuadSettings()
    results = [score_round(r, settings) for r in rounds]
    players = list(results[0].points) if results else []
    for result in results[1:]:
        check_same_players(players, result.points, "turn_points")
    return follow_game(
        players,
        [r.points for r in results],
        lower_is_better=False,
        target=settings.target,
        max_hands=settings.max_rounds,
        tie_at_target_plays_on=True,
    )


_FIELDS = (
    EntryField("turn_points", gettext_noop("Points from turns"), gettext_noop("Turns"), FIELD_SIGNED_INT,
               per_player=True),
    EntryField("winner", gettext_noop("Laid all tiles"), gettext_noop("Out"), FIELD_PLAYER, per_player=False,
               required=False),
    EntryField("remaining", gettext_noop("Sum of remaining tiles"), gettext_noop("Left"), FIELD_INT, per_player=True),
    EntryField("tiles_left", gettext_noop("Tiles left"), gettext_noop("Tiles"), FIELD_INT, per_player=True,
               required=False),
)


def _spec(key: str, name: str, settings: QuadSettings) -> GameSpec:
    return GameSpec(
        key=key,
        name=name,
        family=FAMILY_QUADOMINOS,
        kind=KIND_TABLE,
        min_players=settings.min_players,
        max_players=settings.max_players,
        entry_class=QuadRound,
        entry_fields=_FIELDS,
        default_settings=settings,
        score_hand=score_round,
        play=play,
        lower_is_better=False,
    )


SPECS: dict[str, GameSpec] = {
    "quadominos": _spec("quadominos", gettext_noop("Quad-Ominos"), QuadSettings()),
    "quadominos_beginner": _spec(
        "quadominos_beginner", gettext_noop("Quad-Ominos (beginner set)"), QuadSettings.beginner()
    ),
}
