"""Table games: provisional standings say so; "Final ranking" once every game is finished."""

import pytest

from scoring.games.tablegames.documents import ranking_document
from scoring.games.tablegames.standings import standings
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.tablegames.conftest import add_players, make_game  # noqa: F401
from tests.tablegames.helpers import enter_rummi_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def rummi_drawn(make_game, add_players, director):  # noqa: F811
    rummi = make_game("rummi")
    add_players(rummi, 12)
    seated_services.draw_seating(rummi, by=director, seed=7)
    return rummi


def test_table_game_provisional_then_final(rummi_drawn, director):
    tables = [t for ts in seated_tables(rummi_drawn).values() for t in ts]
    enter_rummi_game(tables[0], director)
    result = standings(rummi_drawn)
    title = str(ranking_document(rummi_drawn, result=result).title)
    assert title == f"Provisional — after 1 of {len(tables)} sheets"
    waiting = [row for row in result.rows if row.rank is None]
    assert len(waiting) == 8 and not any(row.by_lot for row in waiting)
    for table in tables[1:]:
        enter_rummi_game(table, director)
    assert str(ranking_document(rummi_drawn).title) == "Final ranking"
