"""Quad-Ominos: registration in the game registry."""

from django.utils.translation import gettext_lazy as _

from . import GameType, register

GAME = register(GameType(key="quadominos", name=_("Quad-Ominos"), participants="player"))
