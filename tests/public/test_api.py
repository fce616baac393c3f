"""The read-only JSON API (tournament/public/api.py): only what is published, the printed standings' rows, the
OpenAPI schema, readable from any website, nothing loaded from elsewhere."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from documents.base import tables_of
from scoring.games import game_of
from scoring.games.schafkopf.demo import create_demo as schafkopf_demo
from scoring.games.tablegames.demo import create_demo as table_demo
from scoring.games.tablegames.family import game_by_key
from scoring.games.voms.demo import demo as voms_demo
from tournament.services import seasons
from tournament.services.publishing import set_publication

pytestmark = pytest.mark.django_db

API = "/api/v1"


def get(client, path, **params):
    response = client.get(API + path, params)
    return response, (json.loads(response.content) if response.content else None)


def test_nothing_unpublished_answers(client, director):
    tournament = schafkopf_demo(director, seed=1, results=True, players=16)
    response, data = get(client, "/tournaments")
    assert response.status_code == 200 and data["items"] == [] and data["count"] == 0
    for path in (f"/tournaments/{tournament.slug}", f"/tournaments/{tournament.slug}/standings",
                 "/tournaments/no-such-thing/standings"):
        assert get(client, path)[0].status_code == 404
    # the schedule published: the tournament is listed, its standings still are not
    set_publication(tournament, by=director, kinds=["schedule"])
    response, data = get(client, "/tournaments")
    assert [item["slug"] for item in data["items"]] == [tournament.slug]
    assert data["items"][0]["published"] == ["schedule"] and data["items"][0]["game"] == "schafkopf"
    assert data["items"][0]["url"].endswith(reverse("public:index", args=[tournament.slug]))
    assert get(client, f"/tournaments/{tournament.slug}")[1]["name"] == tournament.name
    assert get(client, f"/tournaments/{tournament.slug}/standings")[0].status_code == 404


def test_the_standings_are_the_printed_standings_rows(client, director):
    tournament = schafkopf_demo(director, seed=1, results=True, players=16)
    set_publication(tournament, by=director, kinds=["standings"])
    response, data = get(client, f"/tournaments/{tournament.slug}/standings")
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"
    with translation.override(tournament.language):
        printed = tables_of(game_of(tournament).standings_document(tournament))[0]
    table = data["tables"][0]
    assert [column["key"] for column in table["columns"]] == [column.key for column in printed.columns]
    assert len(table["rows"]) == 16 == len(list(printed.row_values()))
    first = dict(zip([c.key for c in printed.columns], next(iter(printed.row_values())), strict=True))
    assert table["rows"][0]["name"] == first["name"] and table["rows"][0]["rank"] == 1
    assert isinstance(table["rows"][0]["points"], int)  # numbers stay numbers
    assert [row["rank"] for row in table["rows"]] == sorted(row["rank"] for row in table["rows"])
    # in the tournament's language, as printed (the demo is German)
    assert any(column["title"] == "Rang" for column in table["columns"])


def test_voms_standings_are_one_table_per_pool(client, director):
    tournament = voms_demo(director, seed=3, results=True, teams=8, pools=2)
    set_publication(tournament, by=director, kinds=["standings", "schedule"])
    data = get(client, f"/tournaments/{tournament.slug}/standings")[1]
    final, *pools = data["tables"]  # the knockout is played: the final ranking first, then each pool
    assert [row["place"] for row in final["rows"]][:2] == [1, 2] and len(pools) == 2
    assert sum(len(table["rows"]) for table in pools) == 8
    assert all(isinstance(row["rank"], int) for table in pools for row in table["rows"])
    assert all(isinstance(row["points"], int | float) for table in pools for row in table["rows"])


def test_a_table_game_and_the_filters(client, director):
    rummi = table_demo(game_by_key("rummi"), director, seed=4, results=True)
    voms = voms_demo(director, seed=3, teams=8, pools=2)
    for tournament in (rummi, voms):
        set_publication(tournament, by=director, kinds=["standings"])
    assert {item["slug"] for item in get(client, "/tournaments")[1]["items"]} == {rummi.slug, voms.slug}
    assert [item["slug"] for item in get(client, "/tournaments", game="rummi")[1]["items"]] == [rummi.slug]
    club = rummi.organisation.name
    assert get(client, "/tournaments")[1]["items"][0]["club"] == club
    assert len(get(client, "/tournaments", club=club)[1]["items"]) == 2
    assert get(client, "/tournaments", club="another club")[1]["items"] == []
    page = get(client, "/tournaments", limit=1)[1]
    assert page["count"] == 2 and len(page["items"]) == 1
    # the database pages the list (only a page's rows are read), each row's club and season joined: the same
    # queries for one row as for two
    counts = []
    for limit in (1, 2):
        with CaptureQueriesContext(connection) as queries:
            assert len(get(client, "/tournaments", limit=limit)[1]["items"]) == limit
        counts.append(len(queries))
        assert any(f"LIMIT {limit}" in query["sql"] for query in queries.captured_queries)
    assert counts[0] == counts[1]
    table = get(client, f"/tournaments/{rummi.slug}/standings")[1]["tables"][0]
    assert len(table["rows"]) == rummi.participants.count()


def test_a_season_only_once_its_ranking_is_published(client, director):
    season = seasons.create_season(by=director, name="Season 2026", game="schafkopf", place_points=["3", "2", "1"])
    evening = schafkopf_demo(director, seed=1, results=True, players=16)
    seasons.add_evening(season, evening, by=director)
    assert get(client, "/seasons")[1] == [] and get(client, f"/seasons/{season.slug}")[0].status_code == 404
    seasons.set_season_published(season, True, by=director)
    listed = get(client, "/seasons")[1]
    assert [s["slug"] for s in listed] == [season.slug] and listed[0]["tournaments"] == [evening.slug]
    data = get(client, f"/seasons/{season.slug}")[1]
    rows = data["ranking"]["rows"]
    assert len(rows) == 16 and rows[0]["rank"] == 1 and rows[0]["total"] == 3
    assert data["url"].endswith(reverse("public:season", args=[season.slug]))


def test_the_schema_and_its_page_work_offline(client):
    schema = client.get(f"{API}/openapi.json").json()
    assert {"/api/v1/tournaments", "/api/v1/tournaments/{slug}", "/api/v1/tournaments/{slug}/standings",
            "/api/v1/seasons", "/api/v1/seasons/{slug}"} <= set(schema["paths"])
    assert set(schema["paths"]["/api/v1/tournaments"]) == {"get"}
    page = client.get(f"{API}/docs")
    assert page.status_code == 200
    text = page.content.decode()
    assert "swagger-ui-bundle.js" in text and "cdn" not in text.lower() and "https://" not in text


def test_it_only_reads(client, director):
    tournament = schafkopf_demo(director, seed=1, players=16)
    set_publication(tournament, by=director, kinds=["standings"])
    assert client.post(f"{API}/tournaments/{tournament.slug}/standings").status_code == 405
    assert client.delete(f"{API}/tournaments/{tournament.slug}").status_code == 405
