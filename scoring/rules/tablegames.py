"""Table games (domino, rummi, quad-ominos): the shape every game shares, and the tournament ranking.

The common shape
----------------
Every game or variant is one frozen `GameSpec`; each game module exposes its specs in a
`SPECS` dict (key -> spec); this module imports none of them. A Django layer can treat all
games alike through these fields:

- `key`, `name` (translatable), `family` ("domino", "rummi", "quadominos"), `kind`
  ("table", or "patience" for one-player domino patiences where the whole field is one sheet).
- `min_players`, `max_players` (None: no upper bound).
- `entry_fields`: what one sheet row (one hand / round) holds, as `EntryField`s. A per-player
  field is a mapping player -> value; the other fields are one value for the row. The keys are
  the keyword arguments of `entry_class`, so `spec.entry_class(**row)` builds an entry.
- `default_settings`: a frozen settings dataclass with every number of the game's page in docs/rules/;
  `dataclasses.replace(spec.default_settings, **overrides)` applies a tournament's choices.
- `score_hand(entry, settings) -> HandResult`: validates one row (raising `RuleError`) and says
  what it is worth per player.
- `play(entries, settings) -> GameState`: the running totals of a whole game, whether it is
  over, the winner and the finishing order.
- `lower_is_better`: True when the game's score is a penalty (rummi, blind domino, patiences).

Players are any hashable ids chosen by the caller; results map player -> value.

The tournament (docs/rules/seated.md)
-------------------------------
`table_points(scores, lower_is_better=...)`: one point per opponent at the table finished ahead
of, half a point for an equal finish. `ranking(players, results, lower_is_better=..., seed=...)`
ranks by `ranking_chain(lower_is_better)` — tournament points, then the sum of game scores over
all rounds (fewest penalty points for rummi) — then lot, through the shared standings engine.

A player who leaves (table-games.md, Decision: a player leaves after play started)
-----------------------------------------------------------------------------------
`left` maps a player to the last hand he played (1 or more) in a table's game. He has no entry in
the hands after (`present`), his game score is his total when he left, and the game's end and
winner are decided among the players still at the table (`follow_game`). He finishes behind every
opponent at the table, each of them gaining the point (`table_points(..., left=...)`); two who
left the same table are ordered by who stayed longer, then by their scores (the digest is silent
on two leaving; this keeps "played longer, not worse" and treats the same hand alike). The table
plays on only with at least the game's `min_players` (`check_plays_on`), otherwise a substitute
must take the seat. A later round's seat left empty is a smaller table: the player simply has no
entry there, and tournament points are shared among those present.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .base import RuleError, gettext_noop, is_whole_number
from .standings import Metric, Standing, rank

Player = Hashable

FAMILY_DOMINO = "domino"
FAMILY_RUMMI = "rummi"
FAMILY_QUADOMINOS = "quadominos"
KIND_TABLE = "table"
KIND_PATIENCE = "patience"

#: kinds of `EntryField` values, so a form layer knows which widget to show
FIELD_INT = "int"  # whole number >= 0
FIELD_SIGNED_INT = "signed_int"  # whole number, may be negative
FIELD_PLAYER = "player"  # one of the table's players (or None where allowed)
FIELD_BOOL = "bool"
FIELD_INT_OR_CARDS = "int_or_cards"  # a number, or cards written as text (rummi)
FIELD_TIME = "time"  # any comparable value: earlier is smaller


@dataclass(frozen=True)
class EntryField:
    """One input of a sheet row, shown as one column of the printed score sheet."""

    key: str
    name: str
    abbr: str
    kind: str
    per_player: bool
    required: bool = True


@dataclass(frozen=True)
class HandResult:
    """What one hand (round) is worth: `points` per player, the hand's winner if there is one."""

    points: Mapping[Player, int]
    winner: Player | None = None
    blocked: bool = False
    doubled: bool = False


