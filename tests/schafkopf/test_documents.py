"""Schafkopf printouts and exports read back: the PDFs' text, the Excel workbook against the page."""

import io
import itertools
import re
from decimal import Decimal, InvalidOperation
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from documents import render
from scoring.games.schafkopf.documents import documents
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.pdf_text import page_texts

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401

pytestmark = pytest.mark.django_db


def pdf_pages(tournament, name) -> list[str]:
    data = render(documents(tournament)[name](), "pdf", tournament=tournament)
    return page_texts(data)


def test_score_lists_one_page_per_table_prefilled(drawn):
    pages = pdf_pages(drawn, "score-lists-1")
    tables = seated_tables(drawn)[1]
    assert len(pages) == len(tables) == 4
    for text, table in zip(pages, tables, strict=True):
        assert f"table {table.number}" in text and "round 1" in text
        for seat in table.seats:
            assert seat.participant.last_name in text and seat.participant.first_name in text
            assert re.search(rf"\b{seat.participant.number}\b", text)
        rows = [int(n) for n in re.findall(r"^(\d+)$", text, flags=re.MULTILINE)]
        assert rows == list(range(1, 31)), "30 numbered game rows"
        assert "Totals (must add up to 0)" in text and "Supervision" in text and "Seat 1:" in text


def test_a_five_table_list_has_forty_rows(schafkopf, director, add_players):

    add_players(schafkopf, 17)
    seated_services.draw_seating(schafkopf, by=director, seed=4)
    pages = pdf_pages(schafkopf, "score-lists-2")
    assert len(pages) == 4
    five = [text for text in pages if "Seat 5" in text]
    assert len(five) == 1
    rows = [int(n) for n in re.findall(r"^(\d+)$", five[0], flags=re.MULTILINE)]
    assert rows == list(range(1, 41))
    assert "The dealer sits out" in five[0]


def test_seating_lists_and_cards_name_everyone_with_the_seed(drawn):
    players = list(drawn.participants.all())
    for name in ("seating-by-name", "seating-by-table", "participant-cards", "table-cards"):
        text = "\n".join(pdf_pages(drawn, name))
        assert all(p.last_name in text for p in players), name
        if name != "participant-cards":
            assert "seed 7" in text, name


def sixty_long_names(schafkopf, director):
    from tournament.services.participants import add_participant

    for number in range(1, 61):
        add_participant(schafkopf, by=director, number=number, first_name="Maximilian Alexander",
                        last_name=f"Oberhuber-Schmidt{number:02}",
                        club=f"Schafkopffreunde Niederbayern e.V. {number:02}")
    seated_services.draw_seating(schafkopf, by=director, seed=4)


def test_seating_lists_of_sixty_long_names_keep_each_row_on_one_page(schafkopf, director):
    """40-character names and clubs take two lines a row: no row is cut between two pages (its number on one,
    its name on the next), and no page runs over and leaves the next half empty."""
    sixty_long_names(schafkopf, director)
    for name in ("seating-by-name", "seating-by-table"):
        pages = [" ".join(text.split()) for text in pdf_pages(schafkopf, name)]
        rows = [[int(number) for number in re.findall(r"Oberhuber-Schmidt(\d\d),", page)] for page in pages]
        for page, numbers in zip(pages, rows, strict=True):
            for number in numbers:
                row = f"Oberhuber-Schmidt{number:02}, Maximilian Alexander {number} Schafkopffreunde Niederbayern e.V."
                assert row in page, (name, number)
        fullest = max(len(numbers) for numbers in rows)
        sections = [index for index, page in enumerate(pages) if "Oberhuber-Schmidt01," in page]  # a round each
        lasts = {index - 1 for index in sections[1:]} | {len(pages) - 1}
        full = [len(numbers) >= fullest - 4 for index, numbers in enumerate(rows) if index not in lasts]
        assert all(full), (name, rows)  # no page ran over onto the next


@pytest.mark.parametrize("name", ["seating-by-table", "standings"])
def test_a_tables_seats_are_never_cut_between_two_pages(schafkopf, director, name):
    """Players look for their table on the wall, and a table's four results are checked together: no table's
    seats are cut between two pages (the pages were cut by rows alone: page 1 ended with table 5's seat 1)."""
    sixty_long_names(schafkopf, director)
    pages = [" ".join(text.split()) for text in pdf_pages(schafkopf, name)]
    assert len(pages) > 3  # 60 two-line rows a round: each round takes pages
    rows = [(int(table), int(seat), index) for index, page in enumerate(pages)
            for table, seat in re.findall(r"(\d+) (\d) \d+ Maximilian", page)]
    runs = [list(run) for _table, run in itertools.groupby(rows, key=lambda row: row[0])]  # a table of a round each
    expected = [table for tables in seated_tables(schafkopf).values() for table in tables]
    assert [run[0][0] for run in runs] == [table.number for table in expected]
    for run in runs:
        assert [seat for _table, seat, _page in run] == [1, 2, 3, 4], run
        assert len({page for _table, _seat, page in run}) == 1, run


