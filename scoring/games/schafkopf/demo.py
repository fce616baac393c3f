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
from tournament.services.participants import import_participants
from tournament.services.tournaments import create_tournament

from . import services
from .config import settings_of
from .queries import seated_tables

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
    services.update_settings(tournament, money, by=director)
    # a generated list may name two people alike, as a real club's may: no question to ask
    report = import_participants(tournament, "players.csv", player_list(rng, players), by=director,
                                 confirm_duplicates=True)
    if not report.ok:
        raise ValueError(f"demo player list rejected: {report.rejected}")
    services.draw_seating(tournament, by=director, seed=rng.randrange(1, services.SEED_LIMIT))
    if results:
        enter_random_results(tournament, director, rng)
    tournament.refresh_from_db()
    return tournament


def player_list(rng: random.Random, count: int) -> bytes:
    """A CSV registration list with participant numbers (a few gaps), names, clubs and one family group."""
    lines = ["Number;First name;Last name;Club;Group"]
    number = 0
    for index in range(count):
        number += 2 if rng.random() < 0.05 else 1  # no-shows leave gaps in the numbers
        last = rng.choice(LAST_NAMES)
        group = "Familie Brandl" if index in (3, 4, 5) else ""
        if group:
            last = "Brandl"
        lines.append(f"{number};{rng.choice(FIRST_NAMES)};{last};{rng.choice(CLUBS)};{group}")
    return "\n".join(lines).encode()


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
