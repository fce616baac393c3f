"""`drawn` (tests/schafkopf/conftest.py) built once for a module rather than once per test: sixteen players
registered one by one and a seat draw are most of what a test of the table links or the score lists sets up.

A module takes it by importing these fixtures (`from .drawn_once import built_drawn, drawn_world, once_director,
once_drawn, once_schafkopf  # noqa: F401`): they are named `director`, `drawn` and `schafkopf`, in place of
conftest.py's, and a test asks for them by those names.
Each test gets its own copy (`shared`), runs in a savepoint, and whatever it writes is rolled back."""

import datetime

import pytest

from tests.conftest import new_director, shared
from tournament.services.tournaments import create_tournament

from .conftest import draw_sixteen


def build_drawn():
    """The director and the tournament of `drawn`, made as the fixtures of conftest.py make them."""
    director = new_director()
    tournament = create_tournament(by=director, name="Schafkopf cup", game="schafkopf",
                                   date=datetime.date(2026, 12, 5))
    return director, draw_sixteen(tournament, director)


@pytest.fixture(scope="module")
def built_drawn(build_once):
    return build_once(build_drawn)


@pytest.fixture
def drawn_world(request, built_drawn):
    return shared(request, built_drawn)


@pytest.fixture(name="director")
def once_director(drawn_world):
    return drawn_world[0]


@pytest.fixture(name="drawn")
def once_drawn(drawn_world):
    return drawn_world[1]


@pytest.fixture(name="schafkopf")
def once_schafkopf(request, drawn_world, make_tournament):
    """The built tournament for a test that takes `drawn` (directly or through `rounds`, `links`, ...), which
    must be the same; a fresh one without players for a test that registers its own."""
    if "drawn" in request.fixturenames:
        return drawn_world[1]
    return make_tournament(drawn_world[0], name="Schafkopf cup", game="schafkopf")
