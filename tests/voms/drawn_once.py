"""`drawn` (tests/voms/conftest.py: six teams registered one by one and a pool draw) built once for a module
rather than once per test.

A module takes it by importing these fixtures (`from .drawn_once import built_drawn, drawn_world, once_director,
once_drawn, once_voms  # noqa: F401`): they are named `director`, `drawn` and `voms`, in place of conftest.py's,
and a test asks for them by those names. Each test gets its own copy (`shared`), runs in a savepoint, and
whatever it writes is rolled back."""

import datetime

import pytest

from tests.conftest import new_director, shared
from tournament.services.tournaments import create_tournament

from .conftest import draw_six


def build_drawn():
    """The director and the tournament of `drawn`, made as the fixtures of conftest.py make them."""
    director = new_director()
    tournament = create_tournament(by=director, name="Voms cup", game="voms", date=datetime.date(2026, 12, 5))
    return director, draw_six(tournament, director)


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


@pytest.fixture(name="voms")
def once_voms(request, drawn_world, make_tournament):
    """The built tournament for a test that takes `drawn` (directly or through `slip_links`, ...), which must be
    the same; a fresh one without teams for a test that registers its own."""
    if "drawn" in request.fixturenames:
        return drawn_world[1]
    return make_tournament(drawn_world[0], name="Voms cup", game="voms")
