"""The Voms standings page: built from the standings document's rows, cached per version of the tournament.

The page is cached under the tournament's newest audit entry; these tests check that every change a
director makes at the referee table (a slip, a correction) shows at the next request, and that an
unchanged tournament is not ranked again.
"""

import io
import re
from html import unescape

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from documents import render
from scoring.games.voms import standings
from scoring.games.voms.documents import build
from scoring.games.voms.views import standings as standings_view
from scoring.models import ScoreSheet
from tournament.models import Match, Tournament

pytestmark = pytest.mark.django_db


def page(client, tournament) -> str:
    return client.get(reverse("tournament:voms:standings", args=[tournament.slug])).content.decode()


def rows(html: str) -> list[list[str]]:
    """Each row of the pools' standings tables (not the final ranking), its cells as text."""
    bodies = re.findall(r'<table class="grid standings">.*?<tbody>(.*?)</tbody>', html, re.S)
    return [[unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for body in bodies for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def row_of(html: str, team: str) -> list[str]:
    return next(row for row in rows(html) if row[1] == team)


def test_a_slip_and_its_correction_show_at_once(client, drawn, director):
    client.force_login(director)
    match = Match.objects.get(round__number=1, table_number=1)
    winner = match.team_a.name
    before = page(client, drawn)
    assert row_of(before, winner)[2:4] == ["0", "0"]  # played, points

    client.post(reverse("tournament:voms:enter", args=[drawn.slug]),
                {"round": 1, "table": 1, "lus_a": "9", "lus_b": "0"})
    assert ScoreSheet.objects.count() == 1
    after_slip = page(client, drawn)
    assert row_of(after_slip, winner)[2:6] == ["1", "2.5", "1", "9"]  # played, points, wins, lus +

    client.post(reverse("tournament:voms:correct", args=[drawn.slug, match.pk]),
                {"lus_a": "9", "lus_b": "4", "version": 1, "reason": "misread"})
    assert ScoreSheet.objects.get().corrected
    after_correction = page(client, drawn)
    assert row_of(after_correction, winner)[2:6] == ["1", "2", "1", "9"]
    assert row_of(after_correction, match.team_b.name)[5:8] == ["4", "9", "-5"]  # lus +, lus −, difference


def test_an_unchanged_tournament_is_ranked_once(client, drawn, director, monkeypatch):
    calls = []
    compute = standings_view.standings_page
    monkeypatch.setattr(standings_view, "standings_page", lambda t: calls.append(t) or compute(t))
    client.force_login(director)
    first = rows(page(client, drawn))
    assert rows(page(client, drawn)) == first and len(calls) == 1
    client.post(reverse("tournament:voms:enter", args=[drawn.slug]),
                {"round": 1, "table": 2, "lus_a": "11", "lus_b": "7"})
    assert rows(page(client, drawn)) != first and len(calls) == 2


def test_the_page_is_cached_per_language(client, drawn, director):
    client.force_login(director)
    client.post(reverse("tournament:voms:enter", args=[drawn.slug]),
                {"round": 1, "table": 1, "lus_a": "9", "lus_b": "0"})
    winner = Match.objects.get(round__number=1, table_number=1).team_a.name
    assert row_of(page(client, drawn), winner)[3] == "2.5"
    client.cookies["django_language"] = "de"
    assert row_of(page(client, drawn), winner)[3] == "2,5"


def test_the_page_shows_the_standings_documents_rows(client, director):
    """Page, PDF and Excel are one source: the page's rows are the Excel sheet's, cell by cell."""
    call_command("demo", "voms", "--teams", "12", "--pools", "2", "--results", "--seed", "3",
                 "--director", director.username, stdout=io.StringIO())
    demo = Tournament.objects.get(game="voms")
    client.force_login(director)
    html = page(client, demo)
    book = load_workbook(io.BytesIO(render(build(demo, "standings"), "xlsx", tournament=demo)))
    excel = []
    for sheet in book.worksheets[1:]:  # the final ranking comes first
        for values in sheet.iter_rows(min_row=2, values_only=True):
            if all(value in (None, "") for value in values):
                break
            excel.append(values)
    shown = rows(html)
    assert len(shown) == len(excel) == 12
    for cells, values in zip(shown, excel, strict=True):
        rank, team, played, points, wins, lus_for, lus_against, lus_diff = values[:8]
        assert cells[:8] == [str(rank), team, str(played), f"{points:g}", str(wins), str(lus_for),
                             str(lus_against), str(lus_diff)]
    final = [place for place, _team, how in standings.final_ranking(demo) if how == "final"]
    assert final == [1, 2] and "Final ranking" in html
