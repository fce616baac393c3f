"""Resolvable designs with blocks of 4: rounds of 4-tables in which every two players meet exactly once.

The social golfer problem asks how many rounds n players can play at tables of 4 without two of them
meeting twice. Each round a player meets 3 others, so at most (n - 1) // 3 rounds; a *resolvable design*
reaches that bound exactly: (n - 1) / 3 rounds (its "parallel classes") in which every pair meets once.
They exist for every n = 4 (mod 12) (Hanani, Ray-Chaudhuri and Wilson, 1972). Three families are built here
(together every such n from 16 to 196, and 256):

* n = 4**k (16, 64, 256): the lines of the affine space AG(k, 4). A round is a direction; its tables are
  the parallel lines of that direction. 16 players: 5 rounds, 64 players: 21 rounds.
* n = 3q + 1 for a prime power q = 1 (mod 4) (16, 28, 40, 76, 88, 112, 124, 148, 160, 184): points
  GF(q) x {0, 1, 2} and one point "infinity". One base round is developed by adding each field element
  in turn, giving q rounds. The base round is {inf, (0,0), (0,1), (0,2)} plus the images of a few base
  blocks under multiplication by the subgroup C of GF(q)* of index e (e = the power of 2 in q - 1).
  Every two points meet exactly once when, for each level pair, the differences of the base blocks
  hit every coset of C once (Bose's method of differences). The base blocks were found by a short
  backtracking search (`tools/seating_designs.py` finds such blocks again, not necessarily these) and are checked by
  `tests/rules/test_seating_season.py`.
* n = 3q + 1 for the other q = 1 (mod 4) up to 65 (52, 100, 136, 172, 196 players), q a prime power or not:
  the same shape over the integers mod q, with the multiplier -1 instead of a subgroup of a field: every
  base block is {(a, i), (-a, i), (b, j), (-b, j)}. Its differences on level i are +-2a, those between
  the levels +-(b - a) and +-(b + a). With 2 invertible mod q, the points +-a of a level taking each pair
  {x, -x} once gives every difference on that level once; the blocks of a level pair must give each
  pair {d, -d} of differences once (d = 0 is the infinity block's). Found by `tools/seating_designs.py`
  in seconds.

And one schedule that is not a design: 32 players, 10 rounds (the social golfer problem 8-4-10; the bound
(32 - 1) // 3 = 10; 16 pairs never meet). It is the one published in the Wolfram Demonstrations Project
"Social Golfer Problem", as collected in github.com/fpvandoorn/Dagstuhl-tables (literature.md, T(32,4));
8-4-10 was first solved by Aguado (2004). Renumbered here; it is a mathematical fact, checked by the tests.

Plain Python, no Django. `golfer_rounds(n)` is the entry point (`resolvable_rounds(n)`: the designs only).
"""

from __future__ import annotations

from functools import cache

# q -> base blocks (a, b, c, d): a, b on level i and c, d on level j, for the level pairs
# (0, 1), (1, 2), (2, 0) in turn, e/4 blocks each; field elements as Field encodes them.
BASE_BLOCKS: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    5: ((1, 4, 2, 3), (1, 4, 2, 3), (1, 4, 2, 3)),
    9: ((1, 2, 4, 8), (3, 6, 5, 7), (1, 2, 8, 4), (3, 6, 7, 5), (1, 2, 4, 8), (3, 6, 5, 7)),
    13: ((1, 2, 6, 10), (1, 7, 6, 8), (1, 4, 10, 8)),
    25: ((1, 15, 17, 7), (5, 23, 16, 15), (5, 10, 19, 1), (23, 20, 3, 15), (17, 12, 11, 2), (24, 21, 10, 17)),
    29: ((1, 4, 13, 25), (27, 14, 28, 11), (1, 10, 8, 3)),
    37: ((1, 20, 14, 10), (35, 4, 23, 24), (1, 25, 5, 21)),
    41: ((1, 28, 10, 21), (35, 31, 7, 12), (35, 36, 8, 40), (25, 19, 20, 6), (1, 38, 2, 30), (35, 7, 19, 21)),
    49: (
        (1, 42, 8, 14),
        (7, 34, 45, 12),
        (46, 48, 15, 5),
        (38, 31, 33, 23),
        (1, 35, 31, 30),
        (38, 37, 5, 25),
        (13, 24, 27, 10),
        (39, 18, 2, 21),
        (7, 26, 41, 15),
        (46, 22, 9, 6),
        (48, 12, 32, 44),
        (9, 16, 10, 37),
    ),
    53: ((1, 29, 14, 24), (4, 39, 10, 25), (51, 39, 8, 41)),
    61: ((1, 30, 28, 45), (1, 26, 45, 57), (59, 24, 38, 19)),
}
LEVEL_PAIRS = ((0, 1), (1, 2), (2, 0))

