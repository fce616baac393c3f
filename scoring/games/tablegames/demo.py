"""`manage.py demo <table game> --players N [--variant V] [--results] [--seed N]`: a complete tournament to try.

Everything goes through the services a director uses: players are imported from a generated list,
the seating is drawn, and with `--results` every table's game is played hand by hand with the
game's own random hands (`TableGame.random_hand`) until the rules say it is over, then entered.
All of it is one transaction: a player count the game cannot seat, or anything else the services or
rules refuse, is a `CommandError` with the translated message, and nothing is left behind.
"""

from __future__ import annotations

import dataclasses
import datetime
import random

from django.core.management import CommandError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.results.checks import rule_message
from scoring.rules.base import RuleError
from scoring.seated.demo import fill_demo
from scoring.seated.demo import player_list as seated_player_list
from scoring.seated.queries import seated_tables
from tournament.services.errors import DomainError
from tournament.services.tournaments import create_tournament

from . import services
from .config import defaults_for, settings_of
from .family import TableGame
from .sheets import FINISH_TIME, follow

FIRST_NAMES = (
    "Anna", "Mads", "Sofie", "Jens", "Ida", "Henrik", "Karen", "Lars", "Mette", "Søren", "Birgit", "Ole", "Freja",
    "Niels", "Lotte", "Peter", "Inge", "Frederik", "Hanne", "Bo", "Julie", "Anders", "Maria", "Thomas", "Emma",
)
LAST_NAMES = (
    "Jensen", "Nielsen", "Hansen", "Pedersen", "Andersen", "Christensen", "Larsen", "Sørensen", "Rasmussen",
    "Jørgensen", "Petersen", "Madsen", "Kristensen", "Olsen", "Thomsen", "Poulsen", "Johansen", "Møller", "Mortensen",
)
CLUBS = ("Spilleklubben Ørsted", "Brætspilscaféen", "Familieklubben Vest", "Aftenskolen", "")
#: a game that has not ended after this many hands is a bug in the demo's hands, not a long game
MAX_HANDS = 60


def create_demo(game: TableGame, director, *, seed: int | None = None, results: bool = False,
                players: int | None = None, variant: str | None = None):
    """The demo tournament, or a `CommandError` saying what to change (and nothing created)."""
    variant = variant or game.default_variant
    count = game.demo_players if players is None else players
    chosen = dataclasses.replace(defaults_for(game, variant), finish_time=game.patience)
    check_player_count(chosen, count)
    try:
        with transaction.atomic():
            return _create(game, director, chosen, rng=random.Random(seed), results=results, count=count)
    except DomainError as error:
        raise CommandError(str(error.message)) from error
    except RuleError as error:
        raise CommandError(rule_message(error)) from error


def smallest_count(settings) -> int:
    """The fewest players a demo of `settings` can have: one table of the smallest size (one for a patience)."""
    return 1 if settings.patience else min(settings.allowed_sizes)


def check_player_count(settings, count: int) -> None:
    smallest = smallest_count(settings)
    if count < smallest:
        raise CommandError(
            _("%(game)s needs at least %(min)s players, so a demo cannot have %(count)s. "
              "Run it again with --players %(min)s or more.")
            % {"game": _(settings.spec.name), "min": smallest, "count": count}
        )


def _create(game: TableGame, director, chosen, *, rng: random.Random, results: bool, count: int):
    spec = chosen.spec
    with translation.override(game.demo_language):
        name = _("%(game)s evening (demo)") % {"game": _(spec.name)}
    tournament = create_tournament(by=director, name=name, game=game.key, date=datetime.date.today(),
                                   venue="Medborgerhuset", language=game.demo_language)
    return fill_demo(tournament, chosen, player_list(rng, count), by=director, rng=rng,
                     enter_results=(lambda: enter_random_results(tournament, director, rng)) if results else None)


def _last_name(rng: random.Random, index: int) -> tuple[str, str]:
    return ("Holm", "Familie Holm") if index in (2, 3, 4) else (rng.choice(LAST_NAMES), "")


def player_list(rng: random.Random, count: int) -> bytes:
    """A CSV registration list: numbers with a few gaps, names, clubs, and one family kept apart."""
    return seated_player_list(rng, count, first_names=FIRST_NAMES, clubs=CLUBS, last_name=_last_name)


def random_game(game: TableGame, settings, names: dict[int, str], rng: random.Random) -> list[dict]:
    """A whole game at one table, hand by hand, until the rules say it is over."""
    seats = list(names)
    rows: list[dict] = []
    for number in range(1, MAX_HANDS + 1):
        rows.append(game.random_hand(rng, seats, settings.spec, settings.rules, number))
        followed = follow(settings, names, rows)
        if followed.error is not None:
            raise ValueError(f"the demo dealt a hand the rules refuse: {followed.error}")
        if followed.finished:
            return rows
    return [*rows, {"end": True}]


def random_results(game: TableGame, settings, names: dict[int, str], rng: random.Random) -> list[dict]:
    """Every player's patience result, handed in in random order."""
    seats = list(names)
    rng.shuffle(seats)
    rows = []
    for seat in seats:
        row = game.random_hand(rng, [seat], settings.spec, settings.rules, 1)
        if settings.finish_time:
            row[FINISH_TIME] = f"{rng.randint(8, 25)}:{rng.randint(0, 59):02d}"
        rows.append(row)
    return rows


def enter_random_results(tournament, director, rng: random.Random) -> None:
    settings = settings_of(tournament)
    make = random_results if settings.patience else random_game
    for tables in seated_tables(tournament).values():
        for table in tables:
            entries = make(settings.game, settings, table.names, rng)
            services.enter_sheet(table.seats[0].table, by=director, entries=entries)
