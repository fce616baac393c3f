"""The document layer: one document, rendered to PDF, Excel and a web table, read back and checked."""

import dataclasses
import datetime
import io
import itertools
import re
import zipfile
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy
from openpyxl import load_workbook
from pypdf import PdfReader

from documents import Column, MultiSheetDocument, PrintDocument, TableDocument, formats_for, render
from documents.base import format_value
from documents.html import bind_table, table_for
from documents.pdf import (
    FEWEST_ROWS_ON_A_PAGE,
    PORTRAIT_TEXT_WIDTH_MM,
    column_percentages,
    css_string,
    formatted_row,
    height_chunks,
    render_pdf,
    render_pdf_pages,
    render_tables_fragment,
    text_width,
)
from documents.pdf_writer import LocalFileFetcher
from documents.xlsx import render_xlsx, sheet_titles
from scoring.games import game_of
from tests.pdf_text import page_texts

pytestmark = pytest.mark.django_db

COLUMNS = [
    Column("rank", gettext_lazy("Rank"), "int"),
    Column("name", gettext_lazy("Team")),
    Column("points", gettext_lazy("Points"), "decimal"),
    Column("since", gettext_lazy("Since"), "date"),
]
HOSTILE = '=HYPERLINK("http://evil.example","click")'


def standings(rows=None, **options) -> TableDocument:
    rows = rows if rows is not None else [
        (1, "Die Buben", Decimal("2.5"), datetime.date(2026, 1, 17)),
        {"rank": 2, "name": "<b>Kiel</b> & Co", "points": Decimal(2), "since": None},
    ]
    options.setdefault("notes", ["* decided by lot"])
    return TableDocument("Pool A standings", COLUMNS, rows, subtitle="After round 3", filename_stem="pool-a", **options)


def many_rows(count: int) -> list[tuple]:
    return [(n, f"Team {n:03}", Decimal(n) / 2, datetime.date(2026, 1, 17)) for n in range(1, count + 1)]


def pdf_pages(data: bytes) -> list[str]:
    """Each page's text with whitespace collapsed."""
    return [" ".join(text.split()) for text in page_texts(data)]


def workbook(data: bytes):
    return load_workbook(io.BytesIO(data))


@pytest.fixture
def print_templates(settings, tmp_path):
    """Page templates written for the test, found by the template engine."""
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": [*engine["DIRS"], tmp_path]}]

    def write(name: str, text: str) -> str:
        (tmp_path / name).write_text(text)
        return name

    return write


# --- PDF ----------------------------------------------------------------------------------------


def test_pdf_has_title_column_titles_and_values(tournament):
    (page,) = pdf_pages(render_pdf(standings(), tournament=tournament))
    assert "Pool A standings" in page and "After round 3" in page
    assert "Rank Team Points Since" in page
    assert "1 Die Buben 2.5 17 Jan 2026" in page  # never the US 01/17/2026 (config/formats/en)
    assert "<b>Kiel</b> & Co" in page  # a name is text, never markup
    assert "* decided by lot" in page


def test_pdf_has_running_header_and_footer(director, make_tournament):
    tournament = make_tournament(director, name="Nordic Open", venue="Kulturhaus Flensburg")
    (page,) = pdf_pages(render_pdf(standings(), tournament=tournament))
    assert "Nordic Open" in page and "Kulturhaus Flensburg" in page
    assert "Dec. 5, 2026" in page  # the tournament's date
    assert "Page 1 of 1" in page
    assert "Printed " in page


@pytest.mark.parametrize(("language", "month"), [("de", "Januar"), ("da", "januar"), ("en", "Jan.")])
def test_pdf_is_in_the_tournaments_language_whatever_the_screen_language(director, make_tournament, language, month):
    tournament = make_tournament(director, date=datetime.date(2027, 1, 9), language=language)
    screen = "da" if language == "de" else "de"
    with translation.override(screen):
        (page,) = pdf_pages(render_pdf(standings(), tournament=tournament))
        assert translation.get_language() == screen  # the screen's language is left alone
    assert month in page
    decimal_point = "." if language == "en" else ","
    assert f"Die Buben 2{decimal_point}5" in page


