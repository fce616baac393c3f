"""Domino: registration in the game registry."""

from django.utils.translation import gettext_lazy as _

from . import GameType, register

GAME = register(GameType(key="domino", name=_("Domino"), participants="player"))
