"""Rummi at tables of 3–4 (2–6 possible): penalty points for the cards left in hand, the lowest total wins.

A registration only: the game's rules are `scoring.rules.rummi`, the pages, sheets, standings and
printouts the shared table-games layer (`scoring.games.tablegames`), and `hands` deals the demo's rounds.
"""

from django.utils.translation import gettext_lazy as _

from scoring.rules.rummi import SPECS

from ..tablegames import register_table_game
from ..tablegames.family import TableGame
from .hands import random_hand

GAME = register_table_game(
    TableGame(
        key="rummi",
        name=_("Rummi"),
        description=_("Rummi at tables of 4 (some of 3), one game per table and round to the penalty limit; "
                      "penalties typed as a number or as the cards left in hand."),
        variants=dict(SPECS),
        table_sizes=(4, 3),
        random_hand=random_hand,
        rounds=3,
        sheet_rows=12,
        demo_players=12,
        demo_language="de",
    )
)