def test_pdf_embeds_the_local_fonts(tournament):
    reader = PdfReader(io.BytesIO(render_pdf(standings(), tournament=tournament)))
    fonts = {str(font.get_object()["/BaseFont"]) for font in reader.pages[0]["/Resources"]["/Font"].values()}
    assert any(name.endswith("Print-Sans") for name in fonts), fonts
    assert any(name.endswith("Print-Sans-Bold") for name in fonts), fonts


def test_long_table_is_cut_into_one_table_per_page_with_the_header_repeated(tournament):
    document = standings(many_rows(110))
    rows = [formatted_row(COLUMNS, values) for values in document.row_values()]
    widths = column_percentages(COLUMNS, [rows], landscape=False)
    chunks, _flow, _room = height_chunks(document, rows, widths, landscape=False, titled=False)
    pages = pdf_pages(render_pdf(document, tournament=tournament))
    assert len(pages) == len(chunks) == 4  # each chunk fits its page: none spills over
    for page in pages:
        assert "Rank Team Points Since" in page
    counts = [len(re.findall(r"Team \d{3}", page)) for page in pages]
    assert counts == [len(chunk) for chunk in chunks]
    assert counts[0] >= 28 and counts[1] >= 32  # one-line rows fill the pages
    assert "Team 110" in pages[3] and "* decided by lot" in pages[3]
    assert "Page 4 of 4" in pages[3]


PLAYER_COLUMNS = [
    Column("rank", gettext_lazy("Rank"), "int"),
    Column("name", gettext_lazy("Player")),
    Column("club", gettext_lazy("Club")),
    Column("points", gettext_lazy("Points"), "decimal"),
]


@pytest.mark.parametrize("landscape", [False, True], ids=["portrait", "landscape"])
def test_rows_whose_names_wrap_are_never_split_across_pages_nor_leave_a_page_half_empty(tournament, landscape):
    # 60 players of a Schafkopf evening with 40-character names and clubs: every row takes two lines or more
    rows = [(n, f"Maximilian Alexander Oberhuber-Schmidt N{n:02}", f"Schafkopffreunde Niederbayern e.V. C{n:02}",
             Decimal(60 - n)) for n in range(1, 61)]
    document = TableDocument("Standings", PLAYER_COLUMNS, rows, subtitle="After round 3", notes=["* decided by lot"],
                             filename_stem="standings", landscape=landscape)
    pages = pdf_pages(render_pdf(document, tournament=tournament))
    on_page = [[int(number) for number in re.findall(r"N(\d\d)", page)] for page in pages]
    assert [number for page in on_page for number in page] == list(range(1, 61))
    for page, numbers in zip(pages, on_page, strict=True):
        assert "Rank Player Club Points" in page
        # a row split across two pages leaves its rank or the first line of its name on one page, the rest on the next
        assert page.count("Maximilian") == len(numbers) == len(re.findall(r"C\d\d", page)), page
        assert all(re.search(rf"(^| ){number} Maximilian", page) for number in numbers), page
    fullest = max(len(numbers) for numbers in on_page)
    assert all(len(numbers) >= fullest - 4 for numbers in on_page[:-1]), on_page  # none ran over onto the next
    assert "* decided by lot" in pages[-1] and f"Page {len(pages)} of {len(pages)}" in pages[-1]


SEAT_COLUMNS = [Column("table", "Table", "int"), Column("seat", "Seat", "int"), Column("name", "Name")]


def seating(tables: int, seats: int, **options) -> TableDocument:
    rows = [(table, seat, f"Player T{table:02}S{seat}") for table in range(1, tables + 1)
            for seat in range(1, seats + 1)]
    return TableDocument("Round 1", SEAT_COLUMNS, rows, filename_stem="seating", keep_together="table", **options)


