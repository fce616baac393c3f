"""Domino with a double-six set: five scoring games at a table and six one-player patiences.

The rules as implemented: docs/rules/domino.md and docs/rules/patience.md. Shapes shared with the
other table games (`GameSpec`, `HandResult`, `GameState`) are described in `tablegames.py`.

Scoring games (keys in `VARIANTS`): "almindelig" (block/draw), "femmer" (fives), "syver"
(sevens), "to_ens" (two alike), "blinde" (blind domino).

- `default_settings(variant) -> DominoSettings`: every number of docs/rules/domino.md as a default.
- `DominoHand(pips, out=None, play_points=None)`: one hand as the table writes it — each
  player's pips left, who went out (None: the hand was blocked), and for "femmer" and
  "to_ens" each player's points scored during play.
- `BlindHand(tiles_left)`: blind domino's single hand — each player's tiles left when the
  first player went out (that player has 0).
- `score_hand(variant, entry, settings=None) -> HandResult`: validates and scores a hand.
- `play(variant, hands, settings=None) -> GameState`: running totals, end at the target
  (several past it: the highest total wins; equal: one more hand), winner, finishing order.

Patiences (keys in `PATIENCES`): every player of the tournament plays the same patience.

- `PatienceEntry(tiles_left, finish_time=None)`: the whole field's results on one sheet.
- `score_patience(entry, settings=None) -> HandResult`: validates (0..28 tiles left).
- `patience_ranking(entry, *, seed, settings=None) -> list[Standing]`: fewest tiles left,
  then earliest finish time (when recorded), then lot; `patience_chain(with_time)` is the chain.

`SPECS` maps every key above to its `GameSpec`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .base import RuleError, gettext_noop, is_whole_number, require_count
from .standings import Metric, Standing, rank
from .tablegames import (
    FAMILY_DOMINO,
    FIELD_INT,
    FIELD_PLAYER,
    FIELD_TIME,
    KIND_PATIENCE,
    KIND_TABLE,
    EntryField,
    GameSpec,
    GameState,
    HandResult,
    Player,
    check_player_count,
    check_same_players,
    follow_game,
    group_by_result,
)

ALMINDELIG = "almindelig"
FEMMER = "femmer"
SYVER = "syver"
TO_ENS = "to_ens"
BLINDE = "blinde"
VARIANTS = (ALMINDELIG, FEMMER, SYVER, TO_ENS, BLINDE)

#: games where points are scored while the hand is played
SCORES_DURING_PLAY = (FEMMER, TO_ENS)

VARIANT_NAMES = {
    ALMINDELIG: gettext_noop("Domino (block/draw)"),
    FEMMER: gettext_noop("Fives domino"),
    SYVER: gettext_noop("Sevens domino"),
    TO_ENS: gettext_noop("Two alike domino"),
    BLINDE: gettext_noop("Blind domino"),
}

PATIENCE_NAMES = {
    "kabal": gettext_noop("Ordinary domino patience"),  # the variant; the game of all six is "Domino patience"
    "stop_ved_fem": gettext_noop("Stop at five"),
    "bingo": gettext_noop("Bingo"),
    "fem_kolonner": gettext_noop("Five columns"),
    "knock_out": gettext_noop("Knock-out"),
    "tolveren": gettext_noop("Twelves"),
}
PATIENCES = tuple(PATIENCE_NAMES)


@dataclass(frozen=True)
class DominoSettings:
    """The numbers of one scoring variant; build the defaults with `default_settings(variant)`.

    `tiles_each` maps a player count to the tiles dealt to each player; its keys are the
    allowed player counts. `target` None: one hand decides (blind domino). `max_hands` ends a
    time-boxed game after that many hands. `draw_from_boneyard` False (pure block play) means a
    hand never holds more tiles than were dealt.
    """

    target: int | None
    tiles_each: Mapping[int, int]
    max_pips_per_tile: int = 12
    draw_from_boneyard: bool = True
    max_hands: int | None = None

    @property
    def min_players(self) -> int:
        return min(self.tiles_each)

    @property
    def max_players(self) -> int:
        return max(self.tiles_each)


def default_settings(variant: str) -> DominoSettings:
    """The defaults for `variant` (docs/rules/domino.md)."""
    check_variant(variant)
    if variant == ALMINDELIG:
        return DominoSettings(target=100, tiles_each={2: 5, 3: 5, 4: 5})
    if variant == FEMMER:
        return DominoSettings(target=100, tiles_each={2: 7, 3: 5, 4: 5})
    if variant == SYVER:
        return DominoSettings(target=100, tiles_each={2: 5, 3: 5, 4: 5})
    if variant == TO_ENS:
        return DominoSettings(target=15, tiles_each={2: 6, 3: 6, 4: 6})
    # Blind domino deals the whole set evenly; the few tiles left over stay out of play.
    return DominoSettings(
        target=None, tiles_each={n: 28 // n for n in range(2, 6)}, draw_from_boneyard=False, max_hands=1
    )


def check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise RuleError(
            "unknown_variant",
            gettext_noop("Unknown domino game %(variant)s; choose one of %(variants)s."),
            variant=variant,
            variants=", ".join(VARIANTS),
        )


# --- the set -------------------------------------------------------------------------------


def set_tiles(max_pips_per_tile: int) -> list[int]:
    """Pip counts of every tile of a double-N set (N = half the heaviest tile), heaviest first."""
    top = max_pips_per_tile // 2
    return sorted((a + b for a in range(top + 1) for b in range(a, top + 1)), reverse=True)


def max_tiles_in_hand(settings: DominoSettings, players: int) -> int:
    """The most tiles one player can hold: the deal plus, when drawing is allowed, the whole boneyard."""
    dealt = settings.tiles_each[players]
    if not settings.draw_from_boneyard:
        return dealt
    # The other players' dealt tiles are in their hands or on the table, never in this hand.
    return len(set_tiles(settings.max_pips_per_tile)) - (players - 1) * dealt


def max_pips_in_hand(settings: DominoSettings, players: int) -> int:
    """The most pips one hand can hold: its heaviest possible tiles."""
    return sum(set_tiles(settings.max_pips_per_tile)[: max_tiles_in_hand(settings, players)])


# --- hand entries --------------------------------------------------------------------------


@dataclass(frozen=True)
class DominoHand:
    """One hand of a scoring game as the table writes it (see the module docstring)."""

    pips: Mapping[Player, int]
    out: Player | None = None
    play_points: Mapping[Player, int] | None = None


@dataclass(frozen=True)
class BlindHand:
    """Blind domino: each player's tiles left when the first player went out."""

    tiles_left: Mapping[Player, int]


