"""`manage.py demo schafkopf --players 64 [--results] [--seed N]`: a complete Schafkopf tournament to try.

Everything goes through the same services a director uses: players are imported from a generated
list, the seating is drawn, and with `--results` every table's list is entered game by game, with
plausible random games (mostly Rufspiele, some solos, a rare tout).
"""

from __future__ import annotations

import datetime
import random
from dataclasses import replace
from decimal import Decimal

from scoring.rules.schafkopf import FARBWENZ, RUF, SOLO, WENZ, GameEntry, PrizeSpec, sitting_out
from scoring.seated.demo import fill_demo
from scoring.seated.demo import player_list as seated_player_list
from scoring.seated.queries import seated_tables
from tournament.services.tournaments import create_tournament

from . import services
from .config import settings_of

FIRST_NAMES = (
    "Anna", "Josef", "Maria", "Franz", "Theresa", "Michael", "Barbara", "Georg", "Johanna", "Andreas", "Katharina",
    "Xaver", "Rosa", "Sebastian", "Elisabeth", "Korbinian", "Monika", "Alois", "Franziska", "Ludwig", "Magdalena",
    "Thomas", "Veronika", "Martin", "Kreszenz", "Stefan", "Regina", "Florian", "Agnes", "Benedikt",
)
LAST_NAMES = (
    "Huber", "Bauer", "Wagner", "Maier", "Gruber", "Hofmann", "Schmid", "Brandl", "Fischer", "Weber", "Steiner",
    "Moser", "Lechner", "Berger", "Winkler", "Pichler", "Eder", "Kainz", "Reiter", "Aigner", "Haas", "Obermeier",
    "Zellner", "Stadler", "Wimmer", "Forster", "Kirchner", "Sedlmeier", "Holzer", "Prinz",
)
CLUBS = (
    "SK Isartal", "Schafkopffreunde Dachau", "SC Hallertau", "Ober-Unter Freising", "Stammtisch Erding",
    "Trumpf Landshut", "SK Rosenheim", "Gasthof zur Post", "",
)
SUPERVISION = ("MH", "JB", "KW")


def create_demo(director, *, seed: int | None = None, results: bool = False, players: int = 64):
    rng = random.Random(seed)
    tournament = create_tournament(
        by=director, name="Schafkopf-Turnier (Demo)", game="schafkopf", date=datetime.date.today(),
        venue="Gasthof zur Post", language="de",
    )
    money = replace(
        settings_of(tournament), entry_fee=Decimal("15.00"),
        prizes=(PrizeSpec("percent", Decimal(30)), PrizeSpec("percent", Decimal(20)),
                PrizeSpec("percent", Decimal(10)), PrizeSpec("fixed", Decimal(50))),
    )
    return fill_demo(tournament, money, player_list(rng, players), by=director, rng=rng,
                     enter_results=(lambda: enter_random_results(tournament, director, rng)) if results else None)


def _last_name(rng: random.Random, index: int) -> tuple[str, str]:
    last = rng.choice(LAST_NAMES)  # drawn for the family too: the demo's names stay those of earlier versions
    return ("Brandl", "Familie Brandl") if index in (3, 4, 5) else (last, "")


def player_list(rng: random.Random, count: int) -> bytes:
    """A CSV registration list with participant numbers (a few gaps), names, clubs and one family group."""
    return seated_player_list(rng, count, first_names=FIRST_NAMES, clubs=CLUBS, last_name=_last_name)


def random_game(rng: random.Random, game_number: int, table_size: int) -> GameEntry:
    """A plausible game: mostly Rufspiele, some Farbsolo and Wenz, a rare Farbwenz or tout."""
    out = sitting_out(game_number, table_size)
    seats = [seat for seat in range(1, table_size + 1) if seat != out]
    roll = rng.random()
    game_type = RUF if roll < 0.72 else SOLO if roll < 0.86 else WENZ if roll < 0.96 else FARBWENZ
    declarer = rng.choice(seats)
    partner = rng.choice([seat for seat in seats if seat != declarer]) if game_type == RUF else None
    tout = game_type != RUF and game_number > 1 and rng.random() < 0.05
    won = rng.random() < (0.6 if tout else 0.7 if game_type == RUF else 0.78)
    schwarz = not tout and rng.random() < 0.03
    schneider = not tout and (schwarz or rng.random() < 0.17)
    return GameEntry(game_type, declarer, partner, won, schneider=schneider, schwarz=schwarz, tout=tout,
                     tout_initials=rng.choice(SUPERVISION) if tout else "")


def random_list(rng: random.Random, games: int, table_size: int) -> list[dict]:
    return [services.entry_to_json(random_game(rng, n, table_size)) for n in range(1, games + 1)]


def enter_random_results(tournament, director, rng: random.Random) -> None:
    settings = settings_of(tournament)
    for tables in seated_tables(tournament).values():
        for table in tables:
            entries = random_list(rng, settings.games_at(table.size), table.size)
            services.enter_sheet(table.seats[0].table, by=director, mode="games", entries=entries)
