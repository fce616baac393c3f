import pytest

from tests.browser.conftest import browser, page  # noqa: F401  (real-browser fixtures)
from tournament.services.participants import add_participant, register_team


@pytest.fixture
def schafkopf(director, make_tournament):
    return make_tournament(director, name="Schafkopf cup", game="schafkopf")


@pytest.fixture
def rummi(director, make_tournament):
    return make_tournament(director, name="Rummi night", game="rummi")


@pytest.fixture
def voms(director, make_tournament):
    return make_tournament(director, name="Voms cup", game="voms")


@pytest.fixture
def add_players(director):
    def add(tournament, count, *, start=1):
        return [add_participant(tournament, by=director, number=n, first_name=f"Anna{n}", last_name=f"Huber{n}")
                for n in range(start, start + count)]

    return add


@pytest.fixture
def add_teams(director):
    def add(tournament, count):
        return [register_team(tournament, by=director, name=f"Team {i}", players=[f"P{i} One", f"P{i} Two"])
                for i in range(1, count + 1)]

    return add
