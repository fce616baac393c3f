"""The table games (domino, domino patiences, rummi, quad-ominos): one Django layer for all of them.

Every game or variant is a pure `GameSpec` (`scoring.rules.tablegames`). A registration is a thin
package (`scoring/games/domino/`, `rummi/`, `quadominos/`, `patience/`) that describes its game as a
`TableGame` (`family`) — which specs are its variants, the table sizes it prefers, how many rounds a
tournament plays by default, how the demo deals a hand (its `hands` module) — and calls
`register_table_game`. Everything else is the seated layer's (`scoring.seated`) or lives here,
parameterised by the spec: settings (`config`), sheet entry (`services`, `sheets`), standings, sheet pages,
printouts, demo and public pages, and the game in the registry (`seated.SeatedTableGame`). Nothing branches
on a game's key.
"""

from __future__ import annotations

from .. import register
from ..base import Game
from .family import GAMES, TableGame
from .seated import SeatedTableGame


def register_table_game(game: TableGame) -> Game:
    """Register `game` in the game registry with the shared layer's hooks."""
    GAMES[game.key] = game
    return register(SeatedTableGame(game))
