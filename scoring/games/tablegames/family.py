"""The table-game family: what a registration tells the shared layer about its game (`TableGame`), and the
registered ones by key, where the shared layer's pages find a tournament's game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.utils.functional import Promise

from scoring.rules.tablegames import KIND_PATIENCE, GameSpec

from .. import all_games


@dataclass(frozen=True)
class TableGame:
    """What a registration tells the shared layer about its game."""

    key: str
    name: str | Promise
    description: str | Promise
    #: variant key -> spec; the first is the default
    variants: Mapping[str, GameSpec]
    #: random_hand(rng, seats, spec, rules, hand_number) -> one stored hand row, for the demo (the game's `hands`)
    random_hand: Callable[..., dict]
    #: table sizes, preferred first; other sizes the spec allows are added only when these cannot seat everyone
    table_sizes: tuple[int, ...] = (4, 3)
    rounds: int = 3
    #: rows of the printed score sheet when the game is played to a target (not a fixed number of hands)
    sheet_rows: int = 15
    demo_players: int = 16
    #: the demo tournament's language (its printouts' language)
    demo_language: str = "en"

    @property
    def default_variant(self) -> str:
        return next(iter(self.variants))

    @property
    def patience(self) -> bool:
        """One-player games: the whole field plays, one result per player and round, no tables."""
        return next(iter(self.variants.values())).kind == KIND_PATIENCE

    def spec(self, variant: str) -> GameSpec:
        return self.variants.get(variant) or self.variants[self.default_variant]


#: the registered table games by registry key; the pages find a tournament's game here
GAMES: dict[str, TableGame] = {}


def game_by_key(key: str) -> TableGame | None:
    if key not in GAMES:
        all_games()  # the registry imports the game modules on first use
    return GAMES.get(key)


def table_game(tournament) -> TableGame | None:
    return game_by_key(tournament.game)
