"""Resolvable designs with blocks of 4: rounds of 4-tables in which every two players meet exactly once.

The social golfer problem asks how many rounds n players can play at tables of 4 without two of them
meeting twice. Each round a player meets 3 others, so at most (n - 1) // 3 rounds; a *resolvable design*
reaches that bound exactly: (n - 1) / 3 rounds (its "parallel classes") in which every pair meets once.
They exist for every n = 4 (mod 12) (Hanani, Ray-Chaudhuri and Wilson, 1972). Two families are built here:

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

Plain Python, no Django. `resolvable_rounds(n)` is the entry point.
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