@dataclass(frozen=True)
class GameState:
    """A game after the hands entered so far.

    `running[i]` holds the totals after hand i + 1. `finishing_order` groups players with an
    equal result, best group first. `extra_hand_needed` is True when the target was passed
    with a tie for the best total, so the table must play one more hand.
    """

    totals: Mapping[Player, int]
    running: tuple[Mapping[Player, int], ...]
    finished: bool
    winner: Player | None
    finishing_order: tuple[tuple[Player, ...], ...]
    lower_is_better: bool
    extra_hand_needed: bool = False

    @property
    def hands_played(self) -> int:
        return len(self.running)


@dataclass(frozen=True)
class GameSpec:
    """One game or variant behind the interface described in the module docstring."""

    key: str
    name: str
    family: str
    kind: str
    min_players: int
    max_players: int | None
    entry_class: type
    entry_fields: tuple[EntryField, ...]
    default_settings: Any
    score_hand: Callable[[Any, Any], HandResult]
    play: Callable[[Sequence[Any], Any], GameState]
    lower_is_better: bool


# --- helpers the game modules share ---------------------------------------------------------


def check_player_count(count: int, minimum: int, maximum: int | None) -> None:
    """Refuse a table with fewer or more players than the game allows."""
    if count < minimum or (maximum is not None and count > maximum):
        raise RuleError(
            "player_count",
            gettext_noop(
                "This game is played by %(min)s to %(max)s players, but the entry has %(count)s. "
                "Enter a value for every player at the table."
            ),
            min=minimum,
            max=maximum if maximum is not None else "∞",
            count=count,
        )


def check_same_players(expected: Iterable[Player], mapping: Mapping[Player, object], field: str) -> None:
    """Refuse a per-player field whose players differ from the table's players."""
    expected = set(expected)
    got = set(mapping)
    if got != expected:
        missing = sorted(map(str, expected - got))
        extra = sorted(map(str, got - expected))
        raise RuleError(
            "players_mismatch",
            gettext_noop(
                "The entry does not name the same players throughout: missing %(missing)s, "
                "not at this table %(extra)s. Enter one value for each player at the table."
            ),
            field=field,
            missing=", ".join(missing) or "-",
            extra=", ".join(extra) or "-",
        )


def check_left(players: Sequence[Player], left: Mapping[Player, int]) -> None:
    """Refuse a departure of someone not at the table, or before his first hand (that is an empty seat)."""
    for player, hand in left.items():
        if player not in players:
            raise RuleError(
                "left_not_at_table",
                gettext_noop("%(player)s is not a player of this table, so he cannot leave it."),
                field="left", player=player,
            )
        if not is_whole_number(hand) or hand < 1:
            raise RuleError(
                "left_before_play",
                gettext_noop(
                    "%(player)s left before the first hand: then his seat is empty for the whole round. "
                    "Say after which hand he left (1 or later), or withdraw him at the registration desk."
                ),
                field="left", player=player,
            )


def present(players: Sequence[Player], left: Mapping[Player, int], hand: int) -> list[Player]:
    """The players at the table in hand `hand` (1 for the first): everyone but those who left before it."""
    return [p for p in players if p not in left or left[p] >= hand]


def check_plays_on(players: Sequence[Player], left: Mapping[Player, int], minimum: int) -> None:
    """Refuse a table left with fewer players than the game is played by: it cannot go on without him, so a
    substitute takes his seat (no departure then), or the director ends the game as it stands."""
    staying = [p for p in players if p not in left]
    if len(staying) < minimum:
        raise RuleError(
            "substitute_needed",
            gettext_noop(
                "After %(players)s left, %(count)s players are at this table, but the game needs at least "
                "%(min)s: it cannot go on without a substitute. Let a substitute take the seat, or end the game "
                "here (“Time is up: end the game here”): the totals as they stand decide."
            ),
            field="left", players=", ".join(sorted(map(str, left))), count=len(staying), min=minimum,
        )


def players_of_hands(
    hands: Sequence[Mapping[Player, Any]], field: str, left: Mapping[Player, int] | None = None
) -> list[Player]:
    """The table's players (those of the first hand), every later hand checked to name exactly the players
    still at the table in it (`present`)."""
    if not hands:
        return []
    left = left or {}
    players = list(hands[0])
    check_left(players, left)
    for number, points in enumerate(hands, start=1):
        check_same_players(present(players, left, number), points, field)
    return players


