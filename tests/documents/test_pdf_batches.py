"""Large printouts: batches laid out by worker processes and joined with pypdf, read back and checked."""

import io

import pytest
from django.utils import timezone
from pypdf import PdfReader

from documents import PrintDocument
from documents import pdf as renderer
from documents.pdf import batch_bounds, render_pdf
from tests.pdf_text import page_texts

pytestmark = pytest.mark.django_db

PAGE = ('{% if first %}<link rel="stylesheet" href="print/print.css"><p>STYLE</p>{% endif %}'
        "<h1>Table {{ table }}</h1>{% if table == long %}<div style=\"height: 300mm\">tall</div>{% endif %}")


@pytest.fixture
def page_template(settings, tmp_path):
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": [*engine["DIRS"], tmp_path]}]
    (tmp_path / "batch_page.html").write_text(PAGE)
    return "batch_page.html"


@pytest.fixture
def batches(monkeypatch):
    """Batches of two pages from three pages on, with two workers whatever the machine has."""
    monkeypatch.setattr(renderer, "BATCH_PAGES", 2)
    monkeypatch.setattr(renderer, "PARALLEL_MIN_PAGES", 3)
    monkeypatch.setattr(renderer, "worker_count", lambda: 2)


def texts(data: bytes) -> list[str]:
    return [" ".join(text.split()) for text in page_texts(data)]


def slips(template: str, count: int, **context) -> PrintDocument:
    return PrintDocument(template, context, "Slips", "slips", pages=[{"table": n} for n in range(1, count + 1)])


def test_batches_cover_every_page_once_in_order():
    for count in (1, 2, 7, 50, 51, 500):
        for size in (1, 2, 25):
            bounds = batch_bounds(count, size)
            assert [start for start, _end in bounds] == [0, *[end for _start, end in bounds[:-1]]]
            assert bounds[-1][1] == count and all(end - start <= size for start, end in bounds)
    assert batch_bounds(500, 25) == [(n, n + 25) for n in range(0, 500, 25)]


def test_a_batched_printout_reads_back_in_order_numbered_across_the_whole(tournament, page_template, batches):
    data = render_pdf(slips(page_template, 7), tournament=tournament)
    reader, pages = PdfReader(io.BytesIO(data)), texts(data)
    assert len(pages) == 7
    for number, page in enumerate(pages, start=1):
        assert f"Table {number}" in page and f"Page {number} of 7" in page
    # every batch (pages 1, 2-3, 4-5, 6-7) links its stylesheet on its own first page
    assert ["STYLE" in page for page in pages] == [True, True, False, True, False, True, False]
    assert reader.metadata.title == "Slips"
    assert [item.title for item in reader.outline] == [f"Table {n}" for n in range(1, 8)]
    fonts = {font["/BaseFont"].split("+")[-1] for page in reader.pages
             for font in page["/Resources"]["/Font"].values()}
    assert fonts == {"Print-Sans", "Print-Sans-Bold"}  # print.css's local fonts, on every page of every part


def test_a_batched_printout_matches_the_one_process_rendering(tournament, page_template, batches, monkeypatch):
    # the footer's "printed at" has minutes: the two renderings must not straddle a minute (a flake once)
    printed_at = timezone.localtime()
    monkeypatch.setattr(renderer.timezone, "localtime", lambda *args: printed_at)
    batched = texts(render_pdf(slips(page_template, 5), tournament=tournament))
    monkeypatch.setattr(renderer, "worker_count", lambda: 1)
    single = texts(render_pdf(slips(page_template, 5), tournament=tournament))
    assert [page.replace("STYLE ", "") for page in batched] == [page.replace("STYLE ", "") for page in single]


def test_a_batch_that_runs_over_a_page_is_numbered_again(tournament, page_template, batches):
    pages = texts(render_pdf(slips(page_template, 5, long=2), tournament=tournament))
    total = len(pages)
    assert total > 5  # table 2 takes more than one page
    assert [f"Page {number} of {total}" in page for number, page in enumerate(pages, start=1)] == [True] * total
    assert "Table 3" in pages[total - 3] and "Table 5" in pages[total - 1]


def test_small_printouts_stay_in_one_process(tournament, page_template, monkeypatch):
    monkeypatch.setattr(renderer, "render_in_batches", lambda *args, **kwargs: pytest.fail("batched"))
    assert len(PdfReader(io.BytesIO(render_pdf(slips(page_template, 5), tournament=tournament))).pages) == 5


UNDERLAY = ('<link rel="stylesheet" href="print/print.css">'
            '<p style="margin-top: 100mm">GRID {{ size }} for {{ round }}</p>')


@pytest.fixture
def underlay_template(settings, page_template, tmp_path):
    (tmp_path / "batch_underlay.html").write_text(UNDERLAY)
    return "batch_underlay.html"


def with_underlays(page_template, underlay_template, count: int) -> PrintDocument:
    pages = [{"table": n, "underlay": "big" if n % 3 == 0 else "small"} for n in range(1, count + 1)]
    pages[0]["underlay"] = None  # a page may have none
    return PrintDocument(page_template, {"round": "R7"}, "Slips", "slips", pages=pages,
                         underlay_template=underlay_template,
                         underlays={"small": {"size": "S"}, "big": {"size": "B"}})