# q -> base blocks (a, b): {(a, i), (-a, i), (b, j), (-b, j)} in the integers mod q, for the level pairs
# (0, 1), (1, 2), (2, 0) in turn, (q - 1) / 4 blocks each.
SYMMETRIC_BLOCKS: dict[int, tuple[tuple[int, int], ...]] = {
    17: ((2, 1), (5, 3), (4, 8), (8, 2), (7, 6), (5, 3), (4, 7), (6, 1), (4, 3), (8, 6), (5, 1), (2, 7)),
    33: (
        (3, 2), (4, 6), (7, 10), (10, 14), (9, 3), (6, 13), (15, 7), (14, 1), (12, 13), (9, 7), (5, 8), (16, 12),
        (8, 2), (11, 4), (15, 6), (4, 15), (1, 2), (14, 12), (9, 13), (10, 5), (5, 11), (16, 8), (11, 1), (3, 16),
    ),
    45: (
        (19, 20), (7, 9), (10, 13), (14, 18), (20, 15), (15, 22), (17, 8), (21, 10), (18, 6), (2, 17), (22, 5),
        (11, 12), (2, 4), (4, 1), (19, 15), (3, 10), (14, 6), (12, 21), (7, 17), (16, 2), (1, 16), (21, 5),
        (8, 9), (7, 5), (14, 11), (20, 16), (9, 4), (18, 12), (13, 6), (11, 3), (3, 13), (19, 8), (22, 1),
    ),
    57: (
        (16, 15), (2, 4), (17, 20), (6, 10), (14, 9), (12, 5), (18, 26), (10, 19), (4, 14), (23, 12), (13, 1),
        (9, 24), (3, 22), (24, 3), (8, 9), (21, 23), (18, 21), (6, 2), (13, 8), (16, 22), (11, 18), (25, 16),
        (7, 17), (17, 28), (28, 14), (23, 3), (27, 5), (2, 25), (27, 28), (24, 27), (15, 19), (20, 15), (1, 8),
        (13, 5), (10, 20), (12, 1), (19, 7), (11, 25), (26, 11), (6, 22), (4, 21), (7, 26),
    ),
    65: (
        (14, 13), (13, 15), (3, 6), (5, 1), (17, 12), (25, 18), (12, 4), (30, 20), (21, 32), (10, 23), (15, 29),
        (9, 26), (26, 8), (22, 3), (11, 31), (1, 25), (17, 16), (2, 4), (7, 10), (10, 6), (24, 19), (14, 21),
        (16, 24), (9, 18), (27, 17), (21, 32), (22, 9), (28, 14), (11, 26), (19, 1), (30, 11), (5, 31),
        (28, 27), (30, 32), (22, 18), (29, 24), (25, 31), (12, 19), (15, 7), (13, 2), (7, 20), (2, 16),
        (20, 4), (23, 6), (27, 8), (3, 23), (8, 29), (5, 28),
    ),
}

# 32 players, 10 rounds without a repeated pair (see above): a round per line, a table per word, the players
# as the digits 0-9 a-v (0..31).
GOLFERS_32 = (
    "0123 4567 89ab cdef ghij klmn opqr stuv",
    "048s 17im 26hn 35av 9ert bdpu cgko fjlq",
    "0lru 1nqs 29fk 36do 4ipv 5beg 7ach 8jmt",
    "0bio 1ajp 28gr 39hq 4cnt 5fmu 6elv 7dks",
    "0adm 14fr 2lps 378u 59ci 6gqt bhkv ejno",
    "09nv 15ot 2cju 3eis 4bmq 6akr 7fgp 8dhl",
    "05jk 169u 27bt 34gl 8cqv afos dinr ehmp",
    "0fht 1dgv 24ae 3cmr 58np 6bjs 79lo ikqu",
    "06cp 18ek 25dq 3bfn 4hou 7jrv 9gms ailt",
    "07eq 1bcl 2mov 3kpt 49dj 5hrs 68fi agnu",
)


def golfer_rounds(n: int) -> list[list[list[int]]] | None:
    """The most rounds of tables of 4 over players 0..n-1 without two players meeting twice that this module
    knows: a resolvable design ((n - 1) / 3 rounds, every pair once) or, for 32 players, the 10 rounds of
    8-4-10 (16 pairs never meet). None for other counts. A new list each call (the caller may change it)."""
    if n == 32:
        return [[[int(p, 32) for p in table] for table in line.split()] for line in GOLFERS_32]
    return resolvable_rounds(n)


def resolvable_rounds(n: int) -> list[list[list[int]]] | None:
    """Rounds of tables of 4 over players 0..n-1 in which every pair meets exactly once, or None
    when no construction here gives one for n. A new list each call (the caller may change it)."""
    rounds = _cached_rounds(n)
    return [[list(table) for table in tables] for tables in rounds] if rounds else None