def group_by_result(order: Sequence[Player], key: Callable[[Player], Any]) -> tuple[tuple[Player, ...], ...]:
    """Group consecutive players of an already sorted `order` whose `key` is equal."""
    groups: list[list[Player]] = []
    for player in order:
        if groups and key(groups[-1][0]) == key(player):
            groups[-1].append(player)
        else:
            groups.append([player])
    return tuple(tuple(g) for g in groups)


def finishing_order(totals: Mapping[Player, Any], *, lower_is_better: bool) -> tuple[tuple[Player, ...], ...]:
    """Players grouped by equal total, best first; within a group the input order is kept."""
    order = sorted(totals, key=totals.__getitem__, reverse=not lower_is_better)
    return group_by_result(order, totals.__getitem__)


def finishing_order_with_leavers(
    totals: Mapping[Player, Any], left: Mapping[Player, int], *, lower_is_better: bool
) -> tuple[tuple[Player, ...], ...]:
    """`finishing_order` of the players still at the table, then those who left: who stayed longer first,
    then by total (equal hand and total: one group)."""
    staying = {p: t for p, t in totals.items() if p not in left}
    order = finishing_order(staying, lower_is_better=lower_is_better) if staying else ()
    return order + group_by_result(_leavers_best_first(totals, left, lower_is_better), lambda p: (left[p], totals[p]))


def _leavers_best_first(totals, left, lower_is_better: bool) -> list[Player]:
    sign = 1 if lower_is_better else -1
    return sorted((p for p in totals if p in left), key=lambda p: (-left[p], sign * totals[p]))


def follow_game(
    hands: Sequence[HandResult],
    field: str,
    *,
    lower_is_better: bool,
    target: int | None,
    max_hands: int | None,
    tie_at_target_plays_on: bool,
    left: Mapping[Player, int] | None = None,
) -> GameState:
    """Running totals of a game, from its scored hands, that ends when a total reaches `target` or after
    `max_hands`.

    The players are the first hand's; every later hand must name those still at the table (`field`: the
    entry's per-player field, named when one does not).

    At the target the best total wins; a tie for it either plays one more hand
    (`tie_at_target_plays_on`) or is a shared win (winner None). After `max_hands` a tie
    for the best total is always shared: the round's time is up.
    Hands entered after the game was over are refused.
    A player in `left` keeps the total he had after his last hand; the end of the game and
    its winner are decided among the players still at the table, and he finishes behind them.
    """
    hand_points = [hand.points for hand in hands]
    players = players_of_hands(hand_points, field, left)
    left = left or {}
    totals = {p: 0 for p in players}
    running: list[dict[Player, int]] = []
    finished, winner, extra = False, None, False
    for number, points in enumerate(hand_points, start=1):
        if finished:
            raise RuleError(
                "game_over",
                gettext_noop(
                    "The game was already over after hand %(hand)s, but %(entered)s hands were entered. "
                    "Remove the hands after hand %(hand)s."
                ),
                hand=number - 1,
                entered=len(hand_points),
            )
        at_table = present(players, left, number)
        for p in at_table:
            totals[p] += points[p]
        running.append(dict(totals))
        finished, winner, extra = _decide(
            {p: totals[p] for p in at_table}, number, lower_is_better, target, max_hands, tie_at_target_plays_on
        )
        leaving = [p for p in at_table if left.get(p) == number]
        if leaving and (finished or extra):
            raise RuleError(
                "left_after_end",
                gettext_noop(
                    "Hand %(hand)s ended the game (or tied it at the target), so %(player)s did not leave before its "
                    "end. Remove his departure."
                ),
                field="left", hand=number, player=leaving[0],
            )
    return GameState(
        totals=dict(totals),
        running=tuple(running),
        finished=finished,
        winner=winner,
        finishing_order=finishing_order_with_leavers(totals, left, lower_is_better=lower_is_better),
        lower_is_better=lower_is_better,
        extra_hand_needed=extra,
    )


