"""Schafkopf: the game's registration (`game.Schafkopf`, a seated game).

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from .. import register
from .game import Schafkopf

GAME = register(Schafkopf())
