"""Provisional standings say so everywhere; "Final ranking" and the prizes only once every result is in."""

import io
from decimal import Decimal

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation

from documents import render
from scoring.games.schafkopf.documents import ranking_document
from scoring.games.schafkopf.standings import standings
from scoring.seated.queries import seated_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_prizes(drawn):
    drawn.entry_fee = Decimal("10.00")
    drawn.settings = {**drawn.settings, "prizes": [{"kind": "percent", "value": "50"}]}
    drawn.save()
    return drawn


def _enter(tournament, director, a_list, tables):
    from scoring.games.schafkopf import services

    for index, table in enumerate(tables):
        entries = a_list(30, table.size, seed=index)
        services.enter_sheet(table.seats[0].table, by=director, mode="games", entries=entries)


def test_schafkopf_provisional_heading_unranked_players_and_no_prizes(with_prizes, director, a_list, client):
    round_one = seated_tables(with_prizes)[1]
    _enter(with_prizes, director, a_list, round_one[:1])
    result = standings(with_prizes)
    assert not result.final and result.prizes is None
    document = ranking_document(with_prizes, result=result)
    assert str(document.title) == "Provisional — after 1 of 8 score lists"
    rows = document.row_dicts()
    seated_first = {seat.participant.number for seat in round_one[0].seats}
    ranked = [row for row in rows if row["rank"] is not None]
    waiting = [row for row in rows if row["rank"] is None]
    assert {row["number"] for row in ranked} == seated_first
    assert len(waiting) == 12
    assert all(row.get("lot", "") == "" and str(row["remark"]) == "no result yet" for row in waiting)
    assert all(row.get("prize") is None for row in rows)

    client.force_login(director)
    page = client.get(reverse("tournament:schafkopf:standings", args=[with_prizes.slug])).content.decode()
    assert "Provisional — after 1 of 8 score lists" in page and "Final ranking" not in page
    workbook = openpyxl.load_workbook(io.BytesIO(render(document, "xlsx", tournament=with_prizes)))
    texts = [cell.value for row in workbook.active.iter_rows() for cell in row if isinstance(cell.value, str)]
    assert "Provisional — after 1 of 8 score lists" in texts and "Final ranking" not in texts


def test_schafkopf_final_ranking_once_every_list_is_in(with_prizes, director, a_list):
    _enter(with_prizes, director, a_list, [t for tables in seated_tables(with_prizes).values() for t in tables])
    result = standings(with_prizes)
    assert result.final and result.prizes is not None
    assert str(ranking_document(with_prizes, result=result).title) == "Final ranking"
    assert all(row.rank is not None for row in result.rows)


def test_schafkopf_heading_in_german_and_danish(drawn, director, a_list):
    _enter(drawn, director, a_list, seated_tables(drawn)[1][:3])
    title = ranking_document(drawn).title
    with translation.override("de"):
        assert str(title) == "Vorläufig — nach 3 von 8 Punktelisten"
    with translation.override("da"):
        assert str(title) == "Foreløbig — efter 3 af 8 pointsedler"


def test_schafkopf_after_round_heading(drawn, director, a_list):
    _enter(drawn, director, a_list, seated_tables(drawn)[1][:2])
    title = ranking_document(drawn, after_round=1).title
    assert str(title) == "Standings after round 1 — provisional, after 2 of 4 score lists"


def test_final_ranking_notes_write_money_as_the_language_does(with_prizes, director, a_list):
    _enter(with_prizes, director, a_list, [t for tables in seated_tables(with_prizes).values() for t in tables])
    notes = ranking_document(with_prizes).notes
    with translation.override("de"):
        takings = [str(note) for note in notes if "160" in str(note)]
        assert takings and "160,00" in takings[0] and "160.00" not in takings[0]
