"""A seated game's demo tournament (`manage.py demo <game>`), filled through the services a director uses."""

from __future__ import annotations

import random
from collections.abc import Callable

from tournament.services.participants import import_participants
from tournament.services.seating import SEED_LIMIT

from . import services


def player_list(rng: random.Random, count: int, *, first_names, clubs,
                last_name: Callable[[random.Random, int], tuple[str, str]]) -> bytes:
    """A CSV registration list with participant numbers (a few gaps), names and clubs; `last_name(rng, index)`
    gives the index-th player's last name and group (a family kept apart)."""
    lines = ["Number;First name;Last name;Club;Group"]
    number = 0
    for index in range(count):
        number += 2 if rng.random() < 0.05 else 1  # no-shows leave gaps in the numbers
        last, group = last_name(rng, index)
        lines.append(f"{number};{rng.choice(first_names)};{last};{rng.choice(clubs)};{group}")
    return "\n".join(lines).encode()


def fill_demo(tournament, settings, players: bytes, *, by, rng: random.Random,
              enter_results: Callable[[], None] | None = None):
    """Store `settings`, register the CSV list `players`, draw the seating with a seed from `rng`, then
    `enter_results()` when given; the tournament as stored."""
    services.update_settings(tournament, settings, by=by)
    # a generated list may name two people alike, as a real club's may: no question to ask
    report = import_participants(tournament, "players.csv", players, by=by, confirm_duplicates=True)
    if not report.ok:
        raise ValueError(f"demo player list rejected: {report.rejected}")
    services.draw_seating(tournament, by=by, seed=rng.randrange(1, SEED_LIMIT))
    if enter_results is not None:
        enter_results()
    tournament.refresh_from_db()
    return tournament
