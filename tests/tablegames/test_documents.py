"""Table-game printouts and exports read back: the PDFs' text, the Excel workbooks against the standings."""

import io
import re
from decimal import Decimal

import pytest
from django.core.management import call_command
from openpyxl import load_workbook
from pypdf import PdfReader

from documents import render
from scoring.games.tablegames.documents import documents
from scoring.games.tablegames.standings import standings
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.pdf_text import page_texts
from tests.tablegames.helpers import enter_rummi_game

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_rummi  # noqa: F401

pytestmark = pytest.mark.django_db


def pdf_pages(tournament, name) -> list[str]:
    data = render(documents(tournament)[name](), "pdf", tournament=tournament)
    return page_texts(data)


def workbook(tournament, name):
    return load_workbook(io.BytesIO(render(documents(tournament)[name](), "xlsx", tournament=tournament)))


def rows_of(sheet) -> list[tuple]:
    return [row for row in sheet.iter_rows(values_only=True)]


def play_round(tournament, director, round_number=1):
    """Every table of the round: two hands, the second ending the game (seat 1 passes the limit)."""
    for table in seated_tables(tournament)[round_number]:
        enter_rummi_game(table, director)


def test_score_sheets_one_page_per_table_prefilled_with_players_and_hands(drawn):
    pages = pdf_pages(drawn, "score-sheets-1")
    tables = seated_tables(drawn)[1]
    assert len(pages) == len(tables) == 3
    for text, table in zip(pages, tables, strict=True):
        assert f"Round 1 · Table {table.number}" in text
        for seat in table.seats:
            assert seat.participant.name in text
            assert re.search(rf"\b{seat.participant.number}\b", text)
        rows = [int(n) for n in re.findall(r"^(\d+)$", text.split("Went out")[-1], flags=re.MULTILINE)]
        assert rows == list(range(1, 13)), "twelve numbered hand rows"
        flat = " ".join(text.split())  # a column title wraps inside its cell
        assert "Penalty points or cards" in flat and "penalty total reaches 250" in flat


def test_a_fixed_number_of_hands_prints_that_many_rows(make_game, add_players, director):
    fives = make_game("domino", "femmer", max_hands=6)
    add_players(fives, 4)
    seated_services.draw_seating(fives, by=director, seed=1)
    (text,) = pdf_pages(fives, "score-sheets-2")
    flat = " ".join(text.split())  # a column title wraps inside its cell
    assert "Points during play" in flat and "Pips left" in flat and "ends after 6 hands" in flat
    rows = [int(n) for n in re.findall(r"^(\d+)$", text.split("Total")[-1], flags=re.MULTILINE)]
    assert rows == list(range(1, 7))


@pytest.mark.parametrize(("key", "variant", "rules", "goal"), [
    ("domino", "femmer", {"max_hands": 3},
     "The game ends after 3 hands, or earlier when a player reaches 100 points; the highest total wins."),
    ("rummi", None, {"max_rounds": 8}, "The game ends after 8 hands, or earlier when a player's penalty total "
                                       "reaches 250; the lowest total wins."),
    ("domino", "blinde", {}, "One hand decides: the finishing order is the result."),
])
def test_the_sheet_says_a_fixed_number_of_hands_ends_the_game_at_the_latest(make_game, add_players, director, key,
                                                                           variant, rules, goal):
    """A game of a fixed number of hands still ends at the target (or penalty limit): the sheet said only "The game
    ends after 3 hands", and a table played on past 100 points to hands the referee table refuses; blind domino's
    one hand read "The game ends after 1 hands"."""
    game = make_game(key, variant, **rules)
    add_players(game, 4)
    seated_services.draw_seating(game, by=director, seed=1)
    (text,) = pdf_pages(game, "score-sheets-1")
    flat = " ".join(text.split())
    assert goal in flat and "1 hands" not in flat


def test_a_patience_result_list_has_every_player_24_to_a_page(make_game, add_players, director):
    patience = make_game("domino_patience", "stop_ved_fem")
    players = add_players(patience, 30)
    seated_services.draw_seating(patience, by=director)
    pages = pdf_pages(patience, "score-sheets-1")
    assert len(pages) == 2 and "page 1 of 2" in pages[0]
    assert all(p.name in "".join(pages) for p in players)
    assert "Tiles left" in pages[0] and "Stop at five" in pages[0]


def test_seating_lists_by_name_and_by_table(drawn):
    (text,) = pdf_pages(drawn, "seating-by-name")
    assert "Seating by name" in text and "Round 3: table" in text
    book = workbook(drawn, "seating-by-table")
    assert book.sheetnames == ["Round 1", "Round 2", "Round 3"]
    body = rows_of(book["Round 1"])
    header = body[0]
    assert header[:4] == ("Table", "Seat", "No.", "Name")
    table_one = {row[3] for row in body[1:] if row[0] == 1}
    assert table_one == {s.participant.name for s in seated_tables(drawn)[1][0].seats}