def chunk_tables(document: TableDocument) -> list[list[int]]:
    """Each page's table numbers, one a row, as `height_chunks` cuts them."""
    rows = [formatted_row(document.columns, values) for values in document.row_values()]
    widths = column_percentages(document.columns, [rows], landscape=False)
    chunks, _flow, _room = height_chunks(document, rows, widths, landscape=False, titled=False)
    return [[int(row[0]["text"]) for row in chunk] for chunk in chunks]


def test_rows_kept_together_are_never_cut_between_two_pages(tournament):
    # 72 players at 18 tables, some 34 one-line rows a page: page 2 ended with table 17's seats 1 and 2
    document = seating(18, 4, notes=["Seat 1 is the scribe."])
    pages = pdf_pages(render_pdf(document, tournament=tournament))
    on_page = [re.findall(r"T(\d\d)S(\d)", page) for page in pages]
    assert len(pages) == 3
    everyone = [(f"{table:02}", str(seat)) for table in range(1, 19) for seat in range(1, 5)]
    assert [seat for page in on_page for seat in page] == everyone
    for seats in on_page:
        tables = {table for table, _seat in seats}
        assert all([seat for table_, seat in seats if table_ == table] == ["1", "2", "3", "4"] for table in tables)
    assert "Seat 1 is the scribe." in pages[-1]


@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("tables", range(8, 40, 3))
def test_page_cutting_keeps_groups_whole_with_the_notes_and_a_short_last_page(tables, seats):
    for notes in ([], ["A note. " * 40]):
        pages = chunk_tables(seating(tables, seats, notes=notes))
        assert [table for page in pages for table in page] == [t for t in range(1, tables + 1) for _ in range(seats)]
        for before, after in itertools.pairwise(pages):
            assert before[-1] != after[0], pages  # a table's seats all on one page
        assert all(len(page) >= FEWEST_ROWS_ON_A_PAGE for page in pages[1:] if len(pages) > 1), pages


def test_a_group_taller_than_a_page_is_still_cut():
    pages = chunk_tables(seating(1, 150))
    assert len(pages) > 2 and sum(len(page) for page in pages) == 150


def test_double_names_are_counted_as_they_wrap_after_their_hyphen(tournament):
    # a crowded page of four names a row: "Mühlenbach-Großkopf" wraps after its hyphen, so "Großkopf Ææ" takes
    # a line of its own; counted as one long word broken anywhere, the rows came out a line short and every
    # page ran over onto the next
    columns = [Column("rank", "Rank", "int"), *(Column(f"player{n}", f"Player {n}") for n in range(1, 5)),
               Column("points", "Points", "decimal")]
    names = ["Mühlenbach-Großkopf Ææ von", "Mühlenbach-Großkopf Jürgensen Mühlenbach-Großkopf von Hold",
             "Hold WWWWWW Mühlenbach-Großkopf e.V. e.V."]
    rows = [(n, *(names[(n + seat) % 3] for seat in range(4)), Decimal(n)) for n in range(1, 46)]
    document = TableDocument("Tables", columns, rows, filename_stem="tables")
    pages = pdf_pages(render_pdf(document, tournament=tournament))
    tables = render_tables_fragment(document).count("<table")
    assert len(pages) == tables > 1  # each page's table fits the page: none ran over onto the next
    assert all("Rank Player 1 Player 2 Player 3 Player 4 Points" in page for page in pages)


def test_empty_table_still_prints_its_header_and_notes(tournament):
    (page,) = pdf_pages(render_pdf(standings([], notes=["No games yet."]), tournament=tournament))
    assert "Rank Team Points Since" in page and "No games yet." in page


def test_landscape_table_gets_landscape_pages(tournament):
    reader = PdfReader(io.BytesIO(render_pdf(standings(many_rows(50), landscape=True), tournament=tournament)))
    box = reader.pages[0].mediabox
    assert box.width > box.height
    assert len(reader.pages) == 3  # 19 one-line rows under the title, then 22 a page


