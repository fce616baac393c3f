"""Knockout bracket from pool results. Pure Python, no Django.

`knockout_bracket(qualifiers, *, third_place=False) -> Bracket`
    `qualifiers` are `Qualifier(pool, place, team)` (pool: 0-based index, shown as
    `pool_name(pool)`; place: 1 = pool winner). The bracket has the next power of two of
    slots; qualifiers are ranked pool winners first, then runners-up, ... and between equal
    places the earlier pool first. Byes go to the best-ranked. Starting from the usual seeding
    (1 v last, the best two meet only in the final), teams are spread half by half so that
    teams of the same pool meet as late as possible: the better-ranked of a pool are separated
    first, first-round opponents keep their places (winners against the lowest qualifiers), and
    only teams of the same place (or teams that all have a bye) trade positions. With up to 4
    qualifiers per pool, same-pool teams never meet earlier than their number forces.
    From 2 pools with 2 each: A1-B2 and B1-A2.
`Bracket.rounds`
    Tuple of rounds (first round first, the final last) of `BracketMatch(id, round, slot_a,
    slot_b)`; ids are "F", "SF1", "QF1", "R16-1", ... and "3P" for the optional
    `Bracket.third_place` match. A slot is `Entrant(qualifier)`, `WinnerOf(match_id)`,
    `LoserOf(match_id)` or `BYE`; byes only occur in first-round matches, always as slot_b,
    and such a match needs no game (`BracketMatch.is_bye`).
`resolve_matches(bracket, winners) -> dict[match_id, (team | None, team | None)]`
    Given the decided winners so far (`{match_id: team}`), who plays each match; None where
    not yet known (or the bye side). Raises `RuleError` for a winner who did not play the match.
`round_name(round, rounds) -> (message, params)`
    Translatable name of a round ("Final", "Semifinal", "Quarterfinal", "Round of %(teams)s").
`semifinal_round_robin(teams4)`
    The option for the semifinal (docs/rules/voms.md): a 4-team round robin (3 rounds of 2 matches).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from scoring.rules.base import RuleError, gettext_noop

from .pools import pool_name
from .roundrobin import Pairing, round_robin

TeamId = Hashable

THIRD_PLACE_ID = "3P"
THIRD_PLACE_NAME = gettext_noop("Match for third place")
FINAL_NAME = gettext_noop("Final")
SEMIFINAL_NAME = gettext_noop("Semifinal")
QUARTERFINAL_NAME = gettext_noop("Quarterfinal")
ROUND_OF_NAME = gettext_noop("Round of %(teams)s")


@dataclass(frozen=True)
class Qualifier:
    """A team that qualified from a pool: `pool` is 0-based, `place` 1 for the pool winner."""

    pool: int
    place: int
    team: TeamId

    @property
    def label(self) -> str:
        """Short label such as "A1" (winner of pool A)."""
        return f"{pool_name(self.pool)}{self.place}"


@dataclass(frozen=True)
class Entrant:
    qualifier: Qualifier

    @property
    def team(self) -> TeamId:
        return self.qualifier.team


@dataclass(frozen=True)
class WinnerOf:
    match: str


@dataclass(frozen=True)
class LoserOf:
    match: str


@dataclass(frozen=True)
class Bye:
    pass


BYE = Bye()
Slot = Entrant | WinnerOf | LoserOf | Bye


@dataclass(frozen=True)
class BracketMatch:
    """One knockout match (a best-of-N series); `round` 1 is the first round."""

    id: str
    round: int
    slot_a: Slot
    slot_b: Slot

    @property
    def is_bye(self) -> bool:
        """True when one side is a bye: the other side advances without playing."""
        return isinstance(self.slot_b, Bye) or isinstance(self.slot_a, Bye)


@dataclass(frozen=True)
class Bracket:
    rounds: tuple[tuple[BracketMatch, ...], ...]
    third_place: BracketMatch | None = None

    @property
    def final(self) -> BracketMatch:
        return self.rounds[-1][0]

    def matches(self) -> list[BracketMatch]:
        """Every match in playing order: round by round, the third-place match before the final."""
        ordered = [m for matches in self.rounds[:-1] for m in matches]
        if self.third_place is not None:
            ordered.append(self.third_place)
        return [*ordered, self.final]


def round_name(round_number: int, rounds: int) -> tuple[str, dict[str, int]]:
    """Translatable name of `round_number` (1-based) in a bracket of `rounds` rounds, with its params."""
    teams = 2 ** (rounds - round_number + 1)
    named = {2: FINAL_NAME, 4: SEMIFINAL_NAME, 8: QUARTERFINAL_NAME}
    if teams in named:
        return named[teams], {}
    return ROUND_OF_NAME, {"teams": teams}


def _match_id(round_number: int, rounds: int, index: int) -> str:
    teams = 2 ** (rounds - round_number + 1)
    if teams == 2:
        return "F"
    prefix = {4: "SF", 8: "QF"}.get(teams, f"R{teams}-")
    return f"{prefix}{index + 1}"


# --- Seeding -------------------------------------------------------------------------------


def _check_qualifiers(qualifiers: Sequence[Qualifier]) -> None:
    if len(qualifiers) < 2:
        raise RuleError(
            "too_few_qualifiers",
            gettext_noop("A knockout needs at least 2 qualified teams; got %(count)s."),
            field="qualifiers",
            count=len(qualifiers),
        )
    places, teams = set(), set()
    for q in qualifiers:
        if q.pool < 0 or q.place < 1:
            raise RuleError(
                "qualifier_invalid",
                gettext_noop("Team %(team)s has an invalid pool or place. Check the pool results."),
                field="qualifiers",
                team=q.team,
            )
        if (q.pool, q.place) in places or q.team in teams:
            raise RuleError(
                "qualifier_duplicate",
                gettext_noop("%(label)s or team %(team)s is listed twice. Every place and team qualifies once."),
                field="qualifiers",
                label=q.label,
                team=q.team,
            )
        places.add((q.pool, q.place))
        teams.add(q.team)


def _seed_order(size: int) -> list[int]:
    """Seed number (1-based) at each bracket position, so that 1 v size, best two meet last."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


