"""`manage.py demo voms`: a complete demo tournament with realistic random results."""

from __future__ import annotations

import datetime
import random

from django.db import transaction

from tournament.draw.bracket import Qualifier
from tournament.models import Match, Stage
from tournament.services.participants import register_team
from tournament.services.tournaments import create_tournament

from .entries import slip_entry
from .services.knockout import create_knockout, record_series
from .services.pools import draw_pools
from .services.slips import record_slip
from .standings import pool_tables

FIRST = ["Aputsiaq", "Naja", "Malik", "Pipaluk", "Inuk", "Nivi", "Hans", "Karen", "Søren", "Mette", "Jens", "Ane",
         "Kristian", "Sofie", "Peter", "Louise", "Niels", "Ida", "Lars", "Maren", "Tobias", "Aviaja", "Kaali", "Arnaq"]
LAST = ["Lynge", "Kleist", "Petersen", "Olsen", "Berthelsen", "Heilmann", "Jensen", "Nielsen", "Hansen", "Kreutzmann",
        "Motzfeldt", "Egede", "Larsen", "Rasmussen", "Møller", "Andersen", "Frederiksen", "Poulsen"]


def random_game(rng: random.Random, target: int = 9) -> dict:
    """A plausible slip: mostly 9 against something, sometimes a kam, sometimes overshooting."""
    roll = rng.random()
    loser = 0 if roll < 0.12 else rng.randint(1, target - 1)
    winner_lus = target + (rng.randint(1, 3) if roll > 0.85 else 0)
    if winner_lus > target and loser == 0:
        loser = rng.randint(1, target - 1)
    return slip_entry(lus_a=winner_lus, lus_b=loser) if rng.random() < 0.5 else \
        slip_entry(lus_a=loser, lus_b=winner_lus)


def demo(director, *, seed=None, results=False, teams=20, pools=2):
    rng = random.Random(seed)
    with transaction.atomic():
        tournament = create_tournament(by=director, name="Voms demo", game="voms",
                                       date=datetime.date.today(), venue="Nuuk", language="da")
        names = set()
        for _i in range(teams):
            players = []
            while len(players) < 2:
                name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
                if name not in names:
                    names.add(name)
                    players.append(name)
            register_team(tournament, by=director, name="", players=players,
                                   seeded=False)
        draw_pools(tournament, by=director, pools=pools, seed=rng.randrange(10**9))
        if results:
            play_everything(tournament, director, rng)
    return tournament


def play_everything(tournament, director, rng: random.Random) -> None:
    stage = Stage.objects.get(tournament=tournament, kind=Stage.Kind.POOLS)
    for match in Match.objects.filter(stage=stage, team_b__isnull=False).select_related("round"):
        entry = slip_entry(absent="b") if rng.random() < 0.02 else random_game(rng)
        record_slip(match, by=director, entry=entry)
    per_pool = 2 if stage.pools.count() == 2 else max(1, 8 // stage.pools.count())
    qualifiers = [Qualifier(pool=t.pool.index, place=row.rank, team=row.participant)
                  for t in pool_tables(tournament) for row in t.rows
                  if row.rank is not None and row.rank <= per_pool]
    ko = create_knockout(tournament, by=director, qualifiers=qualifiers, third_place=True,
                                  semifinal="bracket")
    while True:
        pending = [m for m in ko.matches.select_related("sheet") if m.team_a_id and m.team_b_id
                   and not (hasattr(m, "sheet") and m.sheet.derived.get("finished"))]
        if not pending:
            break
        for match in pending:
            games = list(match.sheet.entries) if hasattr(match, "sheet") else []
            games.append(random_game(rng))
            record_series(match, by=director, games=games,
                                   expected_version=match.sheet.version if hasattr(match, "sheet") else None)
