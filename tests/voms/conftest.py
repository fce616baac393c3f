import pytest

from scoring.games.voms.services import pools as voms_pools
from tests.browser.conftest import browser, page  # noqa: F401  (real-browser fixtures)
from tournament.services.participants import register_team


@pytest.fixture
def voms(director, make_tournament):
    return make_tournament(director, name="Voms cup", game="voms")


def draw_six(voms, director):
    for i in range(6):
        register_team(voms, by=director, name=f"Team {i + 1}", players=[f"P{i} One", f"P{i} Two"])
    voms_pools.draw_pools(voms, by=director, pools=1, seed=11)
    return voms


@pytest.fixture
def drawn(voms, director):
    """Six teams in one pool, drawn with a fixed seed."""
    return draw_six(voms, director)


@pytest.fixture
def assistant_voms(db, django_user_model, voms):
    from tournament.models import Role, TournamentRole

    user = django_user_model.objects.create_user(username="helper", password="pw-Helper-1")
    TournamentRole.objects.create(tournament=voms, user=user, role=Role.ASSISTANT)
    return user