class _Seeding:
    """Split the ranked qualifiers over the bracket, half by half, keeping pools apart.

    Every position keeps the *class* of the standard seed there: "bye" for the best-ranked
    teams that get a bye, otherwise the pool place (so first-round opponents keep their
    places: pool winners against the lowest qualifiers). Only teams of one class trade
    positions. At each node of the bracket the node's teams are divided between its two
    halves: first, in rank order, every team whose pool already has fewer teams on one side
    goes there (pool separation); a team with no such preference goes to the side that holds
    the position nearest its standard seed. Then each half is divided the same way.
    """

    def __init__(self, ranked: list[Qualifier], size: int):
        self.ranked, self.size = ranked, size
        self.byes = size - len(ranked)
        self.seed_at = _seed_order(size)

    def team_class(self, i: int) -> object:
        return "bye" if i < self.byes else self.ranked[i].place

    def position_class(self, pos: int) -> object:
        seed = self.seed_at[pos]
        return None if seed > len(self.ranked) else self.team_class(seed - 1)

    def nearest_side(self, i: int, halves: tuple[range, range], free: list[dict]) -> int:
        """The half holding the free position of i's class whose seed is nearest i's own."""

        own_class = self.team_class(i)

        def distance(side: int) -> int:
            if not free[side].get(own_class):
                return self.size + 1
            return min(abs(self.seed_at[p] - (i + 1)) for p in halves[side] if self.position_class(p) == own_class)

        return 0 if distance(0) <= distance(1) else 1

    def split(self, teams: list[int], halves: tuple[range, range]) -> tuple[list[int], list[int]]:
        """Divide `teams` (rank indices, best first) between two halves of positions."""
        free = [Counter(self.position_class(p) for p in half) for half in halves]
        sides: tuple[list[int], list[int]] = ([], [])
        pool_count = [Counter(), Counter()]
        waiting = list(teams)
        while waiting:
            choice = None
            for i in waiting:
                pool = self.ranked[i].pool
                if pool_count[0][pool] != pool_count[1][pool]:
                    side = 0 if pool_count[0][pool] < pool_count[1][pool] else 1
                    if free[side][self.team_class(i)]:
                        choice = (i, side)
                        break
            if choice is None:
                i = waiting[0]
                choice = (i, self.nearest_side(i, halves, free))
            i, side = choice
            waiting.remove(i)
            sides[side].append(i)
            free[side][self.team_class(i)] -= 1
            pool_count[side][self.ranked[i].pool] += 1
        return sides

    def place(self, teams: list[int], positions: range, placed: list[Qualifier | None]) -> None:
        if len(positions) == 2:
            self.place_pair(teams, positions, placed)
            return
        middle = positions.start + len(positions) // 2
        halves = (range(positions.start, middle), range(middle, positions.stop))
        for half, members in zip(halves, self.split(teams, halves), strict=True):
            self.place(sorted(members), half, placed)

    def place_pair(self, teams: list[int], positions: range, placed: list[Qualifier | None]) -> None:
        # The better seed's position first, so that equal classes keep the better team on top.
        for pos in sorted(positions, key=lambda p: self.seed_at[p]):
            i = next((t for t in teams if self.team_class(t) == self.position_class(pos)), None)
            if i is not None:
                teams.remove(i)
                placed[pos] = self.ranked[i]