@pytest.mark.parametrize("workers", [1, 2])
def test_an_underlay_lies_under_every_page_that_names_it_once_in_the_file(
        tournament, page_template, underlay_template, batches, monkeypatch, workers):
    monkeypatch.setattr(renderer, "worker_count", lambda: workers)  # 2: batched, 1: one process
    data = render_pdf(with_underlays(page_template, underlay_template, 7), tournament=tournament)
    reader, pages = PdfReader(io.BytesIO(data)), texts(data)
    assert len(pages) == 7
    for number, page in enumerate(pages, start=1):
        assert f"Table {number}" in page and f"Page {number} of 7" in page
        expected = None if number == 1 else "GRID B for R7" if number % 3 == 0 else "GRID S for R7"
        assert [grid for grid in ("GRID B for R7", "GRID S for R7") if grid in page] == ([expected] if expected else [])
        assert page.count("Page ") == 1  # the underlay has no running header or footer of its own
    # each underlay is one Form XObject in the file, drawn by every page that names it
    forms = {xobject.idnum for page in reader.pages
             for xobject in page["/Resources"].get("/XObject", {}).values()
             if xobject.get_object()["/Subtype"] == "/Form"}
    assert len(forms) == 2
    assert [item.title for item in reader.outline] == [f"Table {n}" for n in range(1, 8)]
    # each bookmark leads to its own page in the joined file
    assert [reader.get_destination_page_number(item) for item in reader.outline] == list(range(7))


def test_a_page_that_runs_over_its_underlay_is_refused(tournament, page_template, underlay_template):
    document = with_underlays(page_template, underlay_template, 3)
    document.pages[1]["table"] = "long"  # the page template makes table == long two pages tall
    with pytest.raises(ValueError, match="ran over"):
        render_pdf(PrintDocument(page_template, {"long": "long", "round": "R7"}, "Slips", "slips",
                                 pages=document.pages, underlay_template=underlay_template,
                                 underlays=document.underlays), tournament=tournament)


# --- the workers' start method: Windows has only spawn ------------------------------------------------------


def test_a_60_page_printout_renders_in_spawned_workers_as_on_windows(tournament, page_template, settings,
                                                                     monkeypatch):
    """Spawned workers are fresh interpreters: they inherit no global of this process (settings, fonts, the
    static folder), so they must find everything they need from what they are given."""
    settings.PDF_START_METHOD = "spawn"
    monkeypatch.setattr(renderer, "worker_count", lambda: 2)
    started = []

    class RecordingPool(renderer.ProcessPoolExecutor):
        def __init__(self, workers, *, mp_context):
            started.append((workers, mp_context.get_start_method()))
            super().__init__(workers, mp_context=mp_context)

    monkeypatch.setattr(renderer, "ProcessPoolExecutor", RecordingPool)
    data = render_pdf(slips(page_template, 60), tournament=tournament)
    assert started == [(2, "spawn")]  # batched (3 batches of 20 pages), by spawned workers
    reader, pages = PdfReader(io.BytesIO(data)), texts(data)
    assert len(pages) == 60
    assert "Table 1" in pages[0] and "Page 1 of 60" in pages[0] and "STYLE" in pages[0]
    assert "Table 60" in pages[-1] and "Page 60 of 60" in pages[-1]
    assert [f"Table {number}" in page for number, page in enumerate(pages, start=1)] == [True] * 60
    fonts = {font["/BaseFont"].split("+")[-1] for page in (reader.pages[0], reader.pages[-1])
             for font in page["/Resources"]["/Font"].values()}
    assert fonts == {"Print-Sans", "Print-Sans-Bold"}  # the static folder's fonts, found by the workers too


@pytest.mark.parametrize("platform, methods, expected", [
    ("win32", ["spawn"], "spawn"),                              # Windows
    ("darwin", ["spawn", "fork", "forkserver"], "spawn"),       # macOS: Python's own default
    ("linux", ["fork", "spawn", "forkserver"], "forkserver"),   # Linux
    ("linux", ["fork", "spawn"], "spawn"),                      # a system without a fork server
])
def test_the_workers_start_the_way_the_system_has(monkeypatch, settings, platform, methods, expected):
    settings.PDF_START_METHOD = ""
    monkeypatch.setattr(renderer.multiprocessing, "get_all_start_methods", lambda: methods)
    monkeypatch.setattr(renderer.sys, "platform", platform)
    assert renderer.start_method() == expected


def test_the_start_method_can_be_set_but_only_to_one_the_system_has(monkeypatch, settings):
    from django.core.exceptions import ImproperlyConfigured

    settings.PDF_START_METHOD = "spawn"
    assert renderer.start_method() == "spawn"
    assert renderer.process_context().get_start_method() == "spawn"
    settings.PDF_START_METHOD = "forkserver"
    monkeypatch.setattr(renderer.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    with pytest.raises(ImproperlyConfigured, match="PDF_START_METHOD='forkserver': this system has spawn"):
        renderer.start_method()
