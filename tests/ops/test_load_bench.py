"""The pure parts of bench/load.py: percentiles, a list as the grid posts it, and reading the pages it drives.

The load test itself (gunicorn, PostgreSQL, 200 viewers for a minute) is not run here: it takes minutes and
the whole machine, and its figures are for docs/performance.md, not for a pass/fail. What would make it
report errors that are not the server's — a POST that the page would not send, a token or poll address it
cannot find — is tested here against the real pages, through Django's test client.
"""

import random
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from bench._server import percentile, summary
from bench.load import (
    form_value,
    grid_of,
    list_games,
    list_post_data,
    poll_url,
    static_urls,
)
from bench.load_tables import build_tournament as build_tables
from bench.load_tables import check as check_tables
from bench.load_tables import confirm_form, failures, hidden_fields, phone_post_data, run_load, send_times
from scoring.games.schafkopf.demo import player_list
from scoring.games.schafkopf.forms import read_games
from scoring.models import ScoreSheet
from scoring.seated import services as seated_services
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
    seated_services.draw_seating(tournament, by=director, seed=3)
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


# --- the "tables" scenario (bench/load_tables.py) ---------------------------------------------------------------


def test_hidden_fields_and_forms_from_markup():
    page = ('<form method="post" id="sk-list" class="x"><input type="hidden" name="csrfmiddlewaretoken" '
            'value="a&amp;b"><input type="hidden" name="key" value="k1"><input name="t1" value=""></form>'
            '<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="c">'
            '<input type="hidden" name="action" value="problem"></form>')
    assert hidden_fields(page) == {"csrfmiddlewaretoken": "c", "key": "k1", "action": "problem"}
    data = phone_post_data(page, list_games(3, 30, 4))
    assert data["csrfmiddlewaretoken"] == "a&b" and data["key"] == "k1" and "action" not in data
    assert read_games(data, rows=30, table_size=4)[0].entry == list_games(3, 30, 4)[0]
    assert phone_post_data("<p>This link is not valid.</p>", []) is None
    assert confirm_form(page) is None
    confirm = page + ('<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="d">'
                      '<input type="hidden" name="action" value="confirm"><input type="hidden" '
                      'name="pending_version" value="1"></form>')
    assert confirm_form(confirm) == {"csrfmiddlewaretoken": "d", "action": "confirm", "pending_version": "1"}


def test_every_table_sends_once_in_time_order_and_some_twice():
    sends = send_times(list(range(1, 201)), 300, 0.1)
    assert [number for _when, number, _twice in sorted(sends, key=lambda s: s[1])] == list(range(1, 201))
    assert [when for when, _n, _t in sends] == sorted(when for when, _n, _t in sends)
    assert all(0 <= when <= 300 for when, _n, _t in sends)
    assert 5 < sum(twice for _w, _n, twice in sends) < 40
    assert send_times([1, 2, 3], 300, 0.1) == send_times([1, 2, 3], 300, 0.1)
    assert not any(twice for _w, _n, twice in send_times(list(range(50)), 10, 0))


def test_the_tables_scenario_loses_and_doubles_nothing(serial_server):
    """A tiny run of the scenario against the live server: 6 tables send their lists from the phone page (half
    of them the same form twice at once), 2 viewers poll the standings, one assistant confirms every list.
    Every list is stored once, as sent, and counts after its confirmation; the public standings show it."""
    password = "pw-Assistant-1"
    tournament, tokens, sizes, _figures = build_tables(6, 1, password)
    before = Client().get(f"/p/{tournament.slug}/standings/").content.decode()
    run = run_load(serial_server, tournament.slug, tokens, sizes, seconds=0, viewers=2, poll=0.2,
                   assistants=[("assistant1", password)], resend=0.5, phone_threads=3, drain=120)
    recorder = run["recorder"]
    assert recorder.errors == []
    assert set(recorder.statuses["phone send"]) <= {200, 302} and recorder.latencies["poll 200"]
    assert run["resends"] and set(run["resends"].values()) == {"sent"}
    result = check_tables(tournament, sizes, run["outcomes"], run["confirmed"])
    assert failures(result) == []
    assert (result["sent"], result["counted"], result["awaiting"], result["confirmed"], result["first entries"]) == (
        6, 6, 0, 6, 6)
    poll = Client().get(poll_url(before))  # what a phone that showed the standings before asks next
    assert poll.status_code == 200 and poll_url(poll.content.decode()) != poll_url(before)


# --- bench/_server.py: what both scenarios share --------------------------------------------------------------


def test_the_shared_server_helper_starts_measures_and_stops_a_server(tmp_path):
    """A stand-in server (Python's own, serving a folder with /accounts/login/) on a free port of 127.0.0.1:
    started, waited for, its CPU time counted from `measure()`, stopped once, its log counted."""
    import sys

    from bench._server import Server, cpu_seconds

    (tmp_path / "site" / "accounts" / "login").mkdir(parents=True)
    (tmp_path / "site" / "accounts" / "login" / "index.html").write_text("<p>login</p>")
    server = Server([sys.executable, "-m", "http.server", "{port}", "--bind", "127.0.0.1", "--directory",
                     str(tmp_path / "site")], tmp_path / "server.log", tmp_path)
    port = server.start()
    try:
        assert port > 0 and server.process.poll() is None
        server.measure()
        assert server.cpu() >= 0 and cpu_seconds(server.pid) >= server.cpu()
    finally:
        line = server.stop()
    assert server.process.poll() is not None
    assert line == "0 tracebacks, 0 worker timeouts, 0 internal server errors in its log"
    assert server.stop() == line  # stopping again (the scenarios' `finally`) changes nothing


def test_the_shared_figures_lines():
    from bench._server import cpu_line, error_lines, latency_lines, load_line, server_errors
    from bench.load import Recorder

    recorder = Recorder()
    for seconds in (0.010, 0.020, 0.030):
        recorder.record("public page", seconds, 200, 1024)
    recorder.record("poll 200", 0.5, 503)
    recorder.error("poll 200", "GET /p/x/live/: status 503", "status 503")
    lines = latency_lines(recorder, ("public page", "static file", "poll 200"), sizes=True)
    assert lines[0].split() == ["request", "count", "p50", "ms", "p95", "ms", "p99", "ms", "max", "ms", "statuses"]
    assert lines[1].split()[:7] == ["public", "page", "3", "20", "30", "30", "30"] and "200: 3" in lines[1]
    assert len(lines) == 3 and "503: 1" in lines[2]  # no line for a kind without requests
    assert server_errors(recorder) == 1
    assert error_lines(recorder) == ["      1 × poll 200: status 503", "  e.g. poll 200: GET /p/x/live/: status 503"]
    assert cpu_line(2.0, 400, PostgreSQL=0.5) == ("CPU        server 2.0 s (5.0 ms per request answered), "
                                                   "PostgreSQL 0.5 s during the run")
    assert "1.0 before, 3.0 highest" in load_line(1.0, [2.0, 3.0], 2.5)