def _place_qualifiers(ranked: list[Qualifier], size: int) -> list[Qualifier | None]:
    """Bracket positions of the ranked qualifiers (None = bye), pools kept apart."""
    placed: list[Qualifier | None] = [None] * size
    _Seeding(ranked, size).place(list(range(len(ranked))), range(size), placed)
    return placed


def _build_rounds(placed: list[Qualifier | None]) -> list[tuple[BracketMatch, ...]]:
    size = len(placed)
    rounds = size.bit_length() - 1
    slots: list[Slot] = [Entrant(q) if q is not None else BYE for q in placed]
    built: list[tuple[BracketMatch, ...]] = []
    for round_number in range(1, rounds + 1):
        matches = tuple(
            BracketMatch(_match_id(round_number, rounds, k), round_number, slots[2 * k], slots[2 * k + 1])
            for k in range(len(slots) // 2)
        )
        built.append(matches)
        slots = [WinnerOf(m.id) for m in matches]
    return built


def _third_place_match(rounds: list[tuple[BracketMatch, ...]]) -> BracketMatch:
    semis = rounds[-2] if len(rounds) >= 2 else ()
    if len(semis) != 2 or any(m.is_bye for m in semis):
        raise RuleError(
            "third_place_impossible",
            gettext_noop(
                "A match for third place needs two played semifinals, which takes at least 4 qualified "
                "teams. Qualify more teams or drop the third-place match."
            ),
            field="third_place",
        )
    return BracketMatch(THIRD_PLACE_ID, len(rounds), LoserOf(semis[0].id), LoserOf(semis[1].id))


def knockout_bracket(qualifiers: Sequence[Qualifier], *, third_place: bool = False) -> Bracket:
    """Seed the qualifiers into a knockout bracket (see the module docstring)."""
    qualifiers = list(qualifiers)
    _check_qualifiers(qualifiers)
    ranked = sorted(qualifiers, key=lambda q: (q.place, q.pool))
    size = 1 << (len(ranked) - 1).bit_length()
    rounds = _build_rounds(_place_qualifiers(ranked, size))
    return Bracket(tuple(rounds), _third_place_match(rounds) if third_place else None)


# --- Playing the bracket --------------------------------------------------------------------


def _slot_team(slot: Slot, teams: dict[str, tuple], decided: dict[str, TeamId]) -> TeamId | None:
    if isinstance(slot, Entrant):
        return slot.team
    if isinstance(slot, WinnerOf):
        return decided.get(slot.match)
    if isinstance(slot, LoserOf) and slot.match in decided:
        team_a, team_b = teams[slot.match]
        return team_b if decided[slot.match] == team_a else team_a
    return None


def resolve_matches(bracket: Bracket, winners: Mapping[str, TeamId]) -> dict[str, tuple[TeamId | None, TeamId | None]]:
    """Who plays each match, given the winners decided so far (byes advance by themselves)."""
    known_ids = {m.id for m in bracket.matches()}
    for match_id in winners:
        if match_id not in known_ids:
            raise RuleError(
                "unknown_match",
                gettext_noop("There is no match %(match)s in this bracket."),
                field="winners",
                match=match_id,
            )
    teams: dict[str, tuple[TeamId | None, TeamId | None]] = {}
    decided: dict[str, TeamId] = {}
    for match in bracket.matches():
        pair = (_slot_team(match.slot_a, teams, decided), _slot_team(match.slot_b, teams, decided))
        teams[match.id] = pair
        if match.is_bye:
            decided[match.id] = pair[0] if pair[0] is not None else pair[1]
        elif match.id in winners:
            decided[match.id] = _checked_winner(match.id, pair, winners[match.id])
    return teams


def _checked_winner(match_id: str, pair: tuple[TeamId | None, TeamId | None], winner: TeamId) -> TeamId:
    if None in pair or winner not in pair:
        raise RuleError(
            "winner_not_in_match",
            gettext_noop("Team %(team)s cannot have won match %(match)s: it does not play in it (yet)."),
            field="winners",
            team=winner,
            match=match_id,
        )
    return winner


def semifinal_round_robin(teams4: Sequence[TeamId]) -> list[list[Pairing]]:
    """The 4-team round robin offered instead of semifinals: 3 rounds of 2 best-of-N matches."""
    if len(teams4) != 4:
        raise RuleError(
            "semifinal_needs_four",
            gettext_noop("The semifinal round robin is for exactly 4 teams; got %(count)s."),
            field="teams",
            count=len(teams4),
        )
    return round_robin(list(teams4))
