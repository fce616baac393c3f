"""Names imported from a list show literally everywhere: escaped on every director and public page, as
text in every PDF, and as text (never a formula) in every Excel export. Voms, Schafkopf and Domino."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from documents import formats_for
from scoring.games import game_of
from tests.pdf_text import page_texts
from tests.web.test_permission_walk import candidates, tournament_patterns, url_arguments

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
BOLD = "<b>x</b>"
ATTRIBUTE = '"onmouseover=alert(1)'
FORMULA = '=HYPERLINK("http://x","y")'
HOSTILE = (SCRIPT, BOLD, ATTRIBUTE, FORMULA)
ESCAPED = ("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;b&gt;x&lt;/b&gt;")


def csv_file(rows) -> SimpleUploadedFile:
    def cell(value):
        return '"' + str(value).replace('"', '""') + '"'

    return SimpleUploadedFile("list.csv", "\r\n".join(",".join(cell(c) for c in row) for row in rows).encode())


def setup_voms(client, t):
    rows = [["Team", "Player 1", "Player 2"]]
    rows += [[name, f"{name} One", f"Ann {n}"] for n, name in enumerate(HOSTILE)]
    rows += [[f"Team {n}", f"Bo {n}", f"Cy {n}"] for n in range(4)]
    response = client.post(reverse("tournament:voms:teams", args=[t.slug]),
                           {"action": "import", "import-file": csv_file(rows)})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert client.post(reverse("tournament:voms:draw", args=[t.slug]), {"pools": 1, "seed": 1}).status_code == 302


def setup_players(client, t, game):
    rows = [["Number", "First name", "Last name", "Club"]]
    rows += [[n, name, name, name] for n, name in enumerate(HOSTILE, start=1)]
    rows += [[n, f"Anna{n}", f"Huber{n}", "TSV"] for n in range(len(HOSTILE) + 1, 13)]
    response = client.post(reverse("tournament:desk_import", args=[t.slug]), {"file": csv_file(rows)})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert client.post(reverse(f"tournament:{game}:seating", args=[t.slug]), {"seed": 1}).status_code == 302


@pytest.fixture
def imported(request, director, make_tournament):
    game = request.param
    t = make_tournament(director, name="Escapes", game=game)
    client = Client()
    client.force_login(director)
    if game == "voms":
        setup_voms(client, t)
    else:
        setup_players(client, t, "schafkopf" if game == "schafkopf" else "tablegames")
    flags = {f"publish_{kind}": "on" for kind in ("schedule", "standings", "bracket", "results")}
    assert client.post(reverse("tournament:public", args=[t.slug]), {**flags, "beamer_seconds": 15}).status_code \
        == 302
    return client, t


def pages(t):
    for route, name, _pattern in tournament_patterns():
        for kwargs in candidates(t, name, url_arguments(route)):
            yield reverse(name, kwargs=kwargs)
            break


@pytest.mark.parametrize("imported", ["voms", "schafkopf", "domino"], indirect=True)
def test_imported_markup_is_escaped_on_every_page(imported):
    client, t = imported
    shown = 0
    for url in pages(t):
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode().replace('\\"', "[quote]")  # a quote escaped inside json_script data is safe
        for raw in (SCRIPT, BOLD, ATTRIBUTE):
            assert raw not in html, f"{url} shows {raw!r} unescaped"
        shown += any(escaped in html for escaped in ESCAPED)
    assert shown >= 3  # the names are on the pages (the players or teams list, standings, public pages)


def document_urls(t):
    game = {"voms": "voms"}.get(t.game, "schafkopf" if t.game == "schafkopf" else "tablegames")
    name = "print" if game == "voms" else "download"
    for doc_name, make in game_of(t).documents(t).items():
        for file_format in formats_for(make()):
            yield file_format, reverse(f"tournament:{game}:{name}", args=[t.slug, doc_name, file_format])


@pytest.mark.parametrize("imported", ["voms", "schafkopf", "domino"], indirect=True)
def test_imported_names_print_literally_and_stay_text_in_excel(imported):
    client, t = imported
    in_pdf = in_excel = 0
    for file_format, url in document_urls(t):
        response = client.get(url)
        assert response.status_code == 200, url
        data = b"".join(response.streaming_content) if response.streaming else response.content
        if file_format == "pdf":
            text = "".join(page_texts(data))
            assert "&lt;" not in text and "&amp;" not in text, f"{url}: markup printed escaped twice"
            in_pdf += SCRIPT in text or "HYPERLINK" in text
        else:
            book = load_workbook(io.BytesIO(data))
            for sheet in book.worksheets:
                for row in sheet.iter_rows():
                    for cell in row:
                        if isinstance(cell.value, str) and any(h in cell.value for h in ("HYPERLINK", "<script")):
                            assert cell.data_type == "s", f"{url} {sheet.title}!{cell.coordinate}: {cell.value!r}"
                            in_excel += 1
    assert in_pdf, "no printout shows the imported names"
    assert in_excel, "no Excel export holds the imported names"
