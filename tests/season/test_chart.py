"""The season ranking as a picture (tournament/season_documents.py): the top's season points added up evening by
evening, exact, on the director's page, the public page and the PDF's last page."""

import datetime
import re
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.urls import reverse

from tournament.models import Season
from tournament.season_documents import render_season, season_chart, season_progression
from tournament.services import seasons
from tournament.services.seasons import Cell, Evening, SeasonTable


def row(rank, name, cells):
    return SimpleNamespace(rank=rank, person=SimpleNamespace(name=name), cells=cells)


def evenings(*finals):
    return [Evening(number, SimpleNamespace(date=datetime.date(2026, 1, number)), final)
            for number, final in enumerate(finals, start=1)]


TABLE = SeasonTable(season=None, rules=None, evenings=evenings(True, True, True, False), rows=[
    row(1, "Anna", {1: Cell(1, Decimal(90), Decimal(10), counted=True), 2: Cell(5, Decimal(3), Decimal(4)),
                    3: Cell(2, Decimal(60), Decimal(8), counted=True), 4: Cell(1, Decimal(99), provisional=True)}),
    row(2, "Bo", {2: Cell(1, Decimal(80), Decimal(10), counted=True), 3: Cell(3, Decimal(40), Decimal(6),
                                                                                 counted=True)}),
    row(None, "Cem", {1: Cell(2, Decimal(70), Decimal(8), counted=True)}),
])


def test_the_season_points_are_added_up_as_the_ranking_counts_them():
    shown, lines = season_progression(TABLE)
    assert [e.number for e in shown] == [1, 2, 3]  # the provisional evening counts nothing yet
    # Anna's evening 2 was discarded (best of): it adds nothing; Cem has no rank: not drawn
    assert [(line_row.person.name, totals) for line_row, totals in lines] == [
        ("Anna", [Decimal(10), Decimal(10), Decimal(18)]), ("Bo", [Decimal(0), Decimal(10), Decimal(16)])]
    assert [name for name, _totals in [(r.person.name, t) for r, t in season_progression(TABLE, top=1)[1]]] == [
        "Anna"]


def test_no_picture_before_a_final_evening():
    table = SeasonTable(season=None, rules=None, evenings=evenings(False), rows=[row(None, "Anna", {})])
    assert season_chart(table) is None
    chart = season_chart(TABLE)
    assert [series.name for series in chart.series] == ["1. Anna", "2. Bo"]
    assert chart.x_labels[0].startswith("1: ") and len(chart.x_labels) == 3
    assert chart.axis_labels == ["1", "2", "3"]  # short under the axis, the dates in the table


@pytest.fixture
def season(director):
    return seasons.create_season(by=director, name="Season 2026", game="schafkopf", scoring=Season.Scoring.PLACES,
                                 place_points=["10", "8", "6", "5", "4", "3", "2", "1"], best_of=2)


def test_the_season_pages_and_the_pdf_carry_the_picture(client, director, season, evening, names):
    from tests.pdf_text import page_texts

    for day, seed in ((10, 1), (17, 2), (24, 3)):
        evening(day, names, season=season, seed=seed)
    table = seasons.season_table(season)
    top = [r for r in table.rows if r.rank is not None][:8]
    client.force_login(director)
    page = client.get(season.get_absolute_url()).content.decode()
    chart = page[page.index('<figure class="chart" id="season-chart">'):page.index("</figure>")]
    assert "Season points evening by evening" in chart and chart.count("<polyline") == 8
    # the last evening's running total is the ranking's total
    last = re.findall(r'<tr><th scope="row">(.*?)</th>(?:<td class="num">[^<]*</td>){2}<td class="num">([^<]*)</td>',
                      chart)
    assert last == [(f"{r.rank}. {r.person.name}", str(r.total)) for r in top]

    client.post(season.get_absolute_url(), {"action": "publish"})
    client.logout()
    public = client.get(reverse("public:season", args=[season.slug])).content.decode()
    assert 'id="season-chart"' in public and "Show the numbers" in public

    pages = page_texts(render_season(season, "pdf"))  # in the season's language
    assert season.language == "de" and "Saisonpunkte Abend für Abend" in pages[-1]
    assert all("Saisonpunkte Abend für Abend" not in text for text in pages[:-1])