def round_to_five(pips: int) -> int:
    """Round to the nearest multiple of 5 (7 -> 5, 8 -> 10), as fives domino counts pips."""
    return 5 * ((pips + 2) // 5)


def score_hand(variant: str, entry: DominoHand | BlindHand, settings: DominoSettings | None = None) -> HandResult:
    """Validate one hand and return each player's points for it.

    Almindelig: the winner gets the sum over opponents of (their pips - the winner's pips).
    Femmer: points scored during play, plus for the winner every opponent's pips rounded to 5.
    Syver: the winner gets the sum of the other players' pips. To ens: points scored during
    play only. Blinde: the points are the tiles left (lower is better). A blocked hand is won
    by the fewest pips; a tie for the fewest scores no end-of-hand points for anyone (points
    already scored during play stand).
    """
    check_variant(variant)
    settings = settings or default_settings(variant)
    if variant == BLINDE:
        return _score_blind_hand(entry, settings)
    pips = dict(entry.pips)
    check_player_count(len(pips), settings.min_players, settings.max_players)
    _check_pips(pips, entry.out, settings)
    play_points = _checked_play_points(variant, entry, pips)

    winner = entry.out if entry.out is not None else _fewest_pips(pips)
    points = dict(play_points)
    if winner is not None and variant != TO_ENS:
        points[winner] += _end_of_hand_award(variant, winner, pips)
    return HandResult(points=points, winner=winner, blocked=entry.out is None)


def _end_of_hand_award(variant: str, winner: Player, pips: Mapping[Player, int]) -> int:
    opponents = [p for p in pips if p != winner]
    if variant == ALMINDELIG:
        return sum(pips[p] - pips[winner] for p in opponents)
    if variant == FEMMER:
        return sum(round_to_five(pips[p]) for p in opponents)
    return sum(pips[p] for p in opponents)


def _fewest_pips(pips: Mapping[Player, int]) -> Player | None:
    """The winner of a blocked hand, or None when several share the fewest pips."""
    fewest = min(pips.values())
    holders = [p for p, v in pips.items() if v == fewest]
    return holders[0] if len(holders) == 1 else None


def _check_pips(pips: Mapping[Player, int], out: Player | None, settings: DominoSettings) -> None:
    most = max_pips_in_hand(settings, len(pips))
    for player, value in pips.items():
        require_count(value, "pips_invalid",
                      gettext_noop("Pips left must be a whole number of 0 or more; %(player)s has %(value)s."),
                      field="pips", player=player)
        if value > most:
            raise RuleError(
                "pips_too_many",
                gettext_noop(
                    "%(player)s cannot have %(value)s pips left: in this game a hand holds at most "
                    "%(tiles)s tiles and %(max)s pips. Check the entry."
                ),
                field="pips",
                player=player,
                value=value,
                tiles=max_tiles_in_hand(settings, len(pips)),
                max=most,
            )
    whole_set = sum(set_tiles(settings.max_pips_per_tile))
    if sum(pips.values()) > whole_set:
        raise RuleError(
            "pips_more_than_set",
            gettext_noop(
                "Together the players have %(total)s pips left, more than the whole set holds (%(max)s). "
                "Check the entries."
            ),
            field="pips",
            total=sum(pips.values()),
            max=whole_set,
        )
    if out is None:
        return
    if out not in pips:
        raise RuleError(
            "out_not_at_table",
            gettext_noop("%(player)s is marked as out of tiles but is not a player of this hand."),
            field="out",
            player=out,
        )
    if pips[out] != 0:
        raise RuleError(
            "winner_has_pips",
            gettext_noop(
                "%(player)s went out of tiles, so their pips left must be 0, not %(value)s. "
                "Enter 0, or mark the hand as blocked if nobody went out."
            ),
            field="pips",
            player=out,
            value=pips[out],
        )


def _checked_play_points(variant: str, entry: DominoHand, pips: Mapping[Player, int]) -> dict[Player, int]:
    """Points scored during play, validated; zero for games that score only at the end."""
    if variant not in SCORES_DURING_PLAY:
        if entry.play_points and any(entry.play_points.values()):
            raise RuleError(
                "no_play_points",
                gettext_noop(
                    "This domino game scores no points during play; leave the points during play empty."
                ),
                field="play_points",
            )
        return {p: 0 for p in pips}
    if entry.play_points is None:
        raise RuleError(
            "play_points_missing",
            gettext_noop("Enter every player's points scored during play (0 when none)."),
            field="play_points",
        )
    check_same_players(pips, entry.play_points, "play_points")
    for player, value in entry.play_points.items():
        _check_play_points(variant, player, value)
    return {p: entry.play_points[p] for p in pips}


def _check_play_points(variant: str, player: Player, value: int) -> None:
    require_count(value, "play_points_invalid",
                  gettext_noop("Points during play must be a whole number of 0 or more; %(player)s has %(value)s."),
                  field="play_points", player=player)
    if variant == FEMMER and value % 5:
        raise RuleError(
            "fives_not_multiple",
            gettext_noop(
                "In fives domino points during play come in multiples of 5; %(player)s has %(value)s. "
                "Check the entry."
            ),
            field="play_points",
            player=player,
            value=value,
        )
    # Every whole number from 2 up is a sum of 2s and 3s; only 1 is not.
    if variant == TO_ENS and value == 1:
        raise RuleError(
            "two_alike_points",
            gettext_noop(
                "In two alike domino points during play are sums of 2s and 3s, so %(player)s cannot "
                "have %(value)s. Check the entry."
            ),
            field="play_points",
            player=player,
            value=value,
        )


def _score_blind_hand(entry: BlindHand, settings: DominoSettings) -> HandResult:
    tiles = dict(entry.tiles_left)
    check_player_count(len(tiles), settings.min_players, settings.max_players)
    dealt = settings.tiles_each[len(tiles)]
    for player, value in tiles.items():
        if not is_whole_number(value) or not 0 <= value <= dealt:
            raise RuleError(
                "blind_tiles_invalid",
                gettext_noop(
                    "%(player)s cannot have %(value)s tiles left: with %(players)s players each holds "
                    "%(dealt)s tiles. Enter a whole number from 0 to %(dealt)s."
                ),
                field="tiles_left",
                player=player,
                value=value,
                players=len(tiles),
                dealt=dealt,
            )
    out = [p for p, v in tiles.items() if v == 0]
    if len(out) != 1:
        raise RuleError(
            "blind_one_out",
            gettext_noop(
                "Blind domino ends when the first player is out of tiles, so exactly one player has 0 "
                "tiles left; this entry has %(count)s. Check the entries."
            ),
            field="tiles_left",
            count=len(out),
        )
    return HandResult(points=tiles, winner=out[0])


def play(
    variant: str, hands: Sequence[DominoHand | BlindHand], settings: DominoSettings | None = None, *,
    left: Mapping[Player, int] | None = None,
) -> GameState:
    """Follow a whole game hand by hand.

    The game ends when a total reaches the target; when several pass it in the same hand the
    highest total wins, and an equal highest total plays one more hand. Blind domino is one
    hand: its totals are the tiles left and its finishing order is the result.
    `left`: who left the table after which hand (`tablegames.follow_game`).
    """
    check_variant(variant)
    settings = settings or default_settings(variant)
    return follow_game(
        [score_hand(variant, hand, settings) for hand in hands],
        "pips",
        lower_is_better=variant == BLINDE,
        target=settings.target,
        max_hands=settings.max_hands,
        tie_at_target_plays_on=True,
        left=left,
    )


# --- patiences -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PatienceSettings:
    tiles_in_set: int = 28


@dataclass(frozen=True)
class PatienceEntry:
    """Every player's tiles left (0 = solved) and, if the director records it, finish time.

    A finish time may be any comparable value (seconds, a `datetime.time`); earlier is smaller.
    It is recorded for every player or for none.
    """

    tiles_left: Mapping[Player, int]
    finish_time: Mapping[Player, Any] | None = field(default=None)


TILES_LEFT = "tiles_left"
FINISH_TIME = "finish_time"


def patience_chain(with_time: bool) -> tuple[Metric, ...]:
    """Fewest tiles left, then (when recorded) earliest finish time; the engine adds the lot."""
    tiles = Metric(TILES_LEFT, gettext_noop("Tiles left"), gettext_noop("Tiles"), higher_is_better=False)
    if not with_time:
        return (tiles,)
    return (tiles, Metric(FINISH_TIME, gettext_noop("Finish time"), gettext_noop("Time"), higher_is_better=False))


def score_patience(entry: PatienceEntry, settings: PatienceSettings | None = None) -> HandResult:
    """Validate a patience sheet; the points are the tiles left (fewer is better)."""
    settings = settings or PatienceSettings()
    check_player_count(len(entry.tiles_left), 1, None)
    for player, value in entry.tiles_left.items():
        if not is_whole_number(value) or not 0 <= value <= settings.tiles_in_set:
            raise RuleError(
                "patience_tiles_invalid",
                gettext_noop(
                    "%(player)s cannot have %(value)s tiles left; enter a whole number from 0 (solved) "
                    "to %(max)s."
                ),
                field="tiles_left",
                player=player,
                value=value,
                max=settings.tiles_in_set,
            )
    if entry.finish_time is not None:
        missing = [str(p) for p in entry.tiles_left if entry.finish_time.get(p) is None]
        if missing:
            raise RuleError(
                "finish_time_partial",
                gettext_noop(
                    "Record a finish time for every player or for none; it is missing for %(players)s."
                ),
                field="finish_time",
                players=", ".join(missing),
            )
        check_same_players(entry.tiles_left, entry.finish_time, "finish_time")
    return HandResult(points=dict(entry.tiles_left))


def play_patience(entries: Sequence[PatienceEntry], settings: PatienceSettings | None = None) -> GameState:
    """The patience as a one-hand game: totals are tiles left, ordered by tiles then finish time."""
    if len(entries) != 1:
        raise RuleError(
            "patience_one_sheet",
            gettext_noop("A patience is played once: enter exactly one result sheet, not %(count)s."),
            count=len(entries),
        )
    entry = entries[0]
    score_patience(entry, settings)
    order = sorted(entry.tiles_left, key=partial(_patience_key, entry))
    groups = group_by_result(order, partial(_patience_key, entry))
    return GameState(
        totals=dict(entry.tiles_left),
        running=(dict(entry.tiles_left),),
        finished=True,
        winner=groups[0][0] if len(groups[0]) == 1 else None,
        finishing_order=groups,
        lower_is_better=True,
    )


def _patience_key(entry: PatienceEntry, player: Player):
    if entry.finish_time is None:
        return (entry.tiles_left[player],)
    return (entry.tiles_left[player], entry.finish_time[player])


def patience_ranking(
    entry: PatienceEntry, *, seed: int | str | None, settings: PatienceSettings | None = None
) -> list[Standing]:
    """Rank a patience: fewest tiles left, then earliest finish time if recorded, then lot."""
    score_patience(entry, settings)
    values: dict[Player, dict[str, Any]] = {p: {TILES_LEFT: n} for p, n in entry.tiles_left.items()}
    if entry.finish_time is not None:
        for player in values:
            values[player][FINISH_TIME] = entry.finish_time[player]
    chain = patience_chain(with_time=entry.finish_time is not None)
    return rank(list(entry.tiles_left), chain, values, seed=seed)


# --- specs ---------------------------------------------------------------------------------

_PIPS = EntryField("pips", gettext_noop("Pips left"), gettext_noop("Pips"), FIELD_INT, per_player=True)
_OUT = EntryField(
    "out", gettext_noop("Out of tiles (empty: blocked)"), gettext_noop("Out"), FIELD_PLAYER, per_player=False,
    required=False,
)
_PLAY_POINTS = EntryField(
    "play_points", gettext_noop("Points during play"), gettext_noop("Play"), FIELD_INT, per_player=True
)
_BLIND_TILES = EntryField(
    "tiles_left", gettext_noop("Tiles left"), gettext_noop("Tiles"), FIELD_INT, per_player=True
)
_PATIENCE_FINISH = EntryField(
    "finish_time", gettext_noop("Finish time"), gettext_noop("Time"), FIELD_TIME, per_player=True, required=False
)


def _variant_spec(variant: str) -> GameSpec:
    settings = default_settings(variant)
    if variant == BLINDE:
        entry_class, fields = BlindHand, (_BLIND_TILES,)
    elif variant in SCORES_DURING_PLAY:
        entry_class, fields = DominoHand, (_PLAY_POINTS, _PIPS, _OUT)
    else:
        entry_class, fields = DominoHand, (_PIPS, _OUT)
    return GameSpec(
        key=variant,
        name=VARIANT_NAMES[variant],
        family=FAMILY_DOMINO,
        kind=KIND_TABLE,
        min_players=settings.min_players,
        max_players=settings.max_players,
        entry_class=entry_class,
        entry_fields=fields,
        default_settings=settings,
        score_hand=partial(score_hand, variant),
        play=partial(play, variant),
        lower_is_better=variant == BLINDE,
    )


def _patience_spec(key: str) -> GameSpec:
    return GameSpec(
        key=key,
        name=PATIENCE_NAMES[key],
        family=FAMILY_DOMINO,
        kind=KIND_PATIENCE,
        min_players=1,
        max_players=None,
        entry_class=PatienceEntry,
        entry_fields=(_BLIND_TILES, _PATIENCE_FINISH),
        default_settings=PatienceSettings(),
        score_hand=score_patience,
        play=play_patience,
        lower_is_better=True,
    )


SPECS: dict[str, GameSpec] = {
    **{variant: _variant_spec(variant) for variant in VARIANTS},
    **{key: _patience_spec(key) for key in PATIENCES},
}
