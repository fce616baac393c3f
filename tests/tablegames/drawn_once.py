"""`drawn` (tests/tablegames/conftest.py: rummi, twelve players registered one by one, a seat draw) built once
for a module rather than once per test.

A module takes it by importing these fixtures (`from .drawn_once import built_drawn, drawn_world, once_director,
once_drawn, once_rummi  # noqa: F401`): they are named `director`, `drawn` and `rummi`, in place of conftest.py's,
and a test asks for them by those names. Each test gets its own copy (`shared`), runs in a savepoint, and
whatever it writes is rolled back."""

import pytest

from tests.conftest import new_director, shared

from .conftest import draw_twelve, new_game


def build_drawn():
    """The director and the tournament of `drawn`, made as the fixtures of conftest.py make them."""
    director = new_director()
    return director, draw_twelve(new_game(director, "rummi"), director)


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


@pytest.fixture(name="rummi")
def once_rummi(request, drawn_world):
    """The built tournament for a test that takes `drawn` (directly or through `tg_assistant`, ...), which must be
    the same; a fresh one without players for a test that registers its own."""
    if "drawn" in request.fixturenames:
        return drawn_world[1]
    return new_game(drawn_world[0], "rummi")
