"""Time the seating draw (tournament/draw/seating.py) and print what it achieved.

Run from the repository root: ``python bench/seating.py``. Not a test: figures only.
The target is 2,000 players x 2 rounds well under a second with no repeated pair.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.draw.seating import draw_seating  # noqa: E402

CASES = [
    # (players, rounds, clubs of this size or 0, players fixed to a table)
    (64, 2, 0, 0),
    (64, 3, 0, 0),
    (400, 2, 0, 0),
    (400, 3, 0, 0),
    (400, 4, 0, 0),
    (2000, 2, 0, 0),
    (2001, 2, 0, 0),
    (2000, 3, 0, 0),
    (2000, 2, 8, 10),
    (18, 2, 0, 0),
    (24, 4, 0, 0),
]
REPEATS = 3


def clubs(players, size):
    return {p: f"club {i // size}" for i, p in enumerate(players)} if size else {}


def fixed_tables(players, count):
    return {p: 1 + 3 * i for i, p in enumerate(players[:count])}


def main():
    header = ["players", "rounds", "clubs", "fixed", "best s", "repeats", "seat rep", "club"]
    print(" ".join(f"{name:>8}" for name in header))
    for n, rounds, club_size, n_fixed in CASES:
        players = list(range(1, n + 1))
        groups, fixed = clubs(players, club_size), fixed_tables(players, n_fixed)
        timings = []
        for seed in range(REPEATS):
            start = time.perf_counter()
            seating = draw_seating(players, rounds, seed=seed, groups=groups, fixed=fixed)
            timings.append(time.perf_counter() - start)
        print(
            f"{n:>8} {rounds:>8} {club_size:>8} {n_fixed:>8} {min(timings):>8.3f} {seating.repeated_pairs():>8} "
            f"{seating.seat_repeats():>8} {seating.group_conflicts(groups):>8}"
        )


if __name__ == "__main__":
    main()
