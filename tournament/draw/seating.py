"""The seating draw: who sits at which table, on which seat, in every round.

Used by Schafkopf (tables of 4, some of 5) and by the seated table games (domino, rummi,
quad-ominos: tables of other sizes). Pure Python, no Django: the Django layer passes
participant ids and settings and stores what comes back.

Public API
----------
``table_sizes(n_players, sizes=(4, 5)) -> list[int]``
    The size of every table, in table-number order (largest first). ``sizes[0]`` is the
    preferred size; the other sizes are used as few times as possible to fit the count.
    Raises ``RuleError`` ``no_players`` or ``unseatable_player_count`` (the message names
    the nearest counts that can be seated).
``draw_seating(players, rounds, *, seed, sizes=(4, 5), groups=None, fixed=None, avoid=None) -> Seating``
    Draws every round at once, reproducibly from ``seed`` (an int or a str). ``groups``
    maps a player id to a club or family name (kept at different tables when possible);
    ``fixed`` maps a player id to a table number (1-based) the player keeps in every round.
    ``avoid`` maps ``frozenset({a, b})`` to how often a and b met earlier in the season
    (people not in the draw are ignored).
    Raises ``RuleError`` for impossible counts, duplicate players, bad fixed tables.
``fewest_repeated_pairs(sizes, rounds) -> int``
    The fewest repeated pairs any seating at these tables over these rounds has (a proven lower bound).
``Seating``
    ``rounds[r][t]`` is the tuple of player ids at table ``t + 1`` in round ``r + 1``, in seat
    order (seat 1, the scribe, first). ``table_sizes``, ``repeated_pairs()``,
    ``seat_repeats()``, ``group_conflicts(groups)``, ``large_table_repeats()``, ``pair_meetings()``,
    ``met_again(avoid)`` and ``where(player)``
    (1-based ``(round, table, seat)`` triples) describe it.

The draw depends on the set of players, not on the order they are passed in (ids are
sorted first when they can be compared with each other).

What it guarantees, in order of priority
----------------------------------------
1. Everyone has exactly one seat per round; tables have the sizes of ``table_sizes``;
   a fixed player is at the fixed table in every round.
2. Players of the same group at different tables whenever the search finds a way
   (always, in practice, when no group has more members than there are tables).
3. No two players meet twice. Over 2 rounds this is possible exactly when there are at
   least as many tables as seats at the largest table (for sizes that differ by at most
   one, like 4/5 or 3/4), and the construction then always achieves it. Over more rounds
   it achieves it for as many rounds as it has "difference vectors" (below): with T tables
   and the largest table w <= T, T rounds when T is a prime power (T + 1 when every table
   seats exactly T: 16 players at 4-tables get 5 rounds); for other T what multiples or a
   search in the integers mod T find, which for 4/5-tables is at least 5 rounds for every
   T >= w. So with 4/5-tables, 16 or 20+ players get up to 4 rounds without a repeat.
   With tables of 4 only and a resolvable design for the count (``designs.py``: every
   n = 4 (mod 12) from 16 to 196, and 256; 32 players: the 10 rounds of
   8-4-10) the draw takes the design when it has more rounds: the social-golfer limit
   (n - 1) // 3 (28 players: 9 rounds, 32: 10, 40: 13, 52: 17, 64: 21, 100: 33), and
   beyond it the design again under new numbers, so nobody meets anyone a third time before
   every pair has met twice. (At most one fixed player there.) Where there are fewer tables than
   seats at a 5-table (17, 18, 19 players: four tables, one to three of 5) any two rounds share at
   least f = 1, 2, 3 pairs, so R rounds have at least f(R - 1) repeated pairs (`_unavoidable_repeats`),
   and the draw reaches that for up to 4 rounds (17 players: 5) by seating f pairs as one unit each
   (`_pair_unit_rounds`): those pairs meet every round at a 5-table, nobody else twice (17 in 3 rounds:
   2 repeats). Beyond all that a tabu search minimises the repeats, a pair meeting k times costing
   k(k - 1): repeats are spread; it stops where no seating can cost less.
   With ``avoid`` (earlier evenings of a season) a pair that met t times before counts as
   1 + 2 + ... + t earlier meetings: players are first exchanged throughout all rounds
   (keeping the rounds' structure, so no repeat within the evening is added) to keep such
   pairs apart, then the tabu search weighs them with the rest.
4. Nobody sits on the same seat number twice while the rounds do not outnumber the seats
   (so nobody is scribe twice): a Latin square of seat numbers over the columns of the
   construction, then Konig's edge colouring where tables differ (it never moves a player
   to another table, and succeeds whenever all tables have one size).
5. The seats at the larger tables (5-tables among 4-tables) are shared: nobody sits at one
   twice while someone else never does, whenever that costs no more repeated pairs or group
   conflicts (a second, fair search after the first; the fewer repeats win a tie-break). With the
   pair units above, the pairs sit at the 5-tables every round; the others' turns there are spread
   as evenly as that construction allows.

How it works
------------
Round 1 is a random grid: table t, column j (players of a group in consecutive slots of
the same column, so a column never puts two of them at one table). Round r sends the
player at (t, j) to table t + c_r[j], where the vectors c_r are chosen so that, for any
two rounds, j -> c_r[j] - c_s[j] is injective: two players then share a table in at most
one round (they would need c_r[j] - c_r[k] = c_s[j] - c_s[k]). Column 0 never moves
(c_r[0] = 0), so fixed players start there. The groups of each round are given random
table numbers, players who do not fit (extra columns, fixed players, size mismatches) are
placed greedily, and a tabu search swapping two players of one round removes what is left
of the weighted cost (group conflicts > repeated pairs > repeated seat numbers).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import combinations, combinations_with_replacement, count
from math import comb

from scoring.rules.base import RuleError, gettext_noop, require_each_once

from .designs import Field, golfer_rounds

PlayerId = Hashable
Table = tuple[PlayerId, ...]

# What the search minimises; the ratios set the priority when the wishes collide.
GROUP_WEIGHT = 100
PAIR_WEIGHT = 10
SEAT_WEIGHT = 1

_INFINITY = 1 << 60
# Large draws are well structured: sampling this many tables per search step is plenty.
_SCAN_LIMIT = 64
_VECTOR_SEARCH_NODES = 20_000
_VECTOR_SEARCH_RESTARTS = 20


# --------------------------------------------------------------------------- result


@dataclass(frozen=True)
class Seating:
    """A drawn seating: ``rounds[r][t]`` = player ids at table t+1 of round r+1, seat 1 first."""

    rounds: list[list[Table]]
    seed: int | str

    @property
    def table_sizes(self) -> list[int]:
        """Seats per table, in table-number order (the same in every round)."""
        return [len(table) for table in self.rounds[0]] if self.rounds else []

    def repeated_pairs(self) -> int:
        """How many times two players share a table again (a pair meeting 3 times counts 2)."""
        meetings = Counter(
            frozenset(pair) for tables in self.rounds for table in tables for pair in combinations(table, 2)
        )
        return sum(times - 1 for times in meetings.values())

    def met_again(self, avoid: Mapping[frozenset, int]) -> int:
        """How many pairs who met before (the keys of `avoid` with a count) share a table again in this seating."""
        return sum(1 for pair in self._pairs if avoid.get(pair))

    @cached_property
    def _pairs(self) -> set[frozenset]:
        return {frozenset(pair) for tables in self.rounds for table in tables for pair in combinations(table, 2)}

    def pair_meetings(self) -> Counter[frozenset]:
        """How often each pair shares a table: {frozenset({a, b}): times}, pairs that never meet left out."""
        return Counter(
            frozenset(pair) for tables in self.rounds for table in tables for pair in combinations(table, 2)
        )

    def seat_repeats(self) -> int:
        """How many times a player sits on a seat number he already had in an earlier round."""
        seats = Counter(
            (player, seat) for tables in self.rounds for table in tables for seat, player in enumerate(table)
        )
        return sum(times - 1 for times in seats.values())

    def group_conflicts(self, groups: Mapping[PlayerId, str]) -> int:
        """Pairs of players of the same group at one table, summed over tables and rounds."""
        return sum(
            1
            for tables in self.rounds
            for table in tables
            for a, b in combinations(table, 2)
            if groups.get(a) and groups.get(a) == groups.get(b)
        )

    def large_table_repeats(self) -> dict[PlayerId, int]:
        """Who sits at one of the larger tables (a 5-table among 4-tables) in more than one round: {player: rounds}.
        Empty when all tables have one size."""
        sizes = self.table_sizes
        if len(set(sizes)) < 2:
            return {}
        large = max(sizes)
        times = Counter(player for tables in self.rounds for table in tables if len(table) == large for player in table)
        return {player: n for player, n in times.items() if n > 1}

    def where(self, player: PlayerId) -> list[tuple[int, int, int]]:
        """``(round, table, seat)`` of `player` in every round, numbered from 1 as printed."""
        return self._places.get(player, [])

    @cached_property
    def _places(self) -> dict[PlayerId, list[tuple[int, int, int]]]:
        places: dict[PlayerId, list[tuple[int, int, int]]] = {}
        for round_no, tables in enumerate(self.rounds, start=1):
            for table_no, table in enumerate(tables, start=1):
                for seat_no, player in enumerate(table, start=1):
                    places.setdefault(player, []).append((round_no, table_no, seat_no))
        return places


# --------------------------------------------------------------------------- table sizes


def table_sizes(n_players: int, sizes: Sequence[int] = (4, 5)) -> list[int]:
    """Size of every table for `n_players`, largest first (table 1 is the first entry).

    ``sizes[0]`` is the preferred size; the others are used as few times as possible and,
    among equally few, the earlier-named ones first. Schafkopf: ``(4, 5)`` gives 4-tables
    and at most three 5-tables; table games: e.g. ``(4, 3)`` or ``(2, 3, 4)``.
    """
    sizes = _checked_sizes(sizes)
    if n_players <= 0:
        raise RuleError(
            "no_players",
            gettext_noop("There are no players to seat. Register players before drawing the seating."),
            field="players",
        )
    others = _fewest_other_tables(n_players, sizes)
    if others is None:
        raise _unseatable(n_players, sizes)
    preferred = sizes[0]
    return sorted([preferred] * ((n_players - sum(others)) // preferred) + list(others), reverse=True)


def _checked_sizes(sizes: Sequence[int]) -> tuple[int, ...]:
    sizes = tuple(sizes)
    valid = bool(sizes) and all(isinstance(s, int) and not isinstance(s, bool) and s >= 2 for s in sizes)
    if not valid or len(set(sizes)) != len(sizes):
        raise RuleError(
            "invalid_table_sizes",
            gettext_noop("Table sizes must be whole numbers of at least 2 players, each named once (got %(sizes)s)."),
            field="sizes",
            sizes=", ".join(map(str, sizes)),
        )
    return sizes


def _fewest_other_tables(n_players: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """The non-preferred tables of the best split, or None when `n_players` cannot be seated."""
    preferred, others = sizes[0], sizes[1:]
    # Fewer than `preferred` other tables always suffice: among that many, some subset
    # seats a multiple of `preferred` players and could be replaced by preferred tables.
    for k in range(preferred):
        for combo in combinations_with_replacement(others, k):
            rest = n_players - sum(combo)
            if rest >= 0 and rest % preferred == 0 and (rest or combo):
                return combo
    return None


def _seatable(n_players: int, sizes: tuple[int, ...]) -> bool:
    return n_players > 0 and _fewest_other_tables(n_players, sizes) is not None


def _unseatable(n_players: int, sizes: tuple[int, ...]) -> RuleError:
    up = next(m for m in count(n_players + 1) if _seatable(m, sizes))
    down = next((m for m in range(n_players - 1, 0, -1) if _seatable(m, sizes)), None)
    shown = "/".join(map(str, sizes))
    if down is None:
        return RuleError(
            "unseatable_player_count",
            gettext_noop(
                "%(count)s players cannot be seated at tables of %(sizes)s players. "
                "Add %(add)s player(s) to have %(up)s."
            ),
            field="players",
            count=n_players,
            sizes=shown,
            add=up - n_players,
            up=up,
        )
    return RuleError(
        "unseatable_player_count",
        gettext_noop(
            "%(count)s players cannot be seated at tables of %(sizes)s players. "
            "Add %(add)s player(s) to have %(up)s, or remove %(remove)s to have %(down)s."
        ),
        field="players",
        count=n_players,
        sizes=shown,
        add=up - n_players,
        up=up,
        remove=n_players - down,
        down=down,
    )


def fewest_repeated_pairs(sizes: Sequence[int], rounds: int) -> int:
    """The fewest repeated pairs (as ``Seating.repeated_pairs`` counts them) any seating at tables of these
    `sizes` (one entry per table, as ``table_sizes`` gives) has over `rounds` rounds: a proven lower bound, which
    the draw reaches with tables of 4 and 5 for 17, 18 and 19 players (up to 4 rounds; 17: 5), and where it is 0
    within the limits of guarantee 3 above (``_unavoidable_repeats``). The draw page tells the director whether the
    repeats of a draw are unavoidable."""
    return _unavoidable_repeats(_Problem(n=sum(sizes), rounds=rounds, sizes=list(sizes), group_of=[], fixed_of=[],
                                         prior=[]))


# --------------------------------------------------------------------------- the draw


@dataclass(frozen=True)
class _Problem:
    """The draw in indices: players 0..n-1, tables 0..T-1."""

    n: int
    rounds: int
    sizes: list[int]
    group_of: list[int]  # -1: no group
    fixed_of: list[int]  # table index, -1: not fixed
    prior: list[dict[int, int]]  # earlier meetings (this season): prior[a][b] = 1 + 2 + ... + times a and b met


def draw_seating(
    players: Sequence[PlayerId],
    rounds: int,
    *,
    seed: int | str,
    sizes: Sequence[int] = (4, 5),
    groups: Mapping[PlayerId, str] | None = None,
    fixed: Mapping[PlayerId, int] | None = None,
    avoid: Mapping[frozenset, int] | None = None,
) -> Seating:
    """Draw tables and seats of every round; see the module docstring for what is guaranteed.

    `groups` entries for players not in the draw, and empty group names, are ignored.
    `fixed` table numbers are 1-based, as printed.
    `avoid` maps a pair ``frozenset({a, b})`` to how often a and b already met (earlier evenings of a
    season); they count as earlier meetings of this draw. Pairs naming someone not in the draw are ignored.
    """
    if seed is None:
        raise ValueError("draw_seating needs a seed to be reproducible")
    ids = _canonical_order(players)
    if not isinstance(rounds, int) or rounds < 1:
        raise RuleError(
            "invalid_rounds",
            gettext_noop("The number of rounds must be at least 1 (got %(rounds)s)."),
            field="rounds",
            rounds=rounds,
        )
    table_list = table_sizes(len(ids), sizes)
    index = {player: i for i, player in enumerate(ids)}
    problem = _Problem(
        n=len(ids),
        rounds=rounds,
        sizes=table_list,
        group_of=_group_indices(ids, groups or {}),
        fixed_of=_fixed_tables(ids, index, fixed or {}, table_list),
        prior=_prior_meetings(index, avoid or {}),
    )
    slots = _solve(problem, random.Random(seed))
    return Seating([[tuple(ids[p] for p in table) for table in tables] for tables in slots], seed)


def _canonical_order(players: Sequence[PlayerId]) -> list[PlayerId]:
    ids = list(players)
    require_each_once(ids, "duplicate_player",
                      gettext_noop("Player %(player)s is listed twice. Remove the duplicate before drawing."),
                      field="players", name="player")
    try:
        return sorted(ids)
    except TypeError:  # ids of mixed types: keep the caller's order
        return ids


def _group_indices(ids: list[PlayerId], groups: Mapping[PlayerId, str]) -> list[int]:
    numbers: dict[str, int] = {}
    return [numbers.setdefault(groups[p], len(numbers)) if groups.get(p) else -1 for p in ids]


def _prior_meetings(index: dict[PlayerId, int], avoid: Mapping[frozenset, int]) -> list[dict[int, int]]:
    prior: list[dict[int, int]] = [{} for _ in index]
    for pair, times in avoid.items():
        members = tuple(pair) if isinstance(pair, (frozenset, set, tuple)) else ()
        if len(members) != 2 or isinstance(times, bool) or not isinstance(times, int) or times < 0:
            raise RuleError(
                "invalid_avoid",
                gettext_noop(
                    "Earlier meetings must name two players and how often they met (got %(pair)s: %(times)s)."
                ),
                field="avoid",
                pair=", ".join(map(str, members)) or str(pair),
                times=times,
            )
        a, b = members
        if times and a in index and b in index:
            # Counted as 1 + 2 + ... + times earlier meetings: a third meeting weighs more than two second
            # ones, so the repeats a season forces go to the pairs that met least.
            prior[index[a]][index[b]] = prior[index[b]][index[a]] = times * (times + 1) // 2
    return prior


def _fixed_tables(
    ids: list[PlayerId], index: dict[PlayerId, int], fixed: Mapping[PlayerId, int], table_list: list[int]
) -> list[int]:
    fixed_of = [-1] * len(ids)
    for player, table in fixed.items():
        if player not in index:
            raise RuleError(
                "unknown_player",
                gettext_noop(
                    "Player %(player)s is fixed to a table but is not in the draw. "
                    "Remove the fixed table or register the player."
                ),
                field="fixed",
                player=player,
            )
        if not isinstance(table, int) or not 1 <= table <= len(table_list):
            raise RuleError(
                "fixed_table_out_of_range",
                gettext_noop(
                    "Player %(player)s is fixed to table %(table)s, but there are only %(tables)s tables. "
                    "Choose a table from 1 to %(tables)s."
                ),
                field="fixed",
                player=player,
                table=table,
                tables=len(table_list),
            )
        fixed_of[index[player]] = table - 1
    crowded = Counter(t for t in fixed_of if t >= 0)
    for table, number in sorted(crowded.items()):
        if number > table_list[table]:
            raise RuleError(
                "too_many_fixed",
                gettext_noop(
                    "%(count)s players are fixed to table %(table)s, which seats only %(size)s. "
                    "Fix some of them to another table."
                ),
                field="fixed",
                count=number,
                table=table + 1,
                size=table_list[table],
            )
    return fixed_of


def _solve(problem: _Problem, rng: random.Random) -> list[list[list[int]]]:
    paired = _pair_unit_rounds(problem, rng)
    memberships = paired or _build_rounds(problem, _first_round_grid(problem, rng), rng)
    _fit_wishes(problem, memberships)
    column_of = [0] * problem.n
    for table in memberships[0]:
        for column, player in enumerate(table):
            column_of[player] = column
    state = _State(problem, _assign_seats(problem, memberships, column_of, rng))
    kept = None
    if paired:  # already the fewest repeats: settle the seat numbers (moving nobody) and keep it
        _recolor_seats(state)
        kept = [[list(table) for table in tables] for tables in state.slots]
    before = _pair_and_group_cost(state)
    _local_search(state, rng)
    if kept is not None and _pair_and_group_cost(state) > before:
        # The search weighs three pairs meeting twice as one pair meeting three times (repeats spread): with
        # groups to separate it may end at more repeats; the construction's fewest repeats are kept then.
        state.load(kept)
    if not paired:  # there a fair share of the 5-tables would cost repeats (the pairs sit there every round)
        _share_large_tables(state, rng)
    _recolor_seats(state)
    return _shuffle_table_numbers(problem, state.slots, rng)


# --------------------------------------------------------------------------- construction


def _first_round_grid(problem: _Problem, rng: random.Random) -> list[list[int]]:
    """Round 1 as grid[t][column]; fixed players in column 0, groups along columns."""
    sizes = problem.sizes
    grid: list[list[int]] = [[-1] * size for size in sizes]
    for player, table in enumerate(problem.fixed_of):
        if table >= 0:
            grid[table][grid[table].index(-1)] = player
    # Tables are ordered largest first, so every column's tables are a prefix of the
    # table order: consecutive slots in this order are at different tables.
    full = min(sizes)
    start = rng.randrange(full)
    column_order = [(start + i) % full for i in range(full)] + list(range(full, max(sizes)))
    free_slots = [(t, j) for j in column_order for t in range(len(sizes)) if j < sizes[t] and grid[t][j] < 0]
    for (t, j), player in zip(free_slots, _players_by_group(problem, rng), strict=True):
        grid[t][j] = player
    return grid


def _players_by_group(problem: _Problem, rng: random.Random) -> list[int]:
    """Unfixed players in random order, members of a group next to each other, large groups first."""
    free = [p for p in range(problem.n) if problem.fixed_of[p] < 0]
    rng.shuffle(free)
    group_sizes = Counter(problem.group_of[p] for p in free if problem.group_of[p] >= 0)
    ranked = list(group_sizes)
    rng.shuffle(ranked)
    rank = {group: i for i, group in enumerate(ranked)}

    def key(player: int) -> tuple[int, int, int]:
        group = problem.group_of[player]
        return (0, -group_sizes[group], rank[group]) if group >= 0 else (1, 0, 0)

    return sorted(free, key=key)


def _build_rounds(problem: _Problem, grid: list[list[int]], rng: random.Random) -> list[list[list[int]]]:
    """Table members of every round (seats come later)."""
    sizes, n_tables = problem.sizes, len(problem.sizes)
    width = min(max(sizes), n_tables)
    maps = _structured_rounds(n_tables, width, problem.rounds, len(set(sizes)) == 1 and sizes[0] == n_tables, rng)
    if problem.rounds > len(maps) and (design := _design_rounds(problem, len(maps), rng)):
        return design
    meet: list[dict[int, int]] = [dict(row) for row in problem.prior]
    rounds = [[list(row) for row in grid]]
    _add_meetings(meet, rounds[0])
    for r in range(1, problem.rounds):
        if r < len(maps):
            groups: list[list[int]] = [[] for _ in range(n_tables)]
            leftover = []
            for j in range(max(sizes)):  # column 0 first: its fixed players claim their table
                for t in range(n_tables):
                    if j < sizes[t]:
                        if j < width:
                            groups[maps[r](t, j)].append(grid[t][j])
                        else:
                            leftover.append(grid[t][j])
            tables, evicted = _label_groups(groups, problem, rng)
            leftover += evicted
        else:
            tables, leftover = [[] for _ in range(n_tables)], list(range(problem.n))
        _place_leftovers(tables, leftover, problem, meet, rng)
        rounds.append(tables)
        _add_meetings(meet, tables)
    return rounds


def _design_rounds(problem: _Problem, constructed: int, rng: random.Random) -> list[list[list[int]]] | None:
    """All rounds from a resolvable design (`designs.golfer_rounds`) when there is one for this many players
    at tables of 4 and it gives more rounds without a repeat than the construction (`constructed`): every pair
    meets once in each run through its rounds (32 players: at most once), so beyond them the design starts
    again under new player numbers and nobody meets anyone a third time before everyone has met everyone
    twice (32: before every pair that can has). None when it does not apply:
    other table sizes, or more than one fixed player (two fixed players would meet in one of its rounds)."""
    sizes = problem.sizes
    if set(sizes) != {4} or sum(t >= 0 for t in problem.fixed_of) > 1:
        return None
    design = golfer_rounds(problem.n)
    if design is None or len(design) <= constructed:
        return None
    rounds: list[list[list[int]]] = []
    while len(rounds) < problem.rounds:
        players = list(range(problem.n))
        rng.shuffle(players)
        for blocks in design[: problem.rounds - len(rounds)]:
            tables, evicted = _label_groups([[players[p] for p in block] for block in blocks], problem, rng)
            assert not evicted  # at most one fixed player: his table is the one labelled with it
            rounds.append(tables)
    return rounds


def _pair_unit_rounds(problem: _Problem, rng: random.Random) -> list[list[list[int]]] | None:
    """Table members of every round when a few 5-tables among too few 4-tables force repeats (17, 18, 19 players:
    four tables), built to reach the fewest repeats there are (`_unavoidable_repeats`); None where it does not.

    With k 5-tables, k pairs of players are each seated as one unit, and the n - k units take the tables of 4 of
    a resolvable design (`designs.golfer_rounds`, 16 units: the 5 rounds of AG(2, 4)) in which no two units meet
    twice; a table holding a pair unit is a 5-table. The k pair units are taken from one table of some round of
    the design, and that round is left out when k > 1, so two pair units never meet. Each pair then meets in
    every round, nobody else meets anyone twice: k(R - 1) repeats, the floor for these tables (17 players in
    3 rounds: one pair, 2 repeats; 18: two pairs, 4; 19: three, 6). Of the ways to choose the pair units and the
    rounds, one that shares the other seats at the 5-tables most evenly (least sum of squares) is taken. Players
    of a group are kept apart afterwards by exchanges throughout all rounds (`_fit_wishes`), which keep this
    structure. Not used with fixed players or earlier meetings (a season): the general construction and search
    weigh those."""
    sizes = problem.sizes
    fives = sizes.count(5)
    if (not fives or problem.rounds < 2 or sizes.count(4) + fives != len(sizes)
            or any(t >= 0 for t in problem.fixed_of)
            or any(problem.prior) or _unavoidable_repeats(problem) != fives * (problem.rounds - 1)):
        return None
    units = problem.n - fives
    design = golfer_rounds(units)
    if design is None or len(design[0]) != len(sizes) or len(design) - (fives > 1) < problem.rounds:
        return None
    pair_units, chosen = _fairest_pair_units(design, fives, problem.rounds, rng)
    players = list(range(problem.n))
    rng.shuffle(players)
    members = {u: [players[u]] for u in range(units)}  # unit u: player u, or the pair u and a last player
    for extra, unit in enumerate(pair_units, start=units):
        members[unit].append(players[extra])
    rounds = []
    for d in chosen:
        tables = [[p for unit in block for p in members[unit]] for block in design[d]]
        tables.sort(key=len, reverse=True)  # the 5-tables first, as in `sizes`
        rounds.append(tables)
    rng.shuffle(rounds)
    return rounds


def _fairest_pair_units(
    design: list[list[list[int]]], fives: int, rounds: int, rng: random.Random
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The pair units (k units of one table of a design round) and the design rounds to use (not that round
    when k > 1) that seat the other units at a 5-table most evenly: least sum over units of the square of how
    often; ties drawn by `rng`. A few hundred choices at most (16 units: 20 tables, 6 ways to take 2, 4 ways to
    leave a round out)."""
    best: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    best_score = _INFINITY
    for d0, blocks in enumerate(design):
        others = [d for d in range(len(design)) if fives == 1 or d != d0]
        for block in blocks:
            for pair_units in combinations(block, fives):
                for chosen in combinations(others, rounds):
                    times: Counter[int] = Counter()
                    for d in chosen:
                        for table in design[d]:
                            if any(u in pair_units for u in table):
                                times.update(u for u in table if u not in pair_units)
                    score = sum(t * t for t in times.values())
                    if score < best_score:
                        best, best_score = [(pair_units, chosen)], score
                    elif score == best_score:
                        best.append((pair_units, chosen))
    return rng.choice(best)


