"""Plausible random Quad-Ominos rounds for the demo: turn points, who laid all tiles, remaining sums."""

from __future__ import annotations

import random


def random_hand(rng: random.Random, seats: list[int], spec, rules, number: int) -> dict:
    # Now and then nobody can lay all tiles: no bonus that round.
    winner = None if rng.random() < 0.05 else rng.choice(seats)
    turns = {}
    for seat in seats:
        points = rng.randint(60, 190) + (rules.start_bonus if number == 1 and seat == seats[0] else 0)
        points += rng.choice((0, 0, 0, 1)) * rules.draw_penalty  # a tile drawn from the well
        turns[str(seat)] = points
    remaining = {str(seat): 0 if seat == winner else rng.randint(3, 40) for seat in seats}
    return {"turn_points": turns, "winner": winner, "remaining": remaining}
