"""`drawn` (tests/schafkopf/conftest.py: sixteen players registered one by one and a seat draw) built once for a
module rather than once per test (`tests.conftest.drawn_once_fixtures`): they are most of what a test of the
table links or the score lists sets up.

A module takes it by importing these fixtures (`from .drawn_once import built_drawn, drawn_world, once_director,
once_drawn, once_schafkopf  # noqa: F401`): they are named `director`, `drawn` and `schafkopf`, in place of
conftest.py's, and a test asks for them by those names."""

from tests.conftest import drawn_once_fixtures, new_director, new_tournament

from .conftest import draw_sixteen


def new_schafkopf(director):
    return new_tournament(director, name="Schafkopf cup", game="schafkopf")


def build_drawn():
    """The director and the tournament of `drawn`, made as the fixtures of conftest.py make them."""
    director = new_director()
    return director, draw_sixteen(new_schafkopf(director), director)


built_drawn, drawn_world, once_director, once_drawn, once_schafkopf = drawn_once_fixtures(
    build_drawn, "schafkopf", new_schafkopf)