def _fit_wishes(problem: _Problem, memberships: list[list[list[int]]]) -> None:
    """Exchange two players throughout all rounds where that seats fewer pairs who met before (`prior`) or
    belong to one group together. Such an exchange keeps the structure of the rounds, so the draw keeps its
    rounds without a repeated pair; it only chooses who takes which place in it. Fixed players stay.
    Steepest descent for each player with such a table-mate, a few sweeps at most; sets of players are
    bit masks, so that a 200-player draw weighs all 40,000 exchanges of a sweep in a fraction of a second.
    (How often a pair met is left to the tabu search; here a pair met before or not.)"""
    group_of, prior = problem.group_of, problem.prior
    if not any(prior) and all(g < 0 for g in group_of):
        return
    n = problem.n
    met_before = [sum(1 << q for q in met) for met in prior]
    group_mask: dict[int, int] = {}
    for p, group in enumerate(group_of):
        if group >= 0:
            group_mask[group] = group_mask.get(group, 0) | 1 << p
    unwelcome = [(met_before[p], group_mask.get(group_of[p], 0) & ~(1 << p)) for p in range(n)]
    meet: list[Counter[int]] = [Counter() for _ in range(n)]
    place: list[list[tuple[int, int]]] = [[(0, 0)] * n for _ in memberships]
    for r, tables in enumerate(memberships):
        for t, table in enumerate(tables):
            for i, player in enumerate(table):
                place[r][player] = (t, i)
                meet[player].update(q for q in table if q != player)
    mates = [sum(1 << q for q, times in met.items() if times) for met in meet]

    def cost(a: int, others: int) -> int:
        before, group = unwelcome[a]
        return PAIR_WEIGHT * (before & others).bit_count() + GROUP_WEIGHT * (group & others).bit_count()

    def exchange(a: int, b: int) -> None:
        touched = {a, b}
        for r, tables in enumerate(memberships):
            for player in (a, b):
                for q in tables[place[r][player][0]]:
                    if q != player:
                        meet[player][q] -= 1
                        meet[q][player] -= 1
            (ta, ia), (tb, ib) = place[r][a], place[r][b]
            tables[ta][ia], tables[tb][ib] = b, a
            place[r][a], place[r][b] = (tb, ib), (ta, ia)
            for player in (a, b):
                for q in tables[place[r][player][0]]:
                    touched.add(q)
                    if q != player:
                        meet[player][q] += 1
                        meet[q][player] += 1
        for player in touched | set(meet[a]) | set(meet[b]):  # zero counts stay: old table-mates too
            mates[player] = sum(1 << q for q, times in meet[player].items() if times)

    movable = [p for p in range(n) if problem.fixed_of[p] < 0]
    for _sweep in range(4):
        improved = False
        for a in movable:
            if cost(a, mates[a]) == 0:
                continue
            best, best_b = 0, -1
            for b in movable:
                if b == a:
                    continue
                # the pair a-b itself costs the same before and after: left out on both sides
                others_a, others_b = mates[a] & ~(1 << b), mates[b] & ~(1 << a)
                change = cost(a, others_b) + cost(b, others_a) - cost(a, others_a) - cost(b, others_b)
                if change < best:
                    best, best_b = change, b
            if best_b >= 0:
                exchange(a, best_b)
                improved = True
        if not improved:
            return