def test_multi_sheet_pdf_has_a_section_per_sheet(tournament):
    document = MultiSheetDocument(
        "Standings", [standings(), dataclasses.replace(standings(), title="Pool B standings")], filename_stem="all"
    )
    pages = pdf_pages(render_pdf(document, tournament=tournament))
    assert len(pages) == 2
    assert "Standings" in pages[0] and "Pool A standings" in pages[0]
    assert "Pool B standings" in pages[1] and "Die Buben" in pages[1]


def test_print_document_with_n_page_contexts_gives_n_pages(tournament, print_templates):
    template = print_templates("slip.html", "{% if first %}<p>FIRST</p>{% endif %}<h1>Table {{ table }}/{{ of }}</h1>")
    document = PrintDocument(template, {"of": 7}, "Slips", "slips", pages=[{"table": n} for n in range(1, 8)])
    pages = pdf_pages(render_pdf(document, tournament=tournament))
    assert len(pages) == 7
    assert all(f"Table {n}/7" in page for n, page in enumerate(pages, start=1))
    assert "FIRST" in pages[0] and not any("FIRST" in page for page in pages[1:])
    assert "Page 7 of 7" in pages[6]


def test_print_document_breaks_pages_where_its_template_says(tournament, print_templates):
    template = print_templates("cards.html", '{% for n in numbers %}<div class="page">Card {{ n }}</div>{% endfor %}')
    document = PrintDocument(template, {"numbers": [1, 2, 3]}, "Cards", "cards")
    pages = pdf_pages(render_pdf(document, tournament=tournament))
    assert len(pages) == 3
    assert [[f"Card {n}" in page for n in (1, 2, 3)] for page in pages] == [
        [True, False, False], [False, True, False], [False, False, True]
    ]


def test_render_pdf_pages_makes_one_page_per_context(tournament, print_templates):
    template = print_templates("list.html", "<table><tr><td>List {{ n }}</td></tr></table>")
    pages = pdf_pages(render_pdf_pages(template, [{"n": n} for n in range(5)], tournament=tournament))
    assert [f"List {n}" in page for n, page in enumerate(pages)] == [True] * 5


def test_a_crowded_page_squeezes_names_never_numbers():
    columns = [Column(f"name{n}", f"Name {n}") for n in range(4)] + [Column("lus", "Lus", "int")]
    names = ["Kristian Møller-Christiansen & Pipaluk Kleist-Berthelsen"] * 4
    table = TableDocument("T", columns, [(*names, -123)], filename_stem="t")
    rows = [formatted_row(columns, values) for values in table.row_values()]
    percentages = column_percentages(columns, [rows], landscape=False)
    lus_mm = percentages[-1] / 100 * PORTRAIT_TEXT_WIDTH_MM
    assert lus_mm >= text_width("-123") + 4  # the digits and the cell's padding
    assert sum(percentages) == pytest.approx(100, abs=0.1)
    assert percentages[0] == percentages[3] > percentages[-1]


def test_fetcher_loads_static_files_and_refuses_everything_else(settings, tmp_path):
    fetcher = LocalFileFetcher(settings.BASE_DIR / "static")
    assert fetcher.fetch((settings.BASE_DIR / "static" / "print" / "print.css").as_uri()).read()
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    for url in ("http://example.com/font.ttf", "https://example.com/a.css", outside.as_uri(), "data:text/css,a{}"):
        with pytest.raises(ValueError, match="refused"):
            fetcher.fetch(url)
    escaping = (settings.BASE_DIR / "static").as_uri() + "/../config/settings.py"
    with pytest.raises(ValueError, match="outside"):
        fetcher.fetch(escaping)


def test_css_string_cannot_break_out_of_the_style_element():
    literal = css_string('Seite "1" </style><script>')
    assert literal.startswith('"') and literal.endswith('"')
    assert '"' not in literal[1:-1] and "<" not in literal and ">" not in literal


# --- Excel --------------------------------------------------------------------------------------


