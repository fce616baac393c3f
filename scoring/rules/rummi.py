"""Rummi: penalty points for the cards left in hand; the lowest total wins.

The rules as implemented: docs/rules/rummi.md. Shapes shared with the other table games (`GameSpec`,
`HandResult`, `GameState`) are described in `tablegames.py`.

- `RummiSettings`: joker 20 (40 with `joker_in_hand_variant`), limit 250, `max_rounds` None,
  13 cards each, `count_down` display option.
- `parse_cards(text, settings=None) -> int`: the penalty of cards written as text. Tokens,
  separated by spaces or commas, in any letter case: `2`..`10` (face value), `J`, `Q`, `K`
  (10 each; also `B` and `D`, as German and Danish tables write the jack and the queen: Bube/Bonde, Dame),
  `A` (ace, 11), `JO`, `JOKER` or `*` (a joker). At most 13 cards.
- `RummiRound(out, penalties, hand_rummi=False)`: who went out, each player's penalty as
  typed — a whole number, or a text of cards for `parse_cards` (a text of digits only, such
  as "58", is read as a number) — and whether it was hand rummi (all cards laid at once).
- `score_round(entry, settings=None) -> HandResult`: validates; hand rummi doubles every
  other player's penalty exactly; the winner has 0.
- `play(rounds, settings=None) -> GameState`: running totals; the game ends when a total
  reaches the limit or after `max_rounds`; the lowest total wins (an equal lowest total is a
  shared win); finishing order lowest first.
- `display_total(total, settings)`: the total as shown — negative when counting down.

`SPECS` maps "rummi" to its `GameSpec`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .base import RuleError, gettext_noop, is_whole_number
from .tablegames import (
    FAMILY_RUMMI,
    FIELD_BOOL,
    FIELD_INT_OR_CARDS,
    FIELD_PLAYER,
    KIND_TABLE,
    EntryField,
    GameSpec,
    GameState,
    HandResult,
    Player,
    check_player_count,
    follow_game,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True)
class RummiSettings:
    """Every number of docs/rules/rummi.md, as a per-tournament setting."""

    joker_points: int = 20
    joker_in_hand_points: int = 40
    joker_in_hand_variant: bool = False
    face_card_points: int = 10
    ace_points: int = 11
    cards_each: int = 13
    limit: int | None = 250
    max_rounds: int | None = None
    count_down: bool = False

    @property
    def joker_penalty(self) -> int:
        """What a joker left in hand costs under these settings."""
        return self.joker_in_hand_points if self.joker_in_hand_variant else self.joker_points

    @property
    def max_penalty(self) -> int:
        """The ceiling of one player's penalty in a round: a full hand of jokers."""
        return self.cards_each * self.joker_penalty


# --- cards ---------------------------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s,;]+")
_JOKERS = ("JO", "JOKER", "*")
#: jack, queen, king; B and D as German and Danish write the jack and the queen (neither is another card's letter)
_FACE_CARDS = ("J", "Q", "K", "B", "D")


def card_value(token: str, settings: RummiSettings) -> int:
    """The penalty of one card token (see the module docstring for the accepted tokens)."""
    card = token.upper()
    if card in _JOKERS:
        return settings.joker_penalty
    if card in _FACE_CARDS:
        return settings.face_card_points
    if card == "A":
        return settings.ace_points
    if card.isdigit() and 2 <= int(card) <= 10:
        return int(card)
    raise RuleError(
        "unknown_card",
        gettext_noop(
            "%(token)s is not a card. Write 2 to 10, J, Q, K, A (ace) or JOKER (also JO or *), "
            "separated by spaces."
        ),
        token=token,
    )


def parse_cards(text: str, settings: RummiSettings | None = None) -> int:
    """Add up the penalty of the cards written in `text`, e.g. "K Q 7 JOKER A" -> 58."""
    settings = settings or RummiSettings()
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if len(tokens) > settings.cards_each:
        raise RuleError(
            "too_many_cards",
            gettext_noop("A hand holds at most %(max)s cards, but %(count)s were written: %(text)s."),
            max=settings.cards_each,
            count=len(tokens),
            text=text,
        )
    return sum(card_value(token, settings) for token in tokens)


# --- rounds --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RummiRound:
    """One round as the table writes it (see the module docstring)."""

    out: Player
    penalties: Mapping[Player, int | str]
    hand_rummi: bool = False