def _structured_rounds(
    n_tables: int, width: int, wanted: int, square: bool, rng: random.Random
) -> list[Callable[[int, int], int]]:
    """Maps (round-1 table, column) -> group for as many rounds as the construction allows."""
    field = Field.of_order(n_tables)
    if field is None:
        return [partial(_shift_mod, n_tables, vector) for vector in _difference_vectors(n_tables, width, wanted, rng)]
    xs = [0] + rng.sample(range(1, n_tables), width - 1)
    multipliers = [0] + rng.sample(range(1, n_tables), min(wanted, n_tables) - 1)
    maps: list[Callable[[int, int], int]] = [
        partial(_shift_field, field, [field.mul(m, x) for x in xs]) for m in multipliers
    ]
    if wanted > n_tables and square:
        maps.append(_column_group)  # the last parallel class of the affine plane
    return maps


def _shift_mod(modulus: int, vector: list[int], table: int, column: int) -> int:
    return (table + vector[column]) % modulus


def _shift_field(field: Field, vector: list[int], table: int, column: int) -> int:
    return field.add(table, vector[column])


def _column_group(table: int, column: int) -> int:
    return column


def _difference_vectors(modulus: int, width: int, wanted: int, rng: random.Random) -> list[list[int]]:
    """Vectors in Z_modulus (first entry 0) whose pairwise differences are injective."""
    best = [[0] * width]
    for multiplier in range(1, modulus):
        if len(best) >= wanted:
            return best
        candidate = [multiplier * j % modulus for j in range(width)]
        if all(len({(v - c) % modulus for v, c in zip(candidate, old, strict=True)}) == width for old in best):
            best.append(candidate)
    # Multiples fall short when the modulus has small factors: search, restarting because
    # an early vector can block later ones.
    for _ in range(_VECTOR_SEARCH_RESTARTS):
        if len(best) >= wanted:
            break
        vectors = [[0] * width]
        while len(vectors) < wanted and (found := _search_vector(modulus, width, vectors, rng)) is not None:
            vectors.append(found)
        if len(vectors) > len(best):
            best = vectors
    return best


