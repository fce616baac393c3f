"""`drawn` (tests/tablegames/conftest.py: rummi, twelve players registered one by one, a seat draw) built once
for a module rather than once per test (`tests.conftest.drawn_once_fixtures`).

A module takes it by importing these fixtures (`from .drawn_once import built_drawn, drawn_world, once_director,
once_drawn, once_rummi  # noqa: F401`): they are named `director`, `drawn` and `rummi`, in place of conftest.py's,
and a test asks for them by those names."""

from tests.conftest import drawn_once_fixtures, new_director

from .conftest import draw_twelve, new_game


def new_rummi(director):
    return new_game(director, "rummi")


def build_drawn():
    """The director and the tournament of `drawn`, made as the fixtures of conftest.py make them."""
    director = new_director()
    return director, draw_twelve(new_rummi(director), director)


built_drawn, drawn_world, once_director, once_drawn, once_rummi = drawn_once_fixtures(build_drawn, "rummi", new_rummi)