def penalty_value(player: Player, typed: int | str, settings: RummiSettings) -> int:
    """A typed penalty as a number: whole numbers as they are, card texts added up."""
    if isinstance(typed, str):
        text = typed.strip()
        value = int(text) if text.isdigit() else _parse_player_cards(player, text, settings)
    elif is_whole_number(typed):
        value = typed
    else:
        value = None
    if value is None or value < 0:
        raise RuleError(
            "penalty_invalid",
            gettext_noop(
                "The penalty of %(player)s must be a whole number of 0 or more or the cards in hand; "
                "it is %(value)s."
            ),
            field="penalties",
            player=player,
            value=typed,
        )
    if value > settings.max_penalty:
        raise RuleError(
            "penalty_too_high",
            gettext_noop(
                "%(player)s cannot have %(value)s penalty points: %(cards)s cards hold at most %(max)s. "
                "Enter the points before any hand rummi doubling."
            ),
            field="penalties",
            player=player,
            value=value,
            cards=settings.cards_each,
            max=settings.max_penalty,
        )
    return value


def _parse_player_cards(player: Player, text: str, settings: RummiSettings) -> int:
    """`parse_cards`, with the player named in the message when the cards are wrong."""
    try:
        return parse_cards(text, settings)
    except RuleError as error:
        if error.code == "unknown_card":
            message = gettext_noop(
                "Cards of %(player)s: %(token)s is not a card. Write 2 to 10, J, Q, K, A (ace) or JOKER "
                "(also JO or *), separated by spaces."
            )
        else:
            message = gettext_noop(
                "Cards of %(player)s: a hand holds at most %(max)s cards, but %(count)s were written: %(text)s."
            )
        raise RuleError(error.code, message, field="penalties", player=player, **error.params) from error


def score_round(entry: RummiRound, settings: RummiSettings | None = None) -> HandResult:
    """Validate one round and return each player's penalty points for it.

    The player who went out gets 0; with hand rummi every other player's penalty is doubled.
    """
    settings = settings or RummiSettings()
    check_player_count(len(entry.penalties), MIN_PLAYERS, MAX_PLAYERS)
    if entry.out not in entry.penalties:
        raise RuleError(
            "out_not_at_table",
            gettext_noop("Say who went out: %(player)s is not a player of this round."),
            field="out",
            player=entry.out,
        )
    penalties = {p: penalty_value(p, typed, settings) for p, typed in entry.penalties.items()}
    if penalties[entry.out] != 0:
        raise RuleError(
            "winner_has_penalty",
            gettext_noop(
                "%(player)s went out, so their penalty must be 0, not %(value)s. "
                "Check who went out and the penalties."
            ),
            field="penalties",
            player=entry.out,
            value=penalties[entry.out],
        )
    factor = 2 if entry.hand_rummi else 1
    return HandResult(
        points={p: factor * v for p, v in penalties.items()},
        winner=entry.out,
        doubled=entry.hand_rummi,
    )


def play(
    rounds: Sequence[RummiRound], settings: RummiSettings | None = None, *, left: Mapping[Player, int] | None = None
) -> GameState:
    """Follow a game round by round; ends at the limit or after `max_rounds`, lowest total wins.

    `left`: who left the table after which round (`tablegames.follow_game`)."""
    settings = settings or RummiSettings()
    return follow_game(
        [score_round(r, settings) for r in rounds],
        "penalties",
        lower_is_better=True,
        target=settings.limit,
        max_hands=settings.max_rounds,
        tie_at_target_plays_on=False,
        left=left,
    )


def display_total(total: int, settings: RummiSettings) -> int:
    """A penalty total as shown: counting down from 0 shows it negative, same ranking."""
    return -total if settings.count_down else total


SPECS: dict[str, GameSpec] = {
    "rummi": GameSpec(
        key="rummi",
        name=gettext_noop("Rummi"),
        family=FAMILY_RUMMI,
        kind=KIND_TABLE,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        entry_class=RummiRound,
        entry_fields=(
            EntryField("out", gettext_noop("Went out"), gettext_noop("Out"), FIELD_PLAYER, per_player=False),
            EntryField("hand_rummi", gettext_noop("Hand rummi"), gettext_noop("HR"), FIELD_BOOL, per_player=False),
            EntryField(
                "penalties",
                gettext_noop("Penalty points or cards"),
                gettext_noop("Pen"),
                FIELD_INT_OR_CARDS,
                per_player=True,
            ),
        ),
        default_settings=RummiSettings(),
        score_hand=score_round,
        play=play,
        lower_is_better=True,
    ),
}
