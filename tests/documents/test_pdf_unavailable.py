"""A computer without Pango (WeasyPrint's system library: Windows and macOS lack it unless installed).

Every PDF address of every game and of a season answers a page that says what to install (status 503), never an
error; every page still opens, with a notice where the PDF buttons are; the Excel files still download.
"""

import re
import sys

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

import documents
from documents import pdf
from scoring.games import all_games
from tests.conftest import built_once_fixtures

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SMALL = {"--teams": 6, "--pools": 1, "--players": 16}
NEEDS_PANGO = "PDF printouts need Pango"


def build_world():
    from tests.conftest import new_director
    from tournament.services import seasons

    director = new_director("boss")
    tournaments = {}
    for game in all_games():
        if game.offers("demo"):
            options = {"seed": 1, "results": True}
            for flag, kwargs in game.demo_arguments:
                options[flag.lstrip("-").replace("-", "_")] = SMALL.get(flag, kwargs.get("default"))
            tournaments[game.key] = game.demo(director, **options)
    season = seasons.create_season(by=director, name="Season 2026", game="schafkopf", place_points=["3", "2", "1"])
    seasons.add_evening(season, tournaments["schafkopf"], by=director)
    return director, tournaments, season


built, world, director, tournaments, season = built_once_fixtures(build_world, "director", "tournaments", "season")


@pytest.fixture
def without_pango(monkeypatch):
    monkeypatch.setattr(pdf, "pdf_available", lambda: False)


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def links(html: str, suffix: str) -> list[str]:
    """The addresses of a page's links to files of that format (with their ?round=… or ?download=1)."""
    return sorted({href.replace("&amp;", "&") for href in re.findall(r'href="([^"]+)"', html)
                   if href.split("?")[0].endswith(f".{suffix}")})


def printouts_url(tournament) -> str:
    namespace = {"voms": "voms", "schafkopf": "schafkopf"}.get(tournament.game, "tablegames")
    return reverse(f"tournament:{namespace}:printouts", args=[tournament.slug])


def assert_what_to_install(response):
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    text = response.content.decode()
    assert NEEDS_PANGO in text
    for step in ("pacman -S mingw-w64-ucrt-x86_64-pango", "brew install pango", "libpango-1.0-0", "docs/install.md"):
        assert step in text
    assert "Traceback" not in text and "Server Error" not in text


@pytest.mark.parametrize("game", ["voms", "schafkopf", "domino", "rummi", "quadominos"])
def test_every_pdf_of_a_game_answers_what_to_install_and_excel_still_works(signed_in, tournaments, without_pango,
                                                                           game):
    tournament = tournaments[game]
    page = signed_in.get(printouts_url(tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert NEEDS_PANGO in html and 'role="note"' in html  # the notice where the PDF buttons are
    pdfs, workbooks = links(html, "pdf"), links(html, "xlsx")
    assert len(pdfs) >= 4 and any("download=1" in url for url in pdfs)
    for url in pdfs:
        assert_what_to_install(signed_in.get(url))
    assert workbooks
    for url in workbooks:
        response = signed_in.get(url)
        assert response.status_code == 200 and response["Content-Type"] == XLSX, url
        assert response.content[:2] == b"PK"  # a zip: an .xlsx workbook


@pytest.mark.parametrize("game", ["voms", "schafkopf", "rummi"])
def test_the_pages_with_pdf_buttons_still_open_with_the_notice(signed_in, tournaments, without_pango, game):
    tournament = tournaments[game]
    namespace = {"voms": "voms", "schafkopf": "schafkopf"}.get(game, "tablegames")
    for name in ("overview", "standings"):
        response = signed_in.get(reverse(f"tournament:{namespace}:{name}", args=[tournament.slug]))
        assert response.status_code == 200, name
    assert NEEDS_PANGO in response.content.decode()  # the standings page has PDF buttons


def test_a_seasons_pdf_answers_what_to_install_and_its_excel_file_still_works(signed_in, season, without_pango):
    page = signed_in.get(season.get_absolute_url())
    assert page.status_code == 200 and NEEDS_PANGO in page.content.decode()
    assert_what_to_install(signed_in.get(reverse("seasons:pdf", args=[season.slug])))
    assert_what_to_install(signed_in.get(reverse("seasons:pdf", args=[season.slug]) + "?download=1"))
    workbook = signed_in.get(reverse("seasons:xlsx", args=[season.slug]))
    assert workbook.status_code == 200 and workbook["Content-Type"] == XLSX


def test_the_page_is_translated(signed_in, tournaments, without_pango):
    tournament = tournaments["schafkopf"]
    signed_in.cookies["django_language"] = "de"
    url = reverse("tournament:schafkopf:download", args=[tournament.slug, "standings", "pdf"])
    response = signed_in.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 503
    assert "PDF-Ausdrucke brauchen Pango" in response.content.decode()


def test_with_pango_the_pages_show_no_notice(signed_in, tournaments):
    assert pdf.pdf_available()  # this machine has Pango (the suite renders PDFs)
    page = signed_in.get(printouts_url(tournaments["schafkopf"]))
    assert page.status_code == 200 and NEEDS_PANGO not in page.content.decode()


def test_the_export_command_says_what_to_install(tournaments, without_pango, tmp_path):
    with pytest.raises(CommandError, match="PDF files need Pango.*docs/install.md"):
        call_command("export", tournaments["schafkopf"].slug, "standings", "--output", str(tmp_path / "s.pdf"))
    assert not (tmp_path / "s.pdf").exists()
    call_command("export", tournaments["schafkopf"].slug, "standings", "--output", str(tmp_path / "s.xlsx"))
    assert (tmp_path / "s.xlsx").read_bytes()[:2] == b"PK"


@pytest.fixture
def weasyprint_fails_to_load(monkeypatch):
    """Importing WeasyPrint fails as it does where Pango is missing; the check runs afresh, and again after."""
    pdf.pdf_available.cache_clear()
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # `import weasyprint` raises ImportError
    monkeypatch.delitem(sys.modules, "documents.pdf_writer", raising=False)
    monkeypatch.delattr(documents, "pdf_writer", raising=False)
    yield
    pdf.pdf_available.cache_clear()


def test_the_check_finds_weasyprint_unable_to_load_and_says_so_once(weasyprint_fails_to_load, caplog):
    assert pdf.pdf_available() is False
    assert pdf.pdf_available() is False
    warnings = [record for record in caplog.records if "PDF printouts are unavailable" in record.getMessage()]
    assert len(warnings) == 1  # tried once per process


def test_without_weasyprint_a_pdf_address_answers_what_to_install(signed_in, tournaments, weasyprint_fails_to_load):
    tournament = tournaments["voms"]
    assert_what_to_install(signed_in.get(reverse("tournament:voms:print", args=[tournament.slug, "standings", "pdf"])))
    workbook = signed_in.get(reverse("tournament:voms:print", args=[tournament.slug, "standings", "xlsx"]))
    assert workbook.status_code == 200 and workbook["Content-Type"] == XLSX
