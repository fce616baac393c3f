"""The table games (domino, domino patiences, rummi, quad-ominos): one Django layer for all of them.

Every game or variant is a pure `GameSpec` (`scoring.rules.tablegames`). A registration is a thin
package (`scoring/games/domino/`, `rummi/`, `quadominos/`, `patience/`) that describes its game as a
`TableGame` — which specs are its variants, the table sizes it prefers, how many rounds a tournament
plays by default, how the demo deals a hand — and calls `register_table_game`. Everything else lives
here and is parameterised by the spec: settings (`config`), the seating draw and sheet entry
(`services`, `sheets`), standings, pages, printouts, demo and public pages. Nothing branches on a
game's key: the pages look the tournament's game up in `GAMES`.

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.rules.tablegames import KIND_PATIENCE, GameSpec

from .. import GameType, all_games, register


@dataclass(frozen=True)
class TableGame:
    """What a registration tells the shared layer about its game."""

    key: str
    name: str | Promise
    description: str | Promise
    #: variant key -> spec; the first is the default
    variants: Mapping[str, GameSpec]
    #: table sizes, preferred first; other sizes the spec allows are added only when these cannot seat everyone
    table_sizes: tuple[int, ...]
    #: random_hand(rng, seats, spec, rules, hand_number) -> one stored hand row, for the demo
    random_hand: Callable[..., dict]
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


URLCONF = "scoring.games.tablegames.urls"

#: the registered table games by registry key; the pages find a tournament's game here
GAMES: dict[str, TableGame] = {}


def game_by_key(key: str) -> TableGame | None:
    if key not in GAMES:
        all_games()  # the registry imports the game modules on first use
    return GAMES.get(key)


def table_game(tournament) -> TableGame | None:
    return game_by_key(tournament.game)


def _default_settings(game: TableGame) -> dict:
    from .config import default_settings

    return default_settings(game)


def _menu(game: TableGame, tournament) -> list:
    def link(name, *args):
        return reverse(f"tournament:tablegames:{name}", args=[tournament.slug, *args])

    results = _("Results") if game.patience else _("Score sheets")
    return [
        (_("Overview"), link("overview")),
        (_("Players"), reverse("tournament:desk", args=[tournament.slug])),
        (_("Check-in"), reverse("tournament:checkin", args=[tournament.slug])),
        (_("Settings"), link("settings")),
        (_("Field") if game.patience else _("Seating"), link("seating")),
        (results, link("round", 1)),
        (_("Round board"), link("board")),
        (_("Standings"), link("standings")),
        (_("Printouts"), link("printouts")),
    ]


def _board(tournament, part, *, user=None):
    from scoring.board import seated_board

    return seated_board(tournament, part, namespace="tournament:tablegames", user=user)


def _documents(tournament) -> dict:
    from .documents import PRINTOUTS

    return PRINTOUTS.documents(tournament)


def _demo(game: TableGame, director, **options):
    from .demo import create_demo

    return create_demo(game, director, **options)


def _audit_values(game: TableGame) -> dict:
    """The audit log's words for stored settings: the variants as the settings form names them."""
    from django.utils.translation import gettext

    return {"variant": {key: gettext(spec.name) for key, spec in game.variants.items()}}


def register_table_game(game: TableGame) -> GameType:
    """Register `game` in the game registry with the shared layer's hooks."""
    # One URLconf serves every table game (its views find the game through the tournament); it is
    # mounted once, for all of them (tournament/game_pages.py).
    GAMES[game.key] = game
    demo_arguments: tuple[tuple[str, dict[str, Any]], ...] = (
        ("--players", {"type": int, "default": game.demo_players,
                       "help": f"Number of players (default {game.demo_players})."}),
        ("--variant", {"choices": list(game.variants), "default": game.default_variant,
                       "help": f"Which game (default {game.default_variant})."}),
    )
    return register(
        GameType(
            key=game.key,
            name=game.name,
            participants="player",
            description=game.description,
            default_settings=partial(_default_settings, game),
            demo=partial(_demo, game),
            demo_arguments=demo_arguments,
            menu=partial(_menu, game),
            urls=URLCONF,
            documents=_documents,
            public="scoring.games.tablegames.public.public",
            sheet_derive="scoring.games.tablegames.checks.sheet_derive",
            phone="scoring.games.tablegames.phone.table_page",
            check_settings="scoring.games.tablegames.checks.check_settings",
            board=_board,
            season_evening="scoring.games.tablegames.season.season_evening",
            # a patience's one list per deal is no table's sheet: "Provisional — after 1 of 2 deals"
            result_unit="deals" if game.patience else "sheets",
            audit_values=partial(_audit_values, game),
        )
    )
