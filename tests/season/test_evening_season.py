"""My evening shows the player's season (tournament/public/evening.py) once the season is published."""

import pytest
from django.core.cache import caches

from tournament.models import Participant
from tournament.public.evening_links import evening_path
from tournament.services import seasons
from tournament.services.publishing import KINDS, set_publication

pytestmark = pytest.mark.django_db


def test_my_evening_shows_my_season_place_once_the_season_is_published(client, director, evening, names):
    caches["public"].clear()  # test databases hand out the same ids again: no page of an earlier test
    season = seasons.create_season(by=director, name="Season 2026", game="schafkopf", place_points=["3", "2", "1"])
    evening(5, names, season=season, seed=1)
    tonight = evening(12, names, season=season, seed=2)
    set_publication(tonight, by=director, kinds=KINDS)
    me = Participant.objects.get(tournament=tonight, number=1)
    url = evening_path(tonight, me)
    assert "My season" not in client.get(url).content.decode()  # not published: no season
    seasons.set_season_published(season, True, by=director)
    # publishing a season is no change of the tournament: its pages show it once their cached region expires
    # (PUBLIC_CACHE_SECONDS), emulated here
    caches["public"].clear()
    row = next(r for r in seasons.season_table(season).rows if r.person.pk == me.person_id)
    page = client.get(url).content.decode()
    assert "My season: Season 2026" in page
    assert row.rank is not None and row.evenings == 2  # both evenings are final
    assert f'<span class="big">{row.rank}</span>' in page and f"<dd>{row.evenings}</dd>" in page
    assert f'href="/p/seasons/{season.slug}/"' in page