@cache
def _cached_rounds(n: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    k = _log4(n)
    if k is not None and k >= 2:
        return _affine_rounds(k)
    if n % 3 == 1 and (n - 1) // 3 in BASE_BLOCKS:
        return _rotational_rounds((n - 1) // 3)
    if n % 3 == 1 and (n - 1) // 3 in SYMMETRIC_BLOCKS:
        return _symmetric_rounds((n - 1) // 3)
    return None


def _log4(n: int) -> int | None:
    k = 0
    while n > 1 and n % 4 == 0:
        n //= 4
        k += 1
    return k if n == 1 else None


def _affine_rounds(k: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Parallel classes of the lines of AG(k, 4); a point is an int whose base-4 digits are its coordinates."""
    field = Field(2, 2)
    n = 4**k

    def times(t: int, point: int) -> int:  # t * point, coordinate-wise
        return sum(field.mul(t, point // 4**i % 4) * 4**i for i in range(k))

    def plus(a: int, b: int) -> int:  # in characteristic 2 each base-4 digit adds by xor
        return a ^ b

    # One direction per 1-dimensional subspace: vectors whose last nonzero coordinate is 1.
    directions = [d for d in range(1, n) if _top_digit(d) == 1]
    rounds = []
    for direction in directions:
        seen: set[int] = set()
        tables = []
        for point in range(n):
            if point not in seen:
                line = tuple(plus(point, times(t, direction)) for t in range(4))
                seen.update(line)
                tables.append(line)
        rounds.append(tuple(tables))
    return tuple(rounds)


def _top_digit(d: int) -> int:
    while d >= 4:
        d //= 4
    return d


def _rotational_rounds(q: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The 3q+1 design: point (x, level) is level * q + x, infinity is 3q; round t is the base round plus t."""
    field = Field.of_order(q)
    assert field is not None
    e = multiplier_index(q)
    subgroup = field.exp[::e]
    per_pair = e // 4
    base: list[list[tuple[int, int]]] = [[(0, 0), (0, 1), (0, 2)]]
    for index, (a, b, c, d) in enumerate(BASE_BLOCKS[q]):
        i, j = LEVEL_PAIRS[index // per_pair]
        for m in subgroup:
            base.append([(field.mul(m, a), i), (field.mul(m, b), i), (field.mul(m, c), j), (field.mul(m, d), j)])
    infinity = 3 * q
    rounds = []
    for t in range(q):
        tables = [tuple(level * q + field.add(x, t) for x, level in block) for block in base]
        tables[0] = (infinity, *tables[0])
        rounds.append(tuple(tables))
    return tuple(rounds)


def _symmetric_rounds(q: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The 3q+1 design over the integers mod q from `SYMMETRIC_BLOCKS`; points numbered as `_rotational_rounds`."""
    per_pair = (q - 1) // 4
    base: list[list[tuple[int, int]]] = [[(0, 0), (0, 1), (0, 2)]]
    for index, (a, b) in enumerate(SYMMETRIC_BLOCKS[q]):
        i, j = LEVEL_PAIRS[index // per_pair]
        base.append([(a, i), (q - a, i), (b, j), (q - b, j)])
    infinity = 3 * q
    rounds = []
    for t in range(q):
        tables = [tuple(level * q + (x + t) % q for x, level in block) for block in base]
        tables[0] = (infinity, *tables[0])
        rounds.append(tuple(tables))
    return tuple(rounds)


def multiplier_index(q: int) -> int:
    """The power of 2 in q - 1: the index of the multiplier subgroup (then -1 is not in it)."""
    e = 1
    while (q - 1) % (2 * e) == 0:
        e *= 2
    return e


class Field:
    """GF(p**k) on the integers 0..q-1 (base-p digits are the polynomial coefficients)."""

    def __init__(self, p: int, k: int):
        self.p, self.q = p, p**k
        self.exp = powers_of_x(p, k)
        self.log = {element: i for i, element in enumerate(self.exp)}

    @classmethod
    def of_order(cls, q: int) -> Field | None:
        """The field with q elements, when q is a prime power."""
        for p in range(2, q + 1):
            if q % p == 0:
                k, rest = 0, q
                while rest % p == 0:
                    rest //= p
                    k += 1
                return cls(p, k) if rest == 1 else None
        return None

    def add(self, a: int, b: int) -> int:
        if self.p == 2:
            return a ^ b
        total, place = 0, 1
        while a or b:
            total += (a % self.p + b % self.p) % self.p * place
            a, b, place = a // self.p, b // self.p, place * self.p
        return total

    def mul(self, a: int, b: int) -> int:
        if a == 0 or b == 0:
            return 0
        return self.exp[(self.log[a] + self.log[b]) % (self.q - 1)]


def powers_of_x(p: int, k: int) -> list[int]:
    """x**0 .. x**(q-2) modulo the first primitive polynomial of degree k over GF(p), as ints."""
    q = p**k
    for tail in range(1, q):  # coefficients of x**0..x**(k-1); the constant term must not be 0
        poly = [(tail // p**i) % p for i in range(k)]
        if poly[0] == 0:
            continue
        element, powers = [1] + [0] * (k - 1), []
        for _ in range(q - 1):
            powers.append(sum(c * p**i for i, c in enumerate(element)))
            top = element[-1]
            element = [0] + element[:-1]
            element = [(e - top * c) % p for e, c in zip(element, poly, strict=True)]
        if len(set(powers)) == q - 1:
            return powers
    raise AssertionError("every finite field has a primitive polynomial")