def test_printouts_are_in_the_tournaments_language(drawn):
    drawn.language = "de"
    drawn.save()
    text = pdf_pages(drawn, "ranking")[0]
    assert "Punkte" in text and "Points" not in text
    assert "Dezember 2026" in text


class CellReader(HTMLParser):
    """The text of every body cell of the standings table, row by row."""

    def __init__(self):
        super().__init__()
        self.rows, self.cell, self.inside = [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "table" and "sk-standings" in (dict(attrs).get("class") or ""):
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif tag == "td" and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def same(page_text: str, excel_value) -> bool:
    if excel_value is None:
        return page_text == ""
    try:
        return Decimal(page_text.replace(",", "")) == Decimal(str(excel_value))
    except InvalidOperation:
        return page_text == str(excel_value)


def test_excel_ranking_equals_the_page(drawn, director, client, enter_all):
    enter_all(drawn)
    client.force_login(director)
    reader = CellReader()
    reader.feed(client.get(reverse("tournament:schafkopf:standings", args=[drawn.slug])).content.decode())
    page_rows = [row for row in reader.rows if row]
    assert len(page_rows) == 16
    data = client.get(reverse("tournament:schafkopf:download", args=[drawn.slug, "standings", "xlsx"])).content
    book = load_workbook(io.BytesIO(data), read_only=True)
    assert book.sheetnames == ["Final ranking", "Round 1", "Round 2"]  # the ranking first, as handed over
    excel_rows = list(book["Final ranking"].iter_rows(values_only=True))
    header, body = excel_rows[0], excel_rows[1:17]
    assert header[:4] == ("Rank", "No.", "Name", "Club")
    for page_row, excel_row in zip(page_rows, body, strict=True):
        assert len(page_row) == len(excel_row)
        assert all(same(text, value) for text, value in zip(page_row, excel_row, strict=True)), (page_row, excel_row)
    round_one = list(book["Round 1"].iter_rows(values_only=True))
    assert len([row for row in round_one[1:] if row and row[0]]) == 16


def test_results_workbook_has_every_game(drawn, enter_all, tmp_path):
    enter_all(drawn)
    output = tmp_path / "results.xlsx"
    call_command("export", drawn.slug, "results", "--format", "xlsx", "--output", str(output))
    book = load_workbook(output, read_only=True)
    assert book.sheetnames == ["Round 1", "Round 2", "Final ranking", "Games"]
    header, *rest = book["Games"].iter_rows(values_only=True)
    games = [row for row in rest if isinstance(row[0], int)]  # the notes follow a blank row
    assert len(games) == 8 * 30
    assert header[:7] == ("Round", "Table", "Game", "Game type", "Declarer (no.)", "Partner (no.)", "Outcome")
    assert {row[0] for row in games} == {1, 2}
    for row in games:
        points = row[7:11]
        assert sum(points) == 0 and None not in points


def test_export_command_writes_standings_pdf_and_xlsx(drawn, enter_all, tmp_path):
    enter_all(drawn)
    for file_format in ("pdf", "xlsx"):
        output = tmp_path / f"standings.{file_format}"
        call_command("export", drawn.slug, "standings", "--format", file_format, "--output", str(output))
        assert output.stat().st_size > 1000
    text = "\n".join(page_texts(tmp_path / "standings.pdf"))
    assert "Final ranking" in text and "Round 2" in text
    for participant in drawn.participants.all():
        assert participant.name in text


def test_seating_lists_carry_the_public_qr_once_published(director, make_tournament):
    from scoring.games.schafkopf.documents import seating_by_table
    from tournament.services.publishing import set_publication

    t = make_tournament(director, name="QR Schafkopf", game="schafkopf")
    assert seating_by_table(t).qr_page is None
    set_publication(t, by=director, kinds=["schedule"])
    t.refresh_from_db()
    assert seating_by_table(t).qr_page == "schedule"


def test_a_substitute_is_named_in_the_tournaments_language(drawn, director, add_players):
    """A German tournament printed from an English screen: the seat played by a substitute reads German too."""
    from django.utils import translation

    from tournament.models import Seat

    drawn.language = "de"
    drawn.save()
    (late,) = add_players(drawn, 1, start=40)
    seat = Seat.objects.filter(table__round__stage__tournament=drawn, table__round__number=2).first()
    seated_services.set_substitute(seat, late, by=director, reason="ill")
    for name in ("seating-by-table", "standings"):
        with translation.override("en"):
            text = " ".join(" ".join(pdf_pages(drawn, name)).split())
        assert f"{seat.participant.name}, gespielt von {late.name}" in text, name
        assert "played by" not in text, name
