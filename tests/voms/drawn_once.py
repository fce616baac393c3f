"""`drawn` (tests/voms/conftest.py: six teams registered one by one and a pool draw) built once for a module
rather than once per test (`tests.conftest.drawn_once_fixtures`).

A module takes it by importing these fixtures (`from .drawn_once import built_drawn, drawn_world, once_director,
once_drawn, once_voms  # noqa: F401`): they are named `director`, `drawn` and `voms`, in place of conftest.py's,
and a test asks for them by those names."""

from tests.conftest import drawn_once_fixtures, new_director, new_tournament

from .conftest import draw_six


def new_voms(director):
    return new_tournament(director, name="Voms cup", game="voms")


def build_drawn():
    """The director and the tournament of `drawn`, made as the fixtures of conftest.py make them."""
    director = new_director()
    return director, draw_six(new_voms(director), director)


built_drawn, drawn_world, once_director, once_drawn, once_voms = drawn_once_fixtures(build_drawn, "voms", new_voms)