def test_seating_by_table_keeps_each_tables_seats_on_one_page(make_game, add_players, director):
    """Players look for their table on the wall: 70 players, some 34 rows a page, and no table's seats are cut
    between two pages (they were: the pages were cut by rows alone)."""
    rummi = make_game("rummi", rounds=1)
    add_players(rummi, 70)
    seated_services.draw_seating(rummi, by=director, seed=1)
    pages = [" ".join(text.split()) for text in pdf_pages(rummi, "seating-by-table")]
    assert len(pages) > 2
    tables = {table.number: [seat.number for seat in table.seats] for table in seated_tables(rummi)[1]}
    on_page = [[(int(table), int(seat)) for table, seat in re.findall(r"(\d+) (\d) \d+ Ida", page)] for page in pages]
    assert [row for rows in on_page for row in rows] == [(table, seat) for table in tables for seat in tables[table]]
    for rows in on_page:
        assert all([seat for number, seat in rows if number == table] == tables[table] for table, _seat in rows), rows


def test_standings_pdf_and_excel_read_back_equal_the_standings(drawn, director):
    play_round(drawn, director)
    result = standings(drawn)
    book = workbook(drawn, "standings")
    body = rows_of(book.worksheets[0])
    header = list(body[0])
    assert header[:4] == ["Rank", "No.", "Name", "Club"]
    assert "Tournament points" in header and "Penalty points" in header and "Lot" in header
    points, penalty = header.index("Tournament points"), header.index("Penalty points")
    table_rows = [row for row in body[1:] if isinstance(row[0], int)]
    assert len(table_rows) == 12
    for row, expected in zip(table_rows, result.rows, strict=True):
        assert (row[0], row[1], row[2]) == (expected.rank, expected.participant.number, expected.participant.name)
        assert Decimal(str(row[points])) == expected.values["tournament_points"]
        assert row[penalty] == expected.values["game_score"]
    pages = pdf_pages(drawn, "standings")
    assert "Provisional — after 3 of 9 sheets" in pages[0] and "Final ranking" not in "".join(pages)
    assert all(row.participant.name in "".join(pages) for row in result.rows)


def test_the_results_export_has_every_hand_in_long_format(drawn, director):
    play_round(drawn, director)
    book = workbook(drawn, "results")
    hands = rows_of(book["Every hand"])
    header = hands[0]
    assert header[:6] == ("Round", "Table", "Hand", "Seat", "No.", "Name")
    assert "Penalty points or cards" in header and "Points of the hand" in header and "Running total" in header
    body = hands[1:]
    assert len(body) == 3 * 2 * 4, "3 tables, 2 hands, 4 players"
    typed, points, running = (header.index(name) for name in ("Penalty points or cards", "Points of the hand",
                                                             "Running total"))
    seat_one = [row for row in body if row[3] == 1]
    assert {row[typed] for row in seat_one if row[2] == 1} == {"K Q 7 JOKER A"}
    assert {(row[points], row[running]) for row in seat_one if row[2] == 2} == {(198, 256)}, "hand rummi doubles"


def test_the_export_command_writes_any_document(drawn, tmp_path):
    target = tmp_path / "sheets.pdf"
    call_command("export", drawn.slug, "score-sheets-2", "--output", str(target))
    assert len(PdfReader(str(target)).pages) == 3


def qr_codes(tournament, name, tmp_path) -> list[str]:
    """What the QR codes on the first page of a printout decode to (rendered at 150 dpi, read by zxing-cpp)."""
    import subprocess

    import zxingcpp
    from PIL import Image

    tmp_path.mkdir(exist_ok=True)
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(render(documents(tournament)[name](), "pdf", tournament=tournament))
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / name)],
                   check=True)
    image = Image.open(next(tmp_path.glob(f"{name}*.png")))
    return [result.text for result in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize(("name", "kind"), [
    ("seating-by-name", "schedule"), ("seating-by-table", "schedule"), ("score-sheets-1", "standings"),
])
def test_printouts_carry_a_qr_code_to_their_public_page_once_it_is_published(drawn, name, kind, tmp_path, settings):
    from tournament.public.links import public_url

    settings.PUBLIC_BASE_URL = "http://club.example:8000"
    assert qr_codes(drawn, name, tmp_path / "unpublished") == [], "nothing published: no QR code"
    other = "standings" if kind == "schedule" else "schedule"
    setattr(drawn, f"publish_{other}", True)
    drawn.save()
    assert qr_codes(drawn, name, tmp_path / "other") == [], f"only the {other} published: no QR code"
    setattr(drawn, f"publish_{kind}", True)
    drawn.save()
    decoded = qr_codes(drawn, name, tmp_path / "published")
    assert decoded == [public_url(drawn, kind)] == [f"http://club.example:8000/p/{drawn.slug}/{kind}/"]


def test_a_patience_result_list_leads_to_the_standings_and_its_field_list_to_nothing(
        make_game, add_players, director, tmp_path, settings):
    """A patience has no public seating page, so the list of the field has no QR code even when published."""
    from tournament.public.links import public_url

    settings.PUBLIC_BASE_URL = "http://club.example:8000"
    patience = make_game("domino_patience", "stop_ved_fem")
    add_players(patience, 6)
    seated_services.draw_seating(patience, by=director)
    patience.publish_schedule = patience.publish_standings = True
    patience.save()
    assert qr_codes(patience, "seating-by-name", tmp_path / "field") == []
    assert qr_codes(patience, "score-sheets-1", tmp_path / "list") == [public_url(patience, "standings")]
