"""Find the base blocks of the 3q+1 resolvable designs in tournament/draw/designs.py again.

Run from the repository root: ``python tools/seating_designs.py [q ...]``; prints ``q: blocks`` lines in the
form of ``designs.BASE_BLOCKS``. ``python tools/seating_designs.py --symmetric [q ...]`` prints them in the
form of ``designs.SYMMETRIC_BLOCKS`` (below). The draw itself never searches: the blocks found once are stored.

For a prime power q = 1 (mod 4), e the power of 2 in q - 1 and C the subgroup of GF(q)* of index e, the
search looks for 3e/4 blocks (a, b, c, d), e/4 for each level pair (i, j) in (0,1), (1,2), (2,0), with a, b
on level i and c, d on level j, such that on every level the points, and the differences +-(a - b) of the
pairs on one level, hit every coset of C exactly once, and for every level pair the four differences
c - a, c - b, d - a, d - b of its blocks hit every coset exactly once. Then the blocks, multiplied by C,
together with {inf, (0,0), (0,1), (0,2)}, form a round whose q translates are a resolvable design.
Depth-first with random order and a node budget, restarting; a multiple of a block by C changes nothing,
so the first point of each block is the smallest coset still free. q = 17 (52 players) was not found in a
few minutes this way (there C = {1}: 12 blocks without any symmetry to lean on).

``--symmetric``: for any q = 1 (mod 4), a prime power or not, blocks {(a, i), (-a, i), (b, j), (-b, j)} in the
integers mod q, (q - 1) / 4 for each level pair. The points +-a of one level must take each pair {x, -x} once;
then its differences +-2a take each pair {d, -d} once by themselves (2 is invertible mod q). What is left to
search: the blocks of a level pair must give the difference pairs {+-(b - a)} and {+-(b + a)} each once.
Depth-first, the smallest difference pair not yet given first, with random order and restarts: q = 17 to 65
take 21 s of CPU together on a busy machine (65 needs a few restarts); the output is the stored blocks.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.draw.designs import LEVEL_PAIRS, Field, multiplier_index  # noqa: E402

PRIME_POWERS = [5, 9, 13, 17, 25, 29, 37, 41, 49, 53, 61]
SYMMETRIC = [17, 33, 45, 57, 65]


def find_base_blocks(q, seed=0, budget=200_000, restarts=30):
    field = Field.of_order(q)
    minus_one = field.p - 1

    def minus(a, b):
        return field.add(a, field.mul(minus_one, b))

    e = multiplier_index(q)
    coset = [None] + [field.log[x] % e for x in range(1, q)]
    slots = [pair for pair in LEVEL_PAIRS for _ in range(e // 4)]
    for attempt in range(restarts):
        blocks = _attempt(field, minus, e, coset, slots, random.Random(seed * 7919 + attempt), budget)
        if blocks:
            return blocks
    return None


def _attempt(field, minus, e, coset, slots, rng, budget):
    """One depth-first search with a node budget: the blocks, or None."""
    q = field.q
    points = [set() for _ in range(3)]
    pure = [set() for _ in range(3)]
    mixed = {pair: set() for pair in LEVEL_PAIRS}
    blocks, nodes = [], [budget]
    elements = list(range(1, q))

    def place(k):
        if k == len(slots):
            return True
        i, j = slots[k]
        first = min(c for c in range(e) if c not in points[i])
        a = field.exp[first]
        for b in rng.sample(elements, len(elements)):
            cb = coset[b]
            if cb == first or cb in points[i]:
                continue
            on_i = {coset[minus(a, b)], coset[minus(b, a)]}
            if len(on_i) < 2 or on_i & pure[i]:
                continue
            others = rng.sample(elements, len(elements))
            for c in others:
                nodes[0] -= 1
                if nodes[0] < 0:
                    return False
                cc = coset[c]
                if cc in points[j] or c in (a, b):
                    continue
                across_c = {coset[minus(c, a)], coset[minus(c, b)]}
                if len(across_c) < 2 or across_c & mixed[(i, j)]:
                    continue
                for d in others:
                    cd = coset[d]
                    if cd in points[j] or cd == cc or d in (a, b):
                        continue
                    on_j = {coset[minus(c, d)], coset[minus(d, c)]}
                    across = across_c | {coset[minus(d, a)], coset[minus(d, b)]}
                    if len(on_j) < 2 or on_j & pure[j] or len(across) < 4 or across & mixed[(i, j)]:
                        continue
                    points[i] |= {first, cb}
                    points[j] |= {cc, cd}
                    pure[i] |= on_i
                    pure[j] |= on_j
                    mixed[(i, j)] |= across
                    blocks.append((a, b, c, d))
                    if place(k + 1):
                        return True
                    blocks.pop()
                    points[i] -= {first, cb}
                    points[j] -= {cc, cd}
                    pure[i] -= on_i
                    pure[j] -= on_j
                    mixed[(i, j)] -= across
        return False

    return tuple(blocks) if place(0) else None


def find_symmetric_blocks(q, seed=0, budget=200_000, restarts=100):
    """Blocks (a, b) for designs.SYMMETRIC_BLOCKS[q], level pairs (0, 1), (1, 2), (2, 0) in turn, or None."""
    assert q % 4 == 1
    for attempt in range(restarts):
        blocks = _symmetric_attempt(q, random.Random(seed * 7919 + attempt), budget)
        if blocks:
            return blocks
    return None


def _symmetric_attempt(q, rng, budget):
    half = (q - 1) // 2  # the pairs {x, -x} of a level, named by x = 1..half
    used = [set(), set(), set()]  # pairs {x, -x} of each level already in a block
    blocks, nodes = [], [budget]

    def pair(x):
        x %= q
        return min(x, q - x)

    def place(k, given):
        if k == len(LEVEL_PAIRS):
            return True
        if len(given) == half:  # this level pair has every difference: the next one
            return place(k + 1, set())
        nodes[0] -= 1
        if nodes[0] < 0:
            return False
        i, j = LEVEL_PAIRS[k]
        wanted = min(d for d in range(1, half + 1) if d not in given)
        options = []
        for a in range(1, half + 1):
            for b in range(1, half + 1):
                if a in used[i] or b in used[j]:
                    continue
                one, two = pair(b - a), pair(b + a)
                if 0 in (one, two) or one == two or wanted not in (one, two):
                    continue
                other = two if one == wanted else one
                if other not in given:
                    options.append((a, b, other))
        rng.shuffle(options)
        for a, b, other in options:
            used[i].add(a)
            used[j].add(b)
            blocks.append((a, b))
            if place(k, given | {wanted, other}):
                return True
            blocks.pop()
            used[i].discard(a)
            used[j].discard(b)
        return False

    return tuple(blocks) if place(0, set()) else None


def main():
    arguments = sys.argv[1:]
    if arguments[:1] == ["--symmetric"]:
        for q in [int(arg) for arg in arguments[1:]] or SYMMETRIC:
            print(f"{q}: {find_symmetric_blocks(q)},", flush=True)
        return
    for q in [int(arg) for arg in arguments] or PRIME_POWERS:
        print(f"{q}: {find_base_blocks(q)},", flush=True)


if __name__ == "__main__":
    main()
