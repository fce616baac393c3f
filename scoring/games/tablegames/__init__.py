"""The table games (domino, domino patiences, rummi, quad-ominos): one Django layer for all of them.

Every game or variant is a pure `GameSpec` (`scoring.rules.tablegames`). A registration is a thin
package (`scoring/games/domino/`, `rummi/`, `quadominos/`, `patience/`) that describes its game as a
`TableGame` — which specs are its variants, the table sizes it prefers, how many rounds a tournament
plays by default, how the demo deals a hand — and calls `register_table_game`. Everything else lives
here and is parameterised by the spec: settings (`config`), the seating draw and sheet entry
(`services`, `sheets`), standings, pages, printouts, demo and public pages. Nothing branches on a
game's key: the pages look the tournament's game up (`scoring.seated.game.seated_game`).

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from scoring.seated.game import register_seated

from .. import GameType, all_games
from .game import TableGame
from .seated import SeatedTableGame

#: the registered table games by registry key; the pages find a tournament's game here
GAMES: dict[str, TableGame] = {}


def game_by_key(key: str) -> TableGame | None:
    if key not in GAMES:
        all_games()  # the registry imports the game modules on first use
    return GAMES.get(key)


def _default_settings(game: TableGame) -> dict:
    from .config import default_settings

    return default_settings(game)


def _documents(tournament) -> dict:
    from .documents import documents

    return documents(tournament)


def _demo(game: TableGame, director, **options):
    from .demo import create_demo

    return create_demo(game, director, **options)


def _audit_values(game: TableGame) -> dict:
    """The audit log's words for stored settings: the variants as the settings form names them."""
    from django.utils.translation import gettext

    return {"variant": {key: gettext(spec.name) for key, spec in game.variants.items()}}


def register_table_game(game: TableGame) -> GameType:
    """Register `game` in the game registry with the shared layer's hooks. One URLconf serves every table game
    (its views find the game through the tournament); it is mounted once, for all of them
    (tournament/game_pages.py)."""
    GAMES[game.key] = game
    demo_arguments: tuple[tuple[str, dict[str, Any]], ...] = (
        ("--players", {"type": int, "default": game.demo_players,
                       "help": f"Number of players (default {game.demo_players})."}),
        ("--variant", {"choices": list(game.variants), "default": game.default_variant,
                       "help": f"Which game (default {game.default_variant})."}),
    )
    return register_seated(
        SeatedTableGame(game),
        package=__name__,
        description=game.description,
        default_settings=partial(_default_settings, game),
        demo=partial(_demo, game),
        demo_arguments=demo_arguments,
        documents=_documents,
        # a patience's one list per deal is no table's sheet: "Provisional — after 1 of 2 deals"
        result_unit="deals" if game.patience else "sheets",
        audit_values=partial(_audit_values, game),
    )