def _decide(totals, hands_played, lower_is_better, target, max_hands, tie_at_target_plays_on):
    """Return (finished, winner, extra_hand_needed) for the totals after `hands_played` hands."""
    best = finishing_order(totals, lower_is_better=lower_is_better)[0]
    sole_best = best[0] if len(best) == 1 else None
    reached = target is not None and any(t >= target for t in totals.values())
    out_of_hands = max_hands is not None and hands_played >= max_hands
    if reached and sole_best is None and tie_at_target_plays_on and not out_of_hands:
        return False, None, True
    if reached or out_of_hands:
        return True, sole_best, False
    return False, None, False


# --- the tournament ------------------------------------------------------------------------

HALF = Decimal("0.5")
TOURNAMENT_POINTS = "tournament_points"
GAME_SCORE = "game_score"


def table_points(
    scores: Mapping[Player, Any], *, lower_is_better: bool, left: Mapping[Player, int] | None = None
) -> dict[Player, Decimal]:
    """Tournament points at one table: 1 per opponent finished ahead of, 0.5 per equal finish.

    `scores` are the game's final totals (`GameState.totals`); `lower_is_better` for rummi and
    the other penalty-counting games. A player in `left` (-> his last hand) finishes behind every
    opponent still at the table; between two who left, the one who stayed longer is ahead.
    """
    left = left or {}
    sign = 1 if lower_is_better else -1
    # a smaller key finishes ahead: staying beats leaving, leaving later beats leaving earlier, then the score
    key = {p: (p in left, -left.get(p, 0), sign * s) for p, s in scores.items()}
    points: dict[Player, Decimal] = {}
    for player, own in key.items():
        earned = Decimal(0)
        for opponent, theirs in key.items():
            if opponent == player:
                continue
            if own == theirs:
                earned += HALF
            elif own < theirs:
                earned += 1
        points[player] = earned
    return points


def ranking_chain(lower_is_better: bool) -> tuple[Metric, ...]:
    """The metric chain of a table-games tournament; the standings engine adds the lot."""
    points = Metric(TOURNAMENT_POINTS, gettext_noop("Tournament points"), gettext_noop("TP"))
    if lower_is_better:
        score = Metric(GAME_SCORE, gettext_noop("Penalty points"), gettext_noop("Pen"), higher_is_better=False)
    else:
        score = Metric(GAME_SCORE, gettext_noop("Game score"), gettext_noop("Score"))
    return (points, score)


def ranking(
    players: Sequence[Player],
    results: Iterable[Mapping[Player, Any]],
    *,
    lower_is_better: bool,
    seed: int | str | None,
    left: Sequence[Mapping[Player, int]] | None = None,
    lot_keys: Mapping[Player, Hashable] | None = None,
) -> list[Standing]:
    """Rank a table-games tournament.

    `results` holds one mapping per table and round: the final scores of that table's game
    (`GameState.totals`). A player missing from a round (absent, bye, his seat left empty)
    earns nothing in it, and the table's points are shared among those present.
    `left`, when given, holds per result who left that table's game after which hand.
    Ties after tournament points and game score are drawn by lot from `seed` (None: shared).
    """
    results = list(results)
    departures = list(left) if left is not None else [{}] * len(results)
    values = {p: {TOURNAMENT_POINTS: Decimal(0), GAME_SCORE: 0} for p in players}
    for scores, gone in zip(results, departures, strict=True):
        unknown = [str(p) for p in scores if p not in values]
        if unknown:
            raise RuleError(
                "unknown_player",
                gettext_noop("A result names players who are not in the tournament: %(players)s."),
                players=", ".join(sorted(unknown)),
            )
        for player, earned in table_points(scores, lower_is_better=lower_is_better, left=gone).items():
            values[player][TOURNAMENT_POINTS] += earned
            values[player][GAME_SCORE] += scores[player]
    return rank(players, ranking_chain(lower_is_better), values, seed=seed, lot_keys=lot_keys)
