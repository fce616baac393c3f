"""Quad-Ominos at tables of 4 (2–8 possible): points per turn, a bonus for going out, first to 800 wins; its rules
are `scoring.rules.quadominos`, the standard set and the beginner set chosen per tournament (a table game's
registration: `scoring.games.tablegames`)."""

from django.utils.translation import gettext_lazy as _

from scoring.rules.quadominos import SPECS

from ..tablegames import register_table_game
from ..tablegames.family import TableGame
from .hands import random_hand

GAME = register_table_game(
    TableGame(
        key="quadominos",
        name=_("Quad-Ominos"),
        description=_("Quad-Ominos at tables of 4 (some of 3), one game per table and round to 800 points "
                      "(600 with the beginner set)."),
        variants={"standard": SPECS["quadominos"], "beginner": SPECS["quadominos_beginner"]},
        random_hand=random_hand,
        demo_language="en",
    )
)
