"""Time the seating draw (tournament/draw/seating.py) and print what it achieved.

Run from the repository root: ``python bench/seating.py``. Not a test: figures only.
The target is 2,000 players x 2 rounds well under a second with no repeated pair.

``python bench/seating.py --rounds`` instead reports, for player counts from 16 to 200, the most rounds the
draw seats without a repeated pair, with tables of 4 only and with tables of 4 and 5, against the bound
(n - 1) // 3 (everyone meets at least 3 new people a round), and the time of that draw. ``--all`` takes
every count from 16 to 200 (long); the default is a sample. Each count stops after ``BUDGET`` seconds of
draws and then reports what it reached as "at least".
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.draw.designs import golfer_rounds  # noqa: E402
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


BUDGET = 12.0
SAMPLE_FOURS = [16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 64, 76, 88, 100, 124, 136, 160, 172, 184, 196, 200]
SAMPLE_MIXED = [17, 18, 19, 21, 22, 23, 25, 29, 33, 37, 41, 45, 53, 61, 77, 99, 150, 199]


def most_rounds(n, sizes):
    """(most rounds without a repeated pair, seconds of that draw, True if the budget ran out first)."""
    players = list(range(1, n + 1))
    bound = (n - 1) // 3
    design = golfer_rounds(n) if set(sizes) == {4} else None
    if design:  # the draw takes it: check that one draw rather than climbing to it round by round
        start = time.perf_counter()
        seating = draw_seating(players, len(design), seed=1, sizes=sizes)
        if not seating.repeated_pairs():
            return len(design), time.perf_counter() - start, False
    best, best_time, spent, rounds = 0, 0.0, 0.0, 1
    while rounds <= bound:
        start = time.perf_counter()
        seating = draw_seating(players, rounds, seed=rounds, sizes=sizes)
        elapsed = time.perf_counter() - start
        spent += elapsed
        if seating.repeated_pairs():
            return best, best_time, False
        best, best_time = rounds, elapsed
        if spent > BUDGET:
            return best, best_time, rounds < bound
        rounds += 1
    return best, best_time, False


def rounds_table(counts_four, counts_mixed):
    print(f"{'players':>8} {'tables':>7} {'rounds':>7} {'bound':>6} {'s':>7}")
    for counts, sizes, label in ((counts_four, (4,), "4"), (counts_mixed, (4, 5), "4/5")):
        for n in counts:
            best, seconds, cut = most_rounds(n, sizes)
            reached = f"{'>=' if cut else ''}{best}"
            print(f"{n:>8} {label:>7} {reached:>7} {(n - 1) // 3:>6} {seconds:>7.2f}", flush=True)


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", action="store_true", help="most rounds without a repeated pair, n = 16..200")
    parser.add_argument("--all", action="store_true", help="with --rounds: every count, not a sample")
    arguments = parser.parse_args()
    if arguments.rounds and arguments.all:
        rounds_table([n for n in range(16, 201) if n % 4 == 0], [n for n in range(16, 201) if n % 4])
    elif arguments.rounds:
        rounds_table(SAMPLE_FOURS, SAMPLE_MIXED)
    else:
        main()
