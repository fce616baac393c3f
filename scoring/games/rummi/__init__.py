"""Rummi at tables of 3–4 (2–6 possible): penalty points for the cards left in hand, the lowest total wins; its
rules are `scoring.rules.rummi` (a table game's registration: `scoring.games.tablegames`)."""

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
        random_hand=random_hand,
        sheet_rows=12,
        demo_players=12,
        demo_language="de",
    )
)