def _search_vector(modulus: int, width: int, vectors: list[list[int]], rng: random.Random) -> list[int] | None:
    """Depth-first search, with a node budget, for one more compatible vector."""
    used: list[set[int]] = [{0} for _ in vectors]  # differences taken in column 0 (both entries 0)
    vector = [0] * width
    budget = [_VECTOR_SEARCH_NODES]

    def extend(j: int) -> bool:
        if j == width:
            return True
        values = list(range(modulus))
        rng.shuffle(values)
        for value in values:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            differences = [(value - old[j]) % modulus for old in vectors]
            if any(d in taken for d, taken in zip(differences, used, strict=True)):
                continue
            for d, taken in zip(differences, used, strict=True):
                taken.add(d)
            vector[j] = value
            if extend(j + 1):
                return True
            for d, taken in zip(differences, used, strict=True):
                taken.discard(d)
        return False

    return list(vector) if extend(1) else None


def _label_groups(groups: list[list[int]], problem: _Problem, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Give each group a table number; return the tables and the players who did not fit."""
    sizes, fixed_of = problem.sizes, problem.fixed_of
    tables: list[list[int] | None] = [None] * len(sizes)
    evicted: list[int] = []
    unclaimed: list[list[int]] = []
    for members in groups:
        label = next((fixed_of[p] for p in members if fixed_of[p] >= 0 and tables[fixed_of[p]] is None), -1)
        keep = [p for p in members if fixed_of[p] in (-1, label)]
        evicted += [p for p in members if fixed_of[p] not in (-1, label)]
        if label >= 0:
            tables[label] = keep
        else:
            unclaimed.append(keep)
    rng.shuffle(unclaimed)
    open_by_size: dict[int, list[int]] = {}
    for t, table in enumerate(tables):
        if table is None:
            open_by_size.setdefault(sizes[t], []).append(t)
    for labels in open_by_size.values():
        rng.shuffle(labels)
    misfits = []
    for members in unclaimed:
        labels = open_by_size.get(len(members))
        if labels:
            tables[labels.pop()] = members
        else:
            misfits.append(members)
    remaining = sorted((t for labels in open_by_size.values() for t in labels), key=lambda t: -sizes[t])
    misfits.sort(key=len, reverse=True)
    for t, members in zip(remaining, misfits, strict=True):
        tables[t] = members
    filled = [table if table is not None else [] for table in tables]
    for t, table in enumerate(filled):
        while len(table) > sizes[t]:  # a fixed table's own players always fit (checked on input)
            player = rng.choice([p for p in table if fixed_of[p] < 0])
            table.remove(player)
            evicted.append(player)
    return filled, evicted


def _pair_cost(problem: _Problem, meet: list[dict[int, int]], player: int, table: list[int]) -> int:
    group = problem.group_of[player]
    return sum(
        PAIR_WEIGHT * meet[player].get(q, 0) + (GROUP_WEIGHT if group >= 0 and problem.group_of[q] == group else 0)
        for q in table
    )


def _place_leftovers(
    tables: list[list[int]], pool: list[int], problem: _Problem, meet: list[dict[int, int]], rng: random.Random
) -> None:
    """Fill the free seats: fixed players at their table, the others where they meet fewest."""
    sizes, fixed_of = problem.sizes, problem.fixed_of
    others = [p for p in pool if fixed_of[p] < 0]
    for player in (p for p in pool if fixed_of[p] >= 0):
        table = tables[fixed_of[player]]
        if len(table) >= sizes[fixed_of[player]]:
            bumped = rng.choice([p for p in table if fixed_of[p] < 0])
            table.remove(bumped)
            others.append(bumped)
        table.append(player)
    rng.shuffle(others)
    open_tables = [t for t in range(len(sizes)) if len(tables[t]) < sizes[t]]
    for player in others:
        best, best_cost, ties = -1, _INFINITY, 0
        for t in open_tables:
            cost = _pair_cost(problem, meet, player, tables[t])
            if cost < best_cost:
                best, best_cost, ties = t, cost, 1
            elif cost == best_cost:
                ties += 1
                if rng.randrange(ties) == 0:
                    best = t
        tables[best].append(player)
        if len(tables[best]) == sizes[best]:
            open_tables.remove(best)


def _add_meetings(meet: list[dict[int, int]], tables: list[list[int]]) -> None:
    for table in tables:
        for a, b in combinations(table, 2):
            meet[a][b] = meet[a].get(b, 0) + 1
            meet[b][a] = meet[b].get(a, 0) + 1


# --------------------------------------------------------------------------- seats


def _assign_seats(
    problem: _Problem, memberships: list[list[list[int]]], column_of: list[int], rng: random.Random
) -> list[list[list[int]]]:
    """Seat order of every table, round by round: a Latin square over the columns, repaired
    by an optimal assignment where a table's columns do not give distinct, unused seats."""
    sizes = problem.sizes
    modulus = Counter(sizes).most_common(1)[0][0]
    start_seat = list(range(modulus))
    rng.shuffle(start_seat)
    seats = max(sizes)
    uses = [[0] * seats for _ in range(problem.n)]
    seated = []
    for r, tables in enumerate(memberships):
        seated_round = []
        for t, members in enumerate(tables):
            planned = [start_seat[(column_of[p] + r) % modulus] if column_of[p] < modulus else -1 for p in members]
            size = sizes[t]
            pairs = list(zip(members, planned, strict=True))
            if len(set(planned)) < size or not all(0 <= s < size and uses[p][s] == 0 for p, s in pairs):
                planned = _min_cost_assignment(
                    [[(size + 1) * uses[p][s] + (s != want) for s in range(size)] for p, want in pairs]
                )
            order = [-1] * size
            for player, seat in zip(members, planned, strict=True):
                order[seat] = player
                uses[player][seat] += 1
            seated_round.append(order)
        seated.append(seated_round)
    return seated


def _min_cost_assignment(cost: list[list[int]]) -> list[int]:
    """Column for each row of a square matrix with minimal total (Hungarian method, O(n^3))."""
    n = len(cost)
    u, v = [0] * (n + 1), [0] * (n + 1)
    row_of, way = [0] * (n + 1), [0] * (n + 1)
    for i in range(1, n + 1):
        row_of[0], j0 = i, 0
        min_v, used = [_INFINITY] * (n + 1), [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = row_of[j0], _INFINITY, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if reduced < min_v[j]:
                        min_v[j], way[j] = reduced, j0
                    if min_v[j] < delta:
                        delta, j1 = min_v[j], j
            for j in range(n + 1):
                if used[j]:
                    u[row_of[j]] += delta
                    v[j] -= delta
                else:
                    min_v[j] -= delta
            j0 = j1
            if row_of[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            row_of[j0] = row_of[j1]
            j0 = j1
    result = [0] * n
    for j in range(1, n + 1):
        result[row_of[j] - 1] = j - 1
    return result


# --------------------------------------------------------------------------- search


class _State:
    """All rounds with seats, meeting and seat-use counts, and each player's cost per round.

    A player's cost in a round is what his seat there adds: for every table-mate, the
    other rounds they meet (and the group weight), plus the other rounds on that seat
    number. The sum over players and rounds is twice the total cost.
    """

    def __init__(self, problem: _Problem, slots: list[list[list[int]]]):
        self.problem = problem
        self.load(slots)

    def load(self, slots: list[list[list[int]]]) -> None:
        """Take `slots` as the current seating and recount everything."""
        problem = self.problem
        self.slots = slots
        n = problem.n
        self.table_of = [[0] * n for _ in slots]
        self.seat_of = [[0] * n for _ in slots]
        self.meet: list[dict[int, int]] = [{} for _ in range(n)]
        seats = max(problem.sizes)
        self.uses = [[0] * seats for _ in range(n)]
        for r, tables in enumerate(slots):
            for t, table in enumerate(tables):
                for s, player in enumerate(table):
                    self.table_of[r][player], self.seat_of[r][player] = t, s
                    self.uses[player][s] += 1
            _add_meetings(self.meet, tables)
        for a, met in enumerate(problem.prior):  # earlier evenings count as earlier meetings
            for b, times in met.items():
                self.meet[a][b] = self.meet[a].get(b, 0) + times
        self._count_large()
        self.cost = [[0] * n for _ in slots]
        self.twice_total = 0
        self.hot: list[int] = []  # keys r * n + player of players with a cost
        self.hot_index: dict[int, int] = {}
        for r in range(len(slots)):
            for player in range(n):
                self._update_cost(r, player)

    def _count_large(self) -> None:
        """Rounds each player sits at a larger table, and the fair share: every player not fixed between
        `large_low` and `large_high` rounds, so that nobody sits at one twice while someone else never does
        (at least once each when the larger tables have enough seats for that, else at most once each)."""
        problem, slots = self.problem, self.slots
        sizes = problem.sizes
        self.large = max(sizes) if len(set(sizes)) > 1 else None
        self.large_count = [0] * problem.n
        self.large_low, self.large_high = 0, len(slots)
        if self.large is None:
            return
        for r in range(len(slots)):
            for p in range(problem.n):
                self.large_count[p] += sizes[self.table_of[r][p]] == self.large
        free = [self.large_count[p] for p in range(problem.n) if problem.fixed_of[p] < 0]
        # Nobody twice while someone never: everyone once when there are enough such seats, else nobody twice.
        if free and sum(free) >= len(free):
            self.large_low = 1
        elif free:
            self.large_high = 1

    @property
    def total(self) -> int:
        return self.twice_total // 2

    def pair_weight(self, a: int, b: int, together: int) -> int:
        """What a and b sharing a table adds, given the meetings outside this round."""
        group = self.problem.group_of[a]
        weight = PAIR_WEIGHT * (self.meet[a].get(b, 0) - together)
        return weight + GROUP_WEIGHT if group >= 0 and self.problem.group_of[b] == group else weight

    def player_cost(self, r: int, a: int) -> int:
        table = self.slots[r][self.table_of[r][a]]
        seat = self.seat_of[r][a]
        cost = SEAT_WEIGHT * (self.uses[a][seat] - 1)
        return cost + sum(self.pair_weight(a, q, 1) for q in table if q != a)

    def swap_delta(self, r: int, a: int, b: int) -> int:
        """Change of the total cost if a and b exchange their seats in round r."""
        x, y = self.seat_of[r][a], self.seat_of[r][b]
        table_a, table_b = self.table_of[r][a], self.table_of[r][b]
        delta = 0
        if x != y:
            ua, ub = self.uses[a], self.uses[b]
            delta = SEAT_WEIGHT * (ua[y] - ua[x] + ub[x] - ub[y] + 2)
        if table_a == table_b:
            return delta
        return delta + self._move_delta(r, a, b, table_a) + self._move_delta(r, b, a, table_b)

    def pair_delta(self, r: int, a: int, b: int) -> int:
        """Change of the pair and group cost (not the seats') if a and b exchange their tables in round r."""
        table_a, table_b = self.table_of[r][a], self.table_of[r][b]
        if table_a == table_b:
            return 0
        return self._move_delta(r, a, b, table_a) + self._move_delta(r, b, a, table_b)

    def _move_delta(self, r: int, leaving: int, coming: int, table: int) -> int:
        """Pair and group cost change at `table` when `coming` takes the place of `leaving`."""
        # Written out rather than via pair_weight: this is the innermost loop of the search.
        meet_leaving, meet_coming = self.meet[leaving], self.meet[coming]
        group_of = self.problem.group_of
        group_leaving, group_coming = group_of[leaving], group_of[coming]
        delta = 0
        for q in self.slots[r][table]:
            if q != leaving:
                delta += PAIR_WEIGHT * (meet_coming.get(q, 0) - meet_leaving.get(q, 0) + 1)
                group = group_of[q]
                if group >= 0:
                    delta += GROUP_WEIGHT * ((group == group_coming) - (group == group_leaving))
        return delta

    def swap(self, r: int, a: int, b: int) -> None:
        x, y = self.seat_of[r][a], self.seat_of[r][b]
        table_a, table_b = self.table_of[r][a], self.table_of[r][b]
        if table_a != table_b:
            for q in self.slots[r][table_a]:
                if q != a:
                    self._meet(a, q, -1)
                    self._meet(b, q, 1)
            for q in self.slots[r][table_b]:
                if q != b:
                    self._meet(b, q, -1)
                    self._meet(a, q, 1)
        if self.large is not None:
            sizes = self.problem.sizes
            self.large_count[a] += (sizes[table_b] == self.large) - (sizes[table_a] == self.large)
            self.large_count[b] += (sizes[table_a] == self.large) - (sizes[table_b] == self.large)
        self.slots[r][table_a][x], self.slots[r][table_b][y] = b, a
        self.table_of[r][a], self.seat_of[r][a] = table_b, y
        self.table_of[r][b], self.seat_of[r][b] = table_a, x
        self.uses[a][x] -= 1
        self.uses[a][y] += 1
        self.uses[b][y] -= 1
        self.uses[b][x] += 1
        self._refresh_around(a, b)

    def reseat(self, r: int, t: int, order: list[int]) -> None:
        for s, player in enumerate(self.slots[r][t]):
            self.uses[player][s] -= 1
        for s, player in enumerate(order):
            self.uses[player][s] += 1
            self.seat_of[r][player] = s
        self.slots[r][t] = order
        for player in order:
            self._refresh_around(player)

    def _meet(self, a: int, b: int, change: int) -> None:
        self.meet[a][b] = self.meet[a].get(b, 0) + change
        self.meet[b][a] = self.meet[a][b]

    def _refresh_around(self, *players: int) -> None:
        # A changed meeting count or seat use only shows in the tables these players sit at.
        for r, tables in enumerate(self.slots):
            for player in players:
                for q in tables[self.table_of[r][player]]:
                    self._update_cost(r, q)

    def _update_cost(self, r: int, player: int) -> None:
        new = self.player_cost(r, player)
        self.twice_total += new - self.cost[r][player]
        self.cost[r][player] = new
        key = r * self.problem.n + player
        if new > 0 and key not in self.hot_index:
            self.hot_index[key] = len(self.hot)
            self.hot.append(key)
        elif new == 0 and key in self.hot_index:
            position = self.hot_index.pop(key)
            last = self.hot.pop()
            if last != key:
                self.hot[position] = last
                self.hot_index[last] = position


def _local_search(state: _State, rng: random.Random, *, fair_large: bool = False) -> None:
    """Tabu search: a player with a cost swaps with the best non-tabu partner of his round.

    With `fair_large` an exchange between a larger and a smaller table is only made when it keeps the
    seats at the larger tables fair (`_keeps_large_fair`).

    Deterministic for a given rng: it stops on a step count, never on the clock.
    """
    problem = state.problem
    n = problem.n
    patience = 300 + 2 * n
    # Earlier meetings (a season) rarely let the cost reach its floor: the budget, not the floor, ends the search
    # there, and a smaller one keeps a 200-player evening to seconds.
    evaluations_left = 1_000_000 if any(problem.prior) else 3_000_000
    tenure = min(10, max(2, n // 4))
    tabu: dict[int, int] = {}
    best_total, best_slots = state.total, None
    step = stalled = 0
    # The search weighs a pair meeting t times t(t - 1) (`_State`): summed, twice the pairs shared by two rounds.
    floor = _unavoidable_seat_cost(problem) + 2 * PAIR_WEIGHT * _shared_pairs_floor(problem) * comb(problem.rounds, 2)
    while state.total > floor and stalled < patience and evaluations_left > 0:
        step += 1
        key = _costliest_of_a_few(state, rng)
        r, a = divmod(key, n)
        candidates = _swap_candidates(state, r, a, rng)
        if fair_large:
            candidates = [b for b in candidates if _keeps_large_fair(state, r, a, b)]
        evaluations_left -= len(candidates)
        best_b, best_delta, ties = -1, _INFINITY, 0
        for b in candidates:
            delta = state.swap_delta(r, a, b)
            if tabu.get(r * n + b, 0) > step and state.total + delta >= best_total:
                continue
            if delta < best_delta:
                best_b, best_delta, ties = b, delta, 1
            elif delta == best_delta:
                ties += 1
                if rng.randrange(ties) == 0:
                    best_b = b
        if best_b < 0:
            stalled += 1
            continue
        if best_delta > 0 and state.total == best_total:
            best_slots = [[list(table) for table in tables] for tables in state.slots]
        state.swap(r, a, best_b)
        tabu[key] = tabu[r * n + best_b] = step + tenure + rng.randrange(3)
        if state.total < best_total:
            best_total, best_slots, stalled = state.total, None, 0
        else:
            stalled += 1
    if best_slots is not None and state.total > best_total:
        state.load(best_slots)


def _costliest_of_a_few(state: _State, rng: random.Random) -> int:
    """A player with a cost in some round (key r * n + player): the costliest of three drawn at random. With
    more rounds than seats everyone has an unavoidable seat cost; this finds those with a table-mate they met
    before (cost 10 or more) much sooner than one random draw would."""
    hot, cost, n = state.hot, state.cost, state.problem.n
    best_key, best_cost = -1, -1
    for _ in range(3):
        key = hot[rng.randrange(len(hot))]
        r, player = divmod(key, n)
        if cost[r][player] > best_cost:
            best_key, best_cost = key, cost[r][player]
    return best_key


def _share_large_tables(state: _State, rng: random.Random) -> None:
    """Make the seats at the larger tables fair (`_spread_large_tables`) and search again among fair
    seatings (`_local_search(fair_large=True)`); keep the result only if it has no more repeated pairs and
    group conflicts than the seating it started from. So the 5-tables are shared wherever that costs no
    table-mate meeting again: with 29 or 37 players in 3 rounds, 45 in 5, it does; with 17 in 4 rounds
    (one 5-table among three 4-tables) it would cost repeats, and the draw keeps the fewer repeats. With 17 in
    2 rounds the fewest repeats (one pair) need that pair at the 5-table in both rounds; nobody there twice would
    cost four (tests/rules/test_seating_large_tables.py counts every way)."""
    if state.large is None or _large_fair(state):
        return
    before = _pair_and_group_cost(state)
    kept = [[list(table) for table in tables] for tables in state.slots]
    if _spread_large_tables(state) and _pair_and_group_cost(state) > before:
        _local_search(state, rng, fair_large=True)
    if not _large_fair(state) or _pair_and_group_cost(state) > before:
        state.load(kept)


def _large_fair(state: _State) -> bool:
    counts = [state.large_count[p] for p in range(state.problem.n) if state.problem.fixed_of[p] < 0]
    return not counts or min(counts) >= state.large_low and max(counts) <= state.large_high


def _pair_and_group_cost(state: _State) -> int:
    """Repeated pairs and group conflicts, weighted as the search weighs them (seat numbers left out)."""
    group_of, prior = state.problem.group_of, state.problem.prior
    cost = 0
    for a, met in enumerate(state.meet):
        for b, times in met.items():
            if a < b and times:
                cost += PAIR_WEIGHT * (times - 1)
                if group_of[a] >= 0 and group_of[a] == group_of[b]:
                    cost += GROUP_WEIGHT * (times - prior[a].get(b, 0))
    return cost


def _keeps_large_fair(state: _State, r: int, a: int, b: int) -> bool:
    """Whether a and b exchanging tables in round r keeps everyone within the fair share of larger tables."""
    sizes = state.problem.sizes
    size_a, size_b = sizes[state.table_of[r][a]], sizes[state.table_of[r][b]]
    if size_a == size_b:
        return True
    going_down, going_up = (a, b) if size_a > size_b else (b, a)
    counts = state.large_count
    return counts[going_down] - 1 >= state.large_low and counts[going_up] + 1 <= state.large_high


def _spread_large_tables(state: _State) -> bool:
    """Share the seats at the larger tables (the 5-tables among 4-tables) fairly: nobody sits at one twice
    while someone else never does (`_State.large_low`/`large_high`). Each step moves one such seat from a
    player with the most to one with the fewest (an exchange in a round where the first is at a large table
    and the second is not), by the exchange that adds the fewest repeated pairs and never by one that seats
    a group together. Fixed players stay. True if anyone was moved.
    """
    problem = state.problem
    if state.large is None:
        return False
    movable = [p for p in range(problem.n) if problem.fixed_of[p] < 0]
    counts, rounds, moved = state.large_count, range(len(state.slots)), False

    def at_large(r: int, p: int) -> bool:
        return problem.sizes[state.table_of[r][p]] == state.large

    for _step in range(problem.n * len(state.slots)):  # each step lowers the sum of squares: it ends
        most = max(counts[p] for p in movable)
        fewest = min(counts[p] for p in movable)
        if (most <= state.large_high and fewest >= state.large_low) or most - fewest < 2:
            return moved
        best = None
        for a in (p for p in movable if counts[p] == most):
            for b in (p for p in movable if counts[p] <= most - 2):
                for r in rounds:
                    if at_large(r, a) and not at_large(r, b) and not _puts_group_together(state, r, a, b):
                        delta = state.pair_delta(r, a, b)
                        if best is None or delta < best[0]:
                            best = (delta, r, a, b)
        if best is None:
            return moved  # only exchanges that would seat a group together are left
        _delta, r, a, b = best
        state.swap(r, a, b)
        moved = True
    return moved


def _puts_group_together(state: _State, r: int, a: int, b: int) -> bool:
    """Whether a and b exchanging tables in round r seats either next to a member of his group."""
    group_of, tables = state.problem.group_of, state.slots[r]
    table_a, table_b = tables[state.table_of[r][a]], tables[state.table_of[r][b]]
    return (group_of[b] >= 0 and any(group_of[q] == group_of[b] for q in table_a if q != a)) or (
        group_of[a] >= 0 and any(group_of[q] == group_of[a] for q in table_b if q != b))


def _unavoidable_seat_cost(problem: _Problem) -> int:
    """Seat cost that remains when the rounds outnumber the seats of the largest table."""
    fewest_uses, spread = divmod(problem.rounds, max(problem.sizes))
    per_player = (max(problem.sizes) - spread) * comb(fewest_uses, 2) + spread * comb(fewest_uses + 1, 2)
    return SEAT_WEIGHT * per_player * problem.n


def _shared_pairs_floor(problem: _Problem) -> int:
    """How many table-mate pairs any two rounds share at least: each table of the later round takes its players
    from the earlier round's tables, at best spread evenly over them (17 players: the 5-table's five come from
    four tables, so 1; 18: 2; 19: 3; with at least as many tables as seats at the largest, 0)."""
    n_tables = len(problem.sizes)
    shared = 0
    for size in problem.sizes:
        per_table, extra = divmod(size, n_tables)
        shared += extra * comb(per_table + 1, 2) + (n_tables - extra) * comb(per_table, 2)
    return shared


def _unavoidable_repeats(problem: _Problem) -> int:
    """Fewest repeated pairs (as `Seating.repeated_pairs` counts them) any seating of these tables in this many
    rounds has: a lower bound, reached by `_pair_unit_rounds` and, where it is 0, by the construction.

    Any two rounds share at least f pairs (`_shared_pairs_floor`). Summed over the C(R, 2) pairs of rounds, a
    pair meeting t <= R times is counted C(t, 2) = (t - 1) t / 2 times and costs t - 1 >= C(t, 2) 2 / R repeats,
    so there are at least f C(R, 2) 2 / R = f (R - 1), and only pairs meeting in every round reach it: 17
    players in 3 rounds have at least 2 repeats (one pair meeting three times; three pairs meeting twice are 3).
    """
    return _shared_pairs_floor(problem) * (problem.rounds - 1)


def _swap_candidates(state: _State, r: int, a: int, rng: random.Random) -> list[int]:
    """Players a may exchange seats with in round r (fixed players stay at their table)."""
    problem = state.problem
    home = state.table_of[r][a]
    n_tables = len(problem.sizes)
    if problem.fixed_of[a] >= 0:
        tables: Sequence[int] = [home]
    elif n_tables <= _SCAN_LIMIT:
        tables = range(n_tables)
    else:
        tables = [home] + [t for t in rng.sample(range(n_tables), _SCAN_LIMIT) if t != home]
    fixed_of, slots = problem.fixed_of, state.slots[r]
    return [b for t in tables for b in slots[t] if b != a and (t == home or fixed_of[b] < 0)]


def _recolor_seats(state: _State) -> None:
    """Remove repeated seat numbers without changing any table's players.

    Seats are colours of the edges player - (round, table) of a bipartite graph; a player's
    repeated seat is uncoloured and coloured again, exchanging two seat numbers along an
    alternating path where needed (Konig's edge colouring: with tables of one size and no
    more rounds than seats this always succeeds).
    """
    sizes, slots = state.problem.sizes, state.slots
    seat_at = [[dict(enumerate(table)) for table in tables] for tables in slots]
    round_on: list[dict[int, int]] = [{} for _ in range(state.problem.n)]
    uncoloured = []
    for r, tables in enumerate(slots):
        for t, table in enumerate(tables):
            for seat, player in enumerate(table):
                if seat in round_on[player]:
                    del seat_at[r][t][seat]
                    uncoloured.append((r, player))
                else:
                    round_on[player][seat] = r
    if not uncoloured:
        return
    stuck = []
    for r, player in uncoloured:
        t = state.table_of[r][player]
        seat = _free_common_seat(seat_at[r][t], round_on[player], sizes[t])
        if seat < 0:
            seat = _swap_along_path(state, seat_at, round_on, r, player)
        if seat < 0:
            stuck.append((r, player))
        else:
            seat_at[r][t][seat] = player
            round_on[player][seat] = r
    for r, player in stuck:  # more rounds than seats: a repeat is unavoidable here
        t = state.table_of[r][player]
        seat_at[r][t][next(s for s in range(sizes[t]) if s not in seat_at[r][t])] = player
    state.load([[[taken[s] for s in range(sizes[t])] for t, taken in enumerate(tables)] for tables in seat_at])


def _free_common_seat(taken: dict[int, int], used: dict[int, int], size: int) -> int:
    return next((s for s in range(size) if s not in taken and s not in used), -1)


def _swap_along_path(
    state: _State, seat_at: list[list[dict[int, int]]], round_on: list[dict[int, int]], r: int, player: int
) -> int:
    """Free a seat for `player` at his table in round r by an alternating-path exchange; -1 if none."""
    sizes, table_of = state.problem.sizes, state.table_of
    t = table_of[r][player]
    for alpha in (s for s in range(sizes[t]) if s not in round_on[player]):
        for beta in (s for s in range(sizes[t]) if s not in seat_at[r][t]):
            edges, end_table = _alternating_path(seat_at, round_on, table_of, (r, t), alpha, beta)
            if end_table is not None and alpha >= sizes[end_table]:
                continue  # flipping would give that table a seat number it does not have
            for edge_round, edge_table, q, colour in edges:
                del seat_at[edge_round][edge_table][colour]
                del round_on[q][colour]
            for edge_round, edge_table, q, colour in edges:
                flipped = beta if colour == alpha else alpha
                seat_at[edge_round][edge_table][flipped] = q
                round_on[q][flipped] = edge_round
            return alpha
    return -1


def _alternating_path(
    seat_at: list[list[dict[int, int]]],
    round_on: list[dict[int, int]],
    table_of: list[list[int]],
    start: tuple[int, int],
    alpha: int,
    beta: int,
) -> tuple[list[tuple[int, int, int, int]], int | None]:
    """Edges (round, table, player, seat) from table `start`, alternating seat alpha (table to
    player) and beta (player to table), and the table the path ends at (None: at a player)."""
    edges = []
    r, t = start
    while True:
        q = seat_at[r][t].get(alpha)
        if q is None:
            return edges, t
        edges.append((r, t, q, alpha))
        next_round = round_on[q].get(beta)
        if next_round is None:
            return edges, None
        r, t = next_round, table_of[next_round][q]
        edges.append((r, t, q, beta))


def _shuffle_table_numbers(
    problem: _Problem, slots: list[list[list[int]]], rng: random.Random
) -> list[list[list[int]]]:
    """Random table numbers among tables of one size; tables with a fixed player keep theirs."""
    sizes = problem.sizes
    shuffled = []
    for tables in slots:
        movable: dict[int, list[int]] = {}
        for t, table in enumerate(tables):
            if all(problem.fixed_of[p] < 0 for p in table):
                movable.setdefault(sizes[t], []).append(t)
        result = list(tables)
        for numbers in movable.values():
            targets = list(numbers)
            rng.shuffle(targets)
            for source, target in zip(numbers, targets, strict=True):
                result[target] = tables[source]
        shuffled.append(result)
    return shuffled
