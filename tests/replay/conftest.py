"""Replays: every form that appends, sent twice, is saved once. Reuses the double-entry games."""

import random
import re

import pytest

from tests.doubleentry.conftest import double, first, game, make_game, second  # noqa: F401  (fixtures)

KEY = re.compile(r'name="form_key" value="([^"]+)"')


def form_keys(response) -> list[str]:
    """The single-use keys of the page's forms, in page order (each form has its own)."""
    keys = KEY.findall(response.content.decode())
    assert keys, "the page renders no form key"
    assert len(set(keys)) == len(keys), "two forms share a key"
    return keys


@pytest.fixture
def knockout(director, django_user_model):
    """A Voms tournament in its knockout (best of 3): the first match with both teams known."""
    from scoring.games.voms.demo import demo, random_game
    from scoring.games.voms.services import knockout as voms_knockout
    from scoring.games.voms.services import slips as voms_slips
    from scoring.games.voms.standings import pool_tables
    from tournament.draw.bracket import Qualifier
    from tournament.models import Match, Stage

    tournament = demo(director, seed=3, teams=8, pools=2)
    rng = random.Random(3)
    for match in Match.objects.filter(stage__tournament=tournament, stage__kind=Stage.Kind.POOLS,
                                      team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry=random_game(rng))
    qualifiers = [Qualifier(pool=t.pool.index, place=row.rank, team=row.participant)
                  for t in pool_tables(tournament) for row in t.rows if row.rank <= 2]
    stage = voms_knockout.create_knockout(tournament, by=director, qualifiers=qualifiers, third_place=False,
                                 semifinal="bracket")
    return tournament, stage.matches.filter(team_a__isnull=False, team_b__isnull=False).order_by("key").first()
