"""The pure parts of bench/load.py: percentiles, a list as the grid posts it, and reading the pages it drives.

The load test itself (gunicorn, PostgreSQL, 200 viewers for a minute) is not run here: it takes minutes and
the whole machine, and its figures are for docs/performance.md, not for a pass/fail. What would make it
report errors that are not the server's — a POST that the page would not send, a token or poll address it
cannot find — is tested here against the real pages, through Django's test client.
"""

import random
from urllib.parse import parse_qs, urlsplit

import pytest

from bench.load import (
    form_value,
    grid_of,
    list_games,
    list_post_data,
    percentile,
    poll_url,
    static_urls,
    summary,
)
from scoring.games.schafkopf import services
from scoring.games.schafkopf.demo import player_list
from scoring.games.schafkopf.forms import read_games
from scoring.models import ScoreSheet
from tournament.services.participants import import_participants
from tournament.services.publishing import set_publication


def test_percentile_is_the_nearest_rank():
    values = list(range(20, 0, -1))  # unsorted on purpose
    assert percentile(values, 0.5) == 10
    assert percentile(values, 0.95) == 19
    assert percentile(values, 1) == 20
    assert percentile([0.3], 0.95) == 0.3
    assert percentile(range(1, 101), 0.95) == 95
    assert summary([3.0, 1.0, 2.0]) == {"count": 3, "p50": 2.0, "p95": 3.0, "p99": 3.0, "max": 3.0}
    hundred = [n / 1000 for n in range(100, 0, -1)]
    assert (summary(hundred)["p95"], summary(hundred)["p99"], summary(hundred)["max"]) == (0.095, 0.099, 0.1)


@pytest.mark.parametrize("values, fraction", [([], 0.5), ([1], 0), ([1], 1.5)])
def test_percentile_refuses_nonsense(values, fraction):
    with pytest.raises(ValueError):
        percentile(values, fraction)


@pytest.mark.parametrize("size, games", [(4, 30), (5, 40)])
def test_a_list_posted_as_the_grid_reads_back_the_same(size, games):
    entries = list_games(17, games, size)
    assert entries == list_games(17, games, size)  # the check after the run generates it again
    assert entries != list_games(18, games, size)
    data = list_post_data(entries, csrf="token", version=3)
    assert data["csrfmiddlewaretoken"] == "token" and data["version"] == "3" and data["mode"] == "games"
    grid = read_games(data, rows=games, table_size=size)
    assert not any(row.errors for row in grid)
    assert [row.entry for row in grid if row.entry] == entries
    assert grid_of(entries) != grid_of(list_games(18, games, size))


def test_form_value_and_addresses_from_markup():
    page = ('<input type="hidden" name="csrfmiddlewaretoken" value="a&amp;b">'
            '<input name="version" type="hidden" value="2"><input name="reason">'
            '<div hx-get="/p/x/live/standings/?since=ab&amp;q=1"></div>'
            '<link rel="stylesheet" href="/static/css/app.css"><script src="/static/js/htmx.js"></script>'
            '<a href="/static/css/app.css">')
    assert form_value(page, "csrfmiddlewaretoken") == "a&b"
    assert form_value(page, "version") == "2"
    assert form_value(page, "reason") == ""
    assert form_value(page, "missing") is None
    assert poll_url(page) == "/p/x/live/standings/?since=ab&q=1"
    assert static_urls(page) == ["/static/css/app.css", "/static/js/htmx.js"]


@pytest.fixture
def published(director, make_tournament):
    tournament = make_tournament(director, name="Load cup", game="schafkopf")
    report = import_participants(tournament, "players.csv", player_list(random.Random(1), 16), by=director)
    assert report.ok
    services.draw_seating(tournament, by=director, seed=3)
    return set_publication(tournament, by=director, kinds=["standings"])


def test_the_pages_give_what_the_load_test_reads(published, director, client):
    """The director's steps (token and version from the list page, the post, the redirect) and the viewer's
    (the poll address in the standings page, "nothing new" while nothing changed), on the real pages."""
    public = client.get(f"/p/{published.slug}/standings/")
    assert public.status_code == 200
    url = poll_url(public.content.decode())
    assert url and urlsplit(url).path == f"/p/{published.slug}/live/standings/"
    assert "since" in parse_qs(urlsplit(url).query)
    assert all(path.startswith("/static/") for path in static_urls(public.content.decode()))
    assert client.get(url).status_code == 204

    client.force_login(director)
    path = f"/manage/{published.slug}/schafkopf/rounds/2/tables/1/"
    page = client.get(path).content.decode()
    csrf, version = form_value(page, "csrfmiddlewaretoken"), form_value(page, "version")
    assert csrf and version == "0"
    entries = list_games(1, 30, 4)
    response = client.post(path, list_post_data(entries, csrf=csrf, version=version))
    assert response.status_code == 302
    assert grid_of(ScoreSheet.objects.get(table__round__number=2, table__number=1).entries) == grid_of(entries)
    assert client.get(url).status_code == 200  # a new list: the poll gets the new standings
