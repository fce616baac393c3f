import random

import pytest

from scoring.games.schafkopf import services
from scoring.games.schafkopf.demo import random_list
from scoring.results.links import issue_links, token_of
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.browser.conftest import browser, page  # noqa: F401  (real-browser fixtures)
from tournament.models import Role, Round, TournamentRole
from tournament.services.participants import add_participant


@pytest.fixture
def schafkopf(director, make_tournament):
    return make_tournament(director, name="Schafkopf cup", game="schafkopf")


def register_players(tournament, director, count, *, start=1, clubs=()):
    """Register `count` players numbered from `start` (with club names from `clubs`, round robin)."""
    return [
        add_participant(tournament, by=director, number=number, first_name=f"Anna{number}",
                        last_name=f"Huber{number}", club=clubs[i % len(clubs)] if clubs else "")
        for i, number in enumerate(range(start, start + count))
    ]


@pytest.fixture
def add_players(director):
    """Register `count` players numbered from `start` (with club names from `clubs`, round robin)."""

    def add(tournament, count, *, start=1, clubs=()):
        return register_players(tournament, director, count, start=start, clubs=clubs)

    return add


def draw_sixteen(tournament, director):
    register_players(tournament, director, 16)
    seated_services.draw_seating(tournament, by=director, seed=7)
    return tournament


@pytest.fixture
def drawn(schafkopf, director):
    """Sixteen players at four tables, two rounds drawn with a fixed seed."""
    return draw_sixteen(schafkopf, director)


@pytest.fixture
def sk_assistant(db, django_user_model, schafkopf):
    user = django_user_model.objects.create_user(username="helper", password="pw-Helper-1")
    TournamentRole.objects.create(tournament=schafkopf, user=user, role=Role.ASSISTANT)
    return user


@pytest.fixture
def tables_of():
    """{round: [SeatedTable]} of a tournament."""
    return seated_tables


@pytest.fixture
def a_list():
    """A valid random list of `games` games for a table of `size` (reproducible per seed)."""

    def make(games=30, size=4, seed=1):
        return random_list(random.Random(seed), games, size)

    return make


@pytest.fixture
def enter_all(director, a_list):
    """Enter a random game-by-game list at every table of every round."""

    def enter(tournament, seed=1):
        for tables in seated_tables(tournament).values():
            for index, table in enumerate(tables):
                entries = a_list(30 if table.size == 4 else 40, table.size, seed=seed * 1000 + table.table_id + index)
                services.enter_sheet(table.seats[0].table, by=director, mode="games", entries=entries)

    return enter


# --- table links ---------------------------------------------------------------------------------


@pytest.fixture
def rounds(drawn):
    return list(Round.objects.filter(stage__tournament=drawn).order_by("number"))


@pytest.fixture
def links(rounds, director):
    """Links for every table of both rounds: {(round, table number): (link, token)}."""
    made = {}
    for round_ in rounds:
        for link in issue_links(round_, by=director):
            made[(round_.number, link.table.number)] = (link, token_of(link))
    return made


@pytest.fixture
def short_list(drawn):
    """Two games per round so a whole list is quick to type in a browser."""
    from scoring.games.schafkopf.config import settings_of

    settings = settings_of(drawn)
    seated_services.update_settings(drawn, type(settings)(**{**settings.__dict__, "games_per_round": 2,
                                                      "games_at_five": 3}), by=drawn.created_by)
    return drawn
