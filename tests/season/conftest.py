import datetime
import random

import pytest

from scoring.games.schafkopf.demo import enter_random_results
from scoring.seated import services as seated_services
from tests.browser.conftest import browser, page  # noqa: F401  (real-browser fixtures)
from tournament.services.participants import add_participant


@pytest.fixture
def evening(director, make_tournament):
    """A Schafkopf evening with the named players (first and last name split at the space), drawn;
    `results=True` enters every list (the evening is final)."""

    def make(day, names, *, results=True, season=None, seed=1):
        tournament = make_tournament(director, name=f"Evening {day}", game="schafkopf",
                                     date=datetime.date(2026, 1, day))
        for name in names:
            first, last = name.split(" ")
            add_participant(tournament, by=director, first_name=first, last_name=last, club="SK Au")
        if season is not None:
            from tournament.services.seasons import add_evening

            add_evening(season, tournament, by=director)
        seated_services.draw_seating(tournament, by=director, seed=seed)
        if results:
            enter_random_results(tournament, director, random.Random(seed))
        tournament.refresh_from_db()
        return tournament

    return make


@pytest.fixture
def names():
    return [f"P{i} Player{i}" for i in range(1, 17)]