def test_xlsx_has_bold_header_frozen_below_it_and_typed_cells(tournament):
    sheet = workbook(render_xlsx(standings(), tournament=tournament)).active
    assert [cell.value for cell in sheet[1]] == ["Rank", "Team", "Points", "Since"]
    assert all(cell.font.b for cell in sheet[1])
    assert sheet.freeze_panes == "A2"
    rank, name, points, since = sheet[2]
    assert rank.value == 1 and rank.data_type == "n"
    assert points.value == 2.5 and points.data_type == "n"
    assert since.value == datetime.datetime(2026, 1, 17) and since.is_date and "yy" in since.number_format
    assert sheet["B3"].value == "<b>Kiel</b> & Co" and sheet["D3"].value is None


def test_xlsx_writes_notes_below_the_table(tournament):
    sheet = workbook(render_xlsx(standings(), tournament=tournament)).active
    assert sheet["A4"].value is None
    assert [sheet["A5"].value, sheet["A6"].value] == ["After round 3", "* decided by lot"]


def test_xlsx_stores_formula_looking_names_as_text(tournament):
    rows = [(1, HOSTILE, Decimal(1), None), (2, "+49 461 123", Decimal(0), None), (3, "#N/A", Decimal(0), None)]
    data = render_xlsx(standings(rows), tournament=tournament)
    sheet = workbook(data).active
    assert [sheet[f"B{row}"].value for row in (2, 3, 4)] == [HOSTILE, "+49 461 123", "#N/A"]
    assert all(sheet[f"B{row}"].data_type == "s" for row in (2, 3, 4))
    assert sheet["B2"].quotePrefix  # Excel keeps it text even when the cell is edited
    xml = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in xml and "<f " not in xml


def test_xlsx_drops_control_characters_instead_of_failing(tournament):
    sheet = workbook(render_xlsx(standings([(1, "Bell\x07 Team", Decimal(1), None)]), tournament=tournament)).active
    assert sheet["B2"].value == "Bell Team"


def test_xlsx_column_widths_follow_the_content_or_the_column(tournament):
    columns = [Column("rank", "Rank", "int", width=4), *COLUMNS[1:]]
    document = TableDocument("T", columns, [(1, "A rather long team name from Flensburg", Decimal(1), None)],
                             filename_stem="t")
    sheet = workbook(render_xlsx(document, tournament=tournament)).active
    assert sheet.column_dimensions["A"].width == 4
    assert sheet.column_dimensions["B"].width >= len("A rather long team name from Flensburg")


def test_xlsx_multi_sheet_has_a_sheet_per_table_with_valid_titles(director, make_tournament):
    tournament = make_tournament(director, language="de")
    sheets = [dataclasses.replace(standings(), title=title) for title in ("Pool: A/B", "Pool: A/B", "x" * 40, "")]
    book = workbook(render_xlsx(MultiSheetDocument("All", sheets, filename_stem="all"), tournament=tournament))
    assert book.sheetnames == ["Pool A B", "Pool A B (2)", "x" * 30 + "…", "Tabelle"]  # an untitled sheet, in German
    assert book["Pool A B (2)"]["A1"].value == "Rang"


def test_xlsx_keeps_text_exactly_and_types_every_value(tournament):
    columns = [Column("a", "A"), Column("b", "B", "int"), Column("c", "C", "date"), Column("d", "D", align="right")]
    moment = datetime.datetime(2026, 1, 17, 14, 30)
    rows = [("  two spaces ", True, moment, "Tom & Jerry <3>"), ("line\r\nbreak", 2**40, None, "ÆØÅ ß 😀"),
            ("-1", -7, None, '"quoted" \'single\'')]
    document = TableDocument('Pool "A" & <B>', columns, rows, filename_stem="t")
    book = workbook(render_xlsx(document, tournament=tournament))
    sheet = book.active
    assert book.sheetnames == ['Pool "A" & <B>'] and book.properties.title == 'Pool "A" & <B>'
    assert [[cell.value for cell in row] for row in sheet.iter_rows(min_row=2, max_row=4)] == [
        ["  two spaces ", True, moment, "Tom & Jerry <3>"], ["line\r\nbreak", 2**40, None, "ÆØÅ ß 😀"],
        ["-1", -7, None, '"quoted" \'single\''],
    ]
    assert sheet["C2"].is_date and "h:mm" in sheet["C2"].number_format  # the language's date and time format
    assert sheet["A4"].data_type == "s" and sheet["A4"].quotePrefix and not sheet["A2"].quotePrefix
    assert sheet["D2"].alignment.horizontal == "right" and sheet["D1"].alignment.horizontal == "right"


