"""The registry of games.

A game is one instance of a `scoring.games.base.Game` subclass registered here; the tournament side asks
the registry for a tournament's game (`game_of`) and calls its methods, and never branches on a game's key.
Adding a game adds one package under `scoring/games/` that calls `register()`, listed in `GAME_MODULES`.
"""

from __future__ import annotations

import importlib
from typing import Any

from .base import Game

GAME_MODULES = ("voms", "schafkopf", "domino", "patience", "rummi", "quadominos")

_registry: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    if game.key in _registry and _registry[game.key] is not game:
        raise ValueError(f"game {game.key!r} registered twice")
    _registry[game.key] = game
    return game


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in GAME_MODULES:
            importlib.import_module(f"{__name__}.{module}")
        _loaded = True


def all_games() -> list[Game]:
    _load()
    return list(_registry.values())


def get_game(key: str) -> Game:
    """The game registered as `key`; KeyError for a key no game has."""
    _load()
    return _registry[key]


def game_of(obj) -> Game:
    """The game of a tournament or a season (anything with a `game` key)."""
    return get_game(obj.game)


def is_game(key) -> bool:
    _load()
    return key in _registry


def game_choices() -> list[tuple[str, Any]]:
    return [(g.key, g.name) for g in all_games()]
