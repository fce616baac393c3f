"""Quad-Ominos at tables of 4 (2–8 possible): points per turn, a bonus for going out, first to 800 wins.

A registration only: the game's rules are `scoring.rules.quadominos` (the standard set and the beginner
set, chosen per tournament), the pages, sheets, standings and printouts the shared table-games layer
(`scoring.games.tablegames`), and `hands` deals the demo's rounds.
"""

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
        table_sizes=(4, 3),
        random_hand=random_hand,
        rounds=3,
        sheet_rows=15,
        demo_language="en",
    )
)