def test_xlsx_of_an_empty_table_has_its_header_and_notes(tournament):
    sheet = workbook(render_xlsx(standings([], notes=["No games yet."]), tournament=tournament)).active
    assert [cell.value for cell in sheet[1]] == ["Rank", "Team", "Points", "Since"]
    assert [sheet["A3"].value, sheet["A4"].value] == ["After round 3", "No games yet."]


def test_sheet_titles_are_unique_ignoring_case_and_never_too_long():
    long_title = "Final ranking of the Nordic Open 2026"
    titles = sheet_titles([long_title, long_title.upper(), "'quoted'"])
    assert titles[0] == "Final ranking of the Nordic…"  # whole words, marked as cut
    assert titles[1] == "FINAL RANKING OF THE… (2)"
    assert titles[2] == "quoted"
    assert all(len(title) <= 31 for title in titles)


def test_a_provisional_heading_as_sheet_title_is_cut_after_a_whole_word():
    """"Provisional — after 1 of 10 sco" read as a word of its own (seen on a walk)."""
    assert sheet_titles(["Provisional — after 1 of 10 score lists"]) == ["Provisional — after 1 of 10…"]
    assert sheet_titles(["Vorläufig — nach 0 von 8 Punktelisten"]) == ["Vorläufig — nach 0 von 8…"]
    assert sheet_titles(["Standings"]) == ["Standings"] and sheet_titles(["x" * 40]) == ["x" * 30 + "…"]


def test_xlsx_titles_are_in_the_tournaments_language(director, make_tournament):
    tournament = make_tournament(director, language="de")
    document = TableDocument(gettext_lazy("January"), [Column("m", gettext_lazy("March"))], [("x",)], filename_stem="m")
    book = workbook(render_xlsx(document, tournament=tournament))
    assert book.sheetnames == ["Januar"] and book.active["A1"].value == "März"


def test_print_documents_are_pdf_only(tournament):
    slips = PrintDocument("documents/table.html", {}, "Slips", "slips")
    assert formats_for(slips) == ("pdf",) and formats_for(standings()) == ("pdf", "xlsx")
    with pytest.raises(TypeError):
        render_xlsx(slips, tournament=tournament)
    with pytest.raises(ValueError):
        render(slips, "xlsx", tournament=tournament)


# --- Screen -------------------------------------------------------------------------------------


def test_web_table_has_the_documents_columns_and_formatted_cells(rf):
    document = standings()
    table_class = table_for(document)
    assert [str(column.verbose_name) for column in table_class.base_columns.values()] == [
        "Rank", "Team", "Points", "Since"
    ]
    with translation.override("de"):
        html = render_to_string(
            "documents/table.html", {"document": document, "table": bind_table(document)}, request=rf.get("/")
        )
    assert "Pool A standings" in html and "* decided by lot" in html
    assert '<td class="num">2,5</td>' in html  # the same formatting as the PDF
    assert "17.01.2026" in html
    assert "&lt;b&gt;Kiel&lt;/b&gt; &amp; Co" in html


def test_format_value_follows_the_active_language():
    with translation.override("de"):
        assert format_value(Decimal("10.5")) == "10,5"
        assert format_value(datetime.date(2026, 3, 1)) == "01.03.2026"
    assert format_value(None) == ""


def test_rows_must_match_the_columns():
    with pytest.raises(ValueError, match="3 values for 4 columns"):
        list(standings([(1, "x", Decimal(1))]).row_values())


# --- manage.py export ---------------------------------------------------------------------------


