"""Quad-Ominos: points per turn, a bonus for going out, first to 800 wins.

The rules as implemented: docs/rules/quad-ominos.md. Shapes shared with the other table games
(`GameSpec`, `HandResult`, `GameState`) are described in `tablegames.py`.

- `QuadSettings`: target 800, tiles dealt per player count, bonus 25, draw and pass
  penalties -20, at most 20 per tile; `QuadSettings.beginner()` is the 70-tile set without
  fives, played to 600 (at most 16 per tile).
- `turn_points(tile_sum, *, starts=0, bonuses=0, draws=0, passes=0, settings=None) -> int`: one
  turn's signed points, for a sheet that records turns in detail.
- `parse_turns(text, settings=None) -> int`: a player's points from turns as typed at the referee
  table: a whole number (may be negative), or the turns the players noted, e.g. "18 b 12 d d" or
  "18+b+12-d-d": numbers are tile sums (0 to `max_per_tile`) and are added; `s` is the starting
  bonus, `b` a bonus placement, `d` a tile drawn, `p` a pass, each worth its setting (the penalties
  are negative settings, so `-d` and `d` both add `draw_penalty`). Letters in any case, separated by
  spaces, `+`, `-` or commas, or written together ("dd"). A minus before a tile sum is refused.
  The entry field `turn_points` is a `NotationField`: the form layer reads its text with it.
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

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .base import RuleError, gettext_noop, is_whole_number, require_count
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
)


def _default_deal() -> dict[int, int]:
    return {2: 15, 3: 10, 4: 8, 5: 7, 6: 6, 7: 6, 8: 6}


@dataclass(frozen=True)
class QuadSettings:
    """Every number of docs/rules/quad-ominos.md, as a per-tournament setting; `tiles_each` keys: player counts."""

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


def turn_points(tile_sum: int, *, starts: int = 0, bonuses: int = 0, draws: int = 0, passes: int = 0,
                settings: QuadSettings | None = None) -> int:
    """Signed points: the tile sums, 25 for the start and per bonus, -20 per tile drawn and per pass."""
    settings = settings or QuadSettings()
    return (tile_sum + starts * settings.start_bonus + bonuses * settings.bonus + draws * settings.draw_penalty
            + passes * settings.pass_penalty)


# --- the turns as the players noted them ------------------------------------------------------------

#: the letters of the notation and the `turn_points` count each one adds to
TURN_LETTERS = {"s": "starts", "b": "bonuses", "d": "draws", "p": "passes"}
_MINUSES = str.maketrans({"−": "-", "–": "-"})
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]{1,7}")
_TOKENS = re.compile(r"[0-9]+|[A-Za-z]+|[+-]|[^\s,;+\-0-9A-Za-z]+")


def _shown(token: str) -> str:
    """A token as quoted in a message: a long one cut short."""
    return token if len(token) <= 12 else f"{token[:10]}…"


def parse_turns(text: str, settings: QuadSettings | None = None) -> int:
    """A player's points from turns as typed: a whole number, or the turns noted (see the module docstring)."""
    settings = settings or QuadSettings()
    text = text.translate(_MINUSES).strip()
    if _PLAIN_NUMBER.fullmatch(text):
        return int(text)
    tile_sums, counts, minus = 0, dict.fromkeys(TURN_LETTERS.values(), 0), False
    read_any = False
    for token in _TOKENS.findall(text):
        if token in "+-":
            minus = token == "-"
            continue
        if token.isdigit():
            if minus:
                raise RuleError(
                    "turns_minus_tile",
                    gettext_noop(
                        "“-%(token)s” cannot be read: tile sums are added, never taken away. Write d for a tile "
                        "drawn and p for a pass, or the whole points from turns as one number."
                    ),
                    token=_shown(token),
                )
            if len(token) > 7 or int(token) > settings.max_per_tile:
                raise RuleError(
                    "tile_sum_too_high",
                    gettext_noop(
                        "“%(token)s” cannot be the sum of one tile: a tile holds at most %(max)s. Write each "
                        "tile's sum on its own and b, s, d or p for bonuses and penalties, or the whole points "
                        "from turns as one number."
                    ),
                    token=_shown(token),
                    max=settings.max_per_tile,
                )
            tile_sums += int(token)
        elif token.isascii() and token.isalpha() and all(letter in TURN_LETTERS for letter in token.lower()):
            for letter in token.lower():
                counts[TURN_LETTERS[letter]] += 1
        else:
            raise RuleError(
                "turns_unknown_token",
                gettext_noop(
                    "“%(token)s” cannot be read in the points from turns. Write one number, or the turns: tile "
                    "sums (0 to %(max)s each), s start bonus, b bonus, d tile drawn, p pass, e.g. 18 b 12 d."
                ),
                token=_shown(token),
                max=settings.max_per_tile,
            )
        minus, read_any = False, True
    if not read_any:
        raise RuleError(
            "turns_empty",
            gettext_noop(
                "The points from turns are missing. Write one number, or the turns: tile sums (0 to %(max)s "
                "each), s start bonus, b bonus, d tile drawn, p pass, e.g. 18 b 12 d."
            ),
            max=settings.max_per_tile,
        )
    return turn_points(tile_sums, settings=settings, **counts)


@dataclass(frozen=True)
class NotationField(EntryField):
    """A number field that also takes a short notation: the form layer reads typed text with `parse`.

    `parse(text, settings) -> int` raises `RuleError` for what it cannot read; `notation` says the
    notation briefly for the entry page's legend.
    """

    parse: Callable[[str, Any], int] | None = None
    notation: str = ""


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
        require_count(value, "remaining_invalid",
                      gettext_noop("The remaining tile sum must be a whole number of 0 or more; %(player)s has "
                                   "%(value)s."),
                      field="remaining", player=player)
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


def play(
    rounds: Sequence[QuadRound], settings: QuadSettings | None = None, *, left: Mapping[Player, int] | None = None
) -> GameState:
    """Follow a game round by round; over at the target, the highest total wins.

    `left`: who left the table after which round (`tablegames.follow_game`)."""
    settings = settings or QuadSettings()
    return follow_game(
        [score_round(r, settings) for r in rounds],
        "turn_points",
        lower_is_better=False,
        target=settings.target,
        max_hands=settings.max_rounds,
        tie_at_target_plays_on=True,
        left=left,
    )


_FIELDS = (
    NotationField("turn_points", gettext_noop("Points from turns"), gettext_noop("Turns"), FIELD_SIGNED_INT,
                  per_player=True, parse=parse_turns,
                  notation=gettext_noop("a number, or the turns: tile sums, s start bonus, b bonus, d tile drawn, "
                                        "p pass, e.g. 18 b 12 d")),
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
