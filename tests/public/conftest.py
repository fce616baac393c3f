import pytest
from django.core.cache import caches

from scoring.games.voms.services import pools as voms_pools
from scoring.seated import services as seated_services
from tests.browser.conftest import browser, page  # noqa: F401  (real-browser fixtures)
from tournament.public import cache as public_cache_module
from tournament.services.participants import add_participant, register_team
from tournament.services.publishing import KINDS, set_publication

VOMS_PLAYERS = [("Naja", "Lynge"), ("Malik", "Kleist"), ("Søren", "Møller"), ("Ida", "Jørgensen"), ("Aviaja", "Olsen"),
                ("Hans", "Petersen"), ("Karen", "Poulsen"), ("Inuk", "Egede"), ("Maren", "Heilmann"),
                ("Tobias", "Berthelsen"), ("Nivi", "Rasmussen"), ("Lars", "Kreutzmann")]


@pytest.fixture(autouse=True)
def fresh_public_cache():
    """Test databases hand out the same ids again; a cached page from an earlier test must not answer."""
    caches["public"].clear()
    yield
    caches["public"].clear()


def fill_voms(t, director):
    for i in range(6):
        first, second = VOMS_PLAYERS[2 * i], VOMS_PLAYERS[2 * i + 1]
        register_team(t, by=director, name="", players=[" ".join(first), " ".join(second)])
    voms_pools.draw_pools(t, by=director, pools=1, seed=11)
    return t


def fill_schafkopf(t, director):
    for number in range(1, 17):
        add_participant(t, by=director, number=number, first_name=f"Anna{number}", last_name=f"Huber{number}",
                        club="SK Isartal" if number % 2 else "Stammtisch Erding")
    seated_services.draw_seating(t, by=director, seed=7)
    return t


@pytest.fixture
def voms(director, make_tournament):
    """Six teams of two in one pool, drawn with a fixed seed; participant numbers 1..12 in VOMS_PLAYERS order."""
    return fill_voms(make_tournament(director, name="Voms cup", game="voms"), director)


@pytest.fixture
def schafkopf(director, make_tournament):
    """Sixteen players at four tables, two rounds drawn with a fixed seed."""
    return fill_schafkopf(make_tournament(director, name="Schafkopf cup", game="schafkopf"), director)


@pytest.fixture
def publish(director):
    def publish(tournament, *kinds):
        return set_publication(tournament, by=director, kinds=kinds or KINDS)

    return publish


class Background:
    """The public regions' background renderings (tournament/public/cache.py), kept instead of started in a
    thread, and run in the test's own thread when the test says (`run()`: how many ran)."""

    def __init__(self, monkeypatch):
        self.waiting = []
        monkeypatch.setattr(public_cache_module, "start_background", self.waiting.append)

    def run(self) -> int:
        work, self.waiting[:] = list(self.waiting), []
        for item in work:
            item()
        return len(work)


@pytest.fixture
def background(monkeypatch):
    return Background(monkeypatch)