@pytest.fixture
def game_with_documents(monkeypatch, tournament):
    """The tournament's game, registering two documents for the duration of the test."""
    game = game_of(tournament)
    catalogue = {
        "standings": lambda: standings(),
        "slips": lambda: PrintDocument("documents/table.html", {}, "Slips", "slips"),
    }
    monkeypatch.setattr(game, "documents", lambda t: catalogue if t.pk == tournament.pk else {})
    return tournament


def test_export_writes_pdf_and_xlsx(game_with_documents, tmp_path):
    slug = game_with_documents.slug
    pdf, xlsx = tmp_path / "standings.pdf", tmp_path / "out.xlsx"
    call_command("export", slug, "standings", "--format", "pdf", "--output", str(pdf), stdout=io.StringIO())
    call_command("export", slug, "standings", "--output", str(xlsx), stdout=io.StringIO())  # format from suffix
    assert "Die Buben" in pdf_pages(pdf.read_bytes())[0]
    assert workbook(xlsx.read_bytes()).active["B2"].value == "Die Buben"


def test_export_names_the_available_documents_for_an_unknown_one(game_with_documents, tmp_path):
    with pytest.raises(CommandError, match="Unknown document 'prizes'.*Available documents: slips, standings"):
        call_command("export", game_with_documents.slug, "prizes", "--output", str(tmp_path / "x.pdf"))


def test_export_refuses_unknown_tournament_and_format(game_with_documents, tmp_path):
    with pytest.raises(CommandError, match="There is no tournament “nope” here"):
        call_command("export", "nope", "standings", "--format", "pdf")
    with pytest.raises(CommandError, match="Unknown format 'csv'"):
        call_command("export", game_with_documents.slug, "standings", "--format", "csv")
    with pytest.raises(CommandError, match="cannot be written as xlsx, only as pdf"):
        call_command("export", game_with_documents.slug, "slips", "--output", str(tmp_path / "slips.xlsx"))
    assert not (tmp_path / "slips.xlsx").exists()


def test_printed_pages_carry_a_qr_code_to_the_public_page(tournament, tmp_path, settings):
    import subprocess

    import zxingcpp
    from PIL import Image

    from tournament.addresses import public_url

    settings.PUBLIC_BASE_URL = "http://club.example:8000"
    document = dataclasses.replace(standings(), qr_page="schedule")
    pdf = tmp_path / "with-qr.pdf"
    pdf.write_bytes(render(document, "pdf", tournament=tournament))
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")],
                   check=True)
    image = Image.open(next(tmp_path.glob("page*.png")))
    decoded = [result.text for result in zxingcpp.read_barcodes(image)]
    assert decoded == [public_url(tournament, "schedule")]
    assert decoded[0].startswith("http://club.example:8000/p/")
    without = tmp_path / "without.pdf"
    without.write_bytes(render(standings(), "pdf", tournament=tournament))
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", "1", "-l", "1", str(without), str(tmp_path / "plain")],
                   check=True)
    assert zxingcpp.read_barcodes(Image.open(next(tmp_path.glob("plain*.png")))) == []


def test_a_table_running_over_pages_names_itself_again_atop_each(tournament):
    # a round's standings on its third page said which round in the column heads only (issue 27)
    pages = pdf_pages(render_pdf(standings(many_rows(110)), tournament=tournament))
    assert len(pages) == 4
    assert "Pool A standings" in pages[0] and "(continued)" not in pages[0]
    for page in pages[1:]:
        assert "Pool A standings (continued) Rank Team Points Since" in page, page
    multi = MultiSheetDocument("Standings", [standings(many_rows(50)),
                                             dataclasses.replace(standings(many_rows(50)), title="Pool B standings")],
                               filename_stem="all")
    pages = pdf_pages(render_pdf(multi, tournament=tournament))
    assert len(pages) == 4
    assert ["Pool B standings (continued)" in page for page in pages] == [False, False, False, True]
    assert ["Pool A standings (continued)" in page for page in pages] == [False, True, False, False]
