"""Drawing teams into pools. Pure Python, no Django.

`draw_pools(team_ids, pools, *, seed, seeded=()) -> list[list[team]]`
    A random draw, reproducible from `seed` (store it and show it): the same teams, pool
    count, seed and seeded list always give the same pools, whatever order the teams come in.
    Pool sizes differ by at most one (the first pools get the extra teams). Seeded teams go
    to different pools; with more seeded teams than pools they are spread as evenly as
    possible, in pots taken in the order given (strongest first), one team of a pot per pool.
    The order inside a pool is drawn too (it becomes the round robin order).
    Raises `RuleError` when fewer than 2 teams would end up in a pool, or the input is wrong.
`pool_name(index) -> str`
    "A", "B", ..., "Z", "AA", "AB", ... for index 0, 1, ...
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from scoring.rules.base import RuleError, gettext_noop, require_each_once

TeamId = Hashable
MIN_POOL_SIZE = 2


def pool_name(index: int) -> str:
    """Spreadsheet-style letters for the pool at 0-based `index`: A..Z, AA, AB, ..."""
    if index < 0:
        raise ValueError(f"pool index must be >= 0, got {index}")
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _canonical(teams: Sequence[TeamId]) -> list[TeamId]:
    # Sorting first makes the draw independent of the order the database returned the teams.
    return sorted(teams, key=repr)


def _check_request(team_ids: Sequence[TeamId], pools: int, seeded: Sequence[TeamId]) -> None:
    if isinstance(pools, bool) or not isinstance(pools, int) or pools < 1:
        raise RuleError(
            "pools_invalid",
            gettext_noop("The number of pools must be a whole number of at least 1; got %(value)s."),
            field="pools",
            value=pools,
        )
    if len(set(team_ids)) != len(team_ids):
        raise RuleError(
            "duplicate_team", gettext_noop("A team is listed twice. Every team must appear once."), field="team_ids"
        )
    if len(team_ids) < MIN_POOL_SIZE * pools:
        raise RuleError(
            "too_few_teams_for_pools",
            gettext_noop(
                "%(teams)s teams cannot fill %(pools)s pools: every pool needs at least %(min)s teams. "
                "Use fewer pools or register more teams."
            ),
            field="pools",
            teams=len(team_ids),
            pools=pools,
            min=MIN_POOL_SIZE,
        )
    require_each_once(seeded, "seeded_invalid",
                      gettext_noop("Seeded team %(team)s is not registered or is named twice. Correct the seeded "
                                   "list."),
                      field="seeded", name="team", allowed=set(team_ids).__contains__)


def pool_sizes(team_count: int, pools: int) -> list[int]:
    """Sizes differing by at most one, larger pools first."""
    base, extra = divmod(team_count, pools)
    return [base + 1 if i < extra else base for i in range(pools)]


def _place_seeded(seeded: Sequence[TeamId], sizes: list[int], rng: random.Random) -> list[list[TeamId]]:
    """Put seeded teams in pots of one per pool, each pot into distinct pools."""
    pools: list[list[TeamId]] = [[] for _ in sizes]
    for start in range(0, len(seeded), len(sizes)):
        pot = list(seeded[start:start + len(sizes)])
        # Only a full last pot of a nearly all-seeded field can meet a full pool.
        open_pools = [i for i, members in enumerate(pools) if len(members) < sizes[i]]
        for team, pool in zip(pot, rng.sample(open_pools, len(pot)), strict=True):
            pools[pool].append(team)
    return pools


def draw_pools(
    team_ids: Sequence[TeamId],
    pools: int,
    *,
    seed: int | str,
    seeded: Sequence[TeamId] = (),
) -> list[list[TeamId]]:
    """Draw `team_ids` into `pools` pools (see the module docstring)."""
    team_ids, seeded = list(team_ids), list(seeded)
    _check_request(team_ids, pools, seeded)
    rng = random.Random(f"pools:{seed}")
    sizes = pool_sizes(len(team_ids), pools)
    drawn = _place_seeded(seeded, sizes, rng)
    chosen = set(seeded)
    others = [t for t in _canonical(team_ids) if t not in chosen]
    rng.shuffle(others)
    for members, size in zip(drawn, sizes, strict=True):
        while len(members) < size:
            members.append(others.pop())
    for members in drawn:
        rng.shuffle(members)
    return drawn
