"""Plausible random domino hands for the demo, as the table writes them (see `tablegames.sheets`)."""

from __future__ import annotations

import random

from scoring.rules.domino import BLINDE, FEMMER, TO_ENS

#: during-play points of a two alike hand: mostly small sums of 2s and 3s
TWO_ALIKE_POINTS = (0, 0, 2, 2, 3, 4, 5, 6, 8)


def random_hand(rng: random.Random, seats: list[int], spec, rules, number: int) -> dict:
    if spec.key == BLINDE:
        out = rng.choice(seats)
        dealt = rules.tiles_each[len(seats)]
        return {"tiles_left": {str(s): 0 if s == out else rng.randint(1, dealt) for s in seats}}
    # Two alike is won by the first player out of tiles; the others are sometimes blocked.
    blocked = spec.key != TO_ENS and rng.random() < 0.12
    out = None if blocked else rng.choice(seats)
    pips = {s: 0 if s == out else rng.randint(2, 18) for s in seats}
    if blocked:
        fewest = rng.choice(seats)  # a blocked hand with one clear winner
        pips[fewest] = rng.randint(0, min(v for s, v in pips.items() if s != fewest) - 1)
    row = {"pips": {str(s): v for s, v in pips.items()}, "out": out}
    if spec.key == FEMMER:
        row["play_points"] = {str(s): 5 * rng.choice((0, 0, 1, 2, 2, 3, 4, 6)) for s in seats}
    elif spec.key == TO_ENS:
        row["play_points"] = {str(s): rng.choice(TWO_ALIKE_POINTS) for s in seats}
    return row
