"""Round robin schedule by the circle method. Pure Python, no Django.

`round_robin(team_ids) -> list[list[tuple[team, team | None]]]`
    One list per round, one `(first, second)` pair per game; the first-named team is "home"
    (team A on the slip). n teams play n-1 rounds when n is even and n rounds when n is odd;
    with an odd count exactly one team per round has a bye, written `(team, None)` and placed
    last in the round so that games keep table numbers 1, 2, ... Every pair meets exactly once
    and each team is first-named in half of its games (at most one more or less).
    The schedule depends only on the order of `team_ids`: the first round is
    1st v last, 2nd v second-to-last, ... (with a bye for the first team when the count is odd).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from scoring.rules.base import RuleError, gettext_noop, require_each_once

TeamId = Hashable
Pairing = tuple[TeamId, TeamId | None]


def _check_teams(team_ids: Sequence[TeamId]) -> None:
    if len(team_ids) < 2:
        raise RuleError(
            "too_few_teams",
            gettext_noop("A round robin needs at least 2 teams; got %(count)s."),
            field="team_ids",
            count=len(team_ids),
        )
    require_each_once(team_ids, "team_invalid",
                      gettext_noop("Team %(team)s is missing or listed twice. Every team must appear once."),
                      field="team_ids", name="team", allowed=lambda team: team is not None)


def _round_pairs(circle: list[TeamId | None], fixed: TeamId | None, round_index: int) -> list[Pairing]:
    """Pairs of one round: circle[0] meets the fixed team, the rest pair up across the circle."""
    half = (len(circle) + 1) // 2
    # Alternate the fixed team's side; the others are first-named in the upper half of the
    # circle, and the rotation moves every team through both halves equally often.
    first = (circle[0], fixed) if round_index % 2 == 0 else (fixed, circle[0])
    pairs = [first] + [(circle[i], circle[-i]) for i in range(1, half)]
    games = [p for p in pairs if None not in p]
    byes = [(a if a is not None else b, None) for a, b in pairs if None in (a, b)]
    return games + byes


def round_robin(team_ids: Sequence[TeamId]) -> list[list[Pairing]]:
    """The full round robin schedule for `team_ids` (see the module docstring)."""
    teams: list[TeamId | None] = list(team_ids)
    _check_teams(teams)
    if len(teams) % 2:
        teams.append(None)  # the team paired with None sits out that round
    fixed, circle = teams[-1], teams[:-1]
    rounds = []
    for round_index in range(len(circle)):
        rounds.append(_round_pairs(circle, fixed, round_index))
        circle = circle[1:] + circle[:1]
    return rounds
