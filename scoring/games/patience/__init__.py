"""Domino patiences as single-player events: every player plays the same patience, one result per deal.

A registration only: the rules are the patiences of `scoring.rules.domino` (tiles left, then the finish
time when the director records it, then lot), the pages, result lists, standings and printouts the shared
table-games layer (`scoring.games.tablegames`), which seats the whole field on one sheet per deal.
"""

from __future__ import annotations

import random

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.rules.domino import PATIENCES, SPECS

from ..tablegames import register_table_game
from ..tablegames.family import TableGame

#: tiles left at the end of a deal: often solved or nearly, sometimes stuck early
TILES_LEFT = (0, 0, 0, 1, 2, 2, 3, 4, 5, 5, 6, 8, 10, 12, 15)


def random_result(rng: random.Random, seats: list[int], spec, rules, number: int) -> dict:
    return {"seat": seats[0], "tiles_left": rng.choice(TILES_LEFT)}


GAME = register_table_game(
    TableGame(
        key="domino_patience",
        # the game, not its first patience ("kabal", named "Domino patience" too): in Danish they differ
        name=pgettext_lazy("game", "Domino patience"),
        description=_("One of the six domino patiences, played by every player on their own; fewest tiles left "
                      "wins, then the earliest finish time."),
        variants={key: SPECS[key] for key in PATIENCES},
        table_sizes=(),
        random_hand=random_result,
        rounds=1,
        demo_players=20,
        demo_language="da",
    )
)
