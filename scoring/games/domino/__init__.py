"""Domino: the five scoring games at tables of 2–4 (blind domino 2–5), one chosen per tournament; its rules are
`scoring.rules.domino` (a table game's registration: `scoring.games.tablegames`)."""

from django.utils.translation import gettext_lazy as _

from scoring.rules.domino import SPECS, VARIANTS

from ..tablegames import register_table_game
from ..tablegames.family import TableGame
from .hands import random_hand

GAME = register_table_game(
    TableGame(
        key="domino",
        name=_("Domino"),
        description=_("Block, fives, sevens, two alike or blind domino at tables of 4 (some of 3), "
                      "one game per table and round."),
        variants={variant: SPECS[variant] for variant in VARIANTS},
        random_hand=random_hand,
        demo_language="da",
    )
)
