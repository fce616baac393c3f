"""The PDF renderer (WeasyPrint): A4, print CSS, a running header and footer, embedded local fonts.

Printouts are always in the tournament's language, whatever language the screen is in.

Speed: WeasyPrint's slow path is a long table spanning pages, so every page here is one
small table. A long TableDocument is cut into page-sized chunks by its rows' printed height
(`height_chunks`: names and clubs that wrap make a row taller), each its own table with its
header row. Printouts of many pages (one score list per table) render each page's fragment
and join them into one HTML with page breaks. bench/documents.py compared that with a WeasyPrint
document per page joined by `Document.copy(pages).write_pdf()`: for 500 pages one HTML took 20 %
less CPU but peaked 30 % higher (2.5 against 2.0 GB; WeasyPrint holds every laid-out page until
it writes). One HTML is kept: it is faster, numbers the pages "X of Y" across the whole printout,
and lets a page template link its stylesheet once (on the `first` page).

A large printout of one page per context (500 score lists, a round's match slips or score sheets) is
rendered in batches instead (`render_in_batches`): the parent renders every page's fragment from the
document's data, as above; worker processes lay out batches of `BATCH_PAGES` pages, each batch a
whole HTML of its own with its stylesheets and its pages numbered in the whole printout's count; pikepdf
joins the parts in order. The cores share the work, and memory is capped by the batch size, since
WeasyPrint holds every laid-out page of a document until it writes it. Small printouts stay in one
process: starting the workers costs about a second.

What many pages share (a score list's grid, column titles and legend: most of its boxes and text) can be
an underlay (`PrintDocument.underlay_template`): laid out once, and drawn under each page as one shared
Form XObject, so each page lays out only its own title and names.
"""

from __future__ import annotations

import functools
import io
import itertools
import logging
import multiprocessing
import os
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from fontTools.ttLib import TTFont

from tournament.addresses import public_url

from .base import (
    Column,
    Document,
    MultiSheetDocument,
    PrintDocument,
    TableDocument,
    format_value,
    tables_of,
    venue_locale,
)
from .qr import qr_svg

#: Column widths are measured with the body font of print.css (DejaVu Sans 10pt), on A4 less the page margins.
FONT_SIZE_MM = 10 * 25.4 / 72
PORTRAIT_TEXT_WIDTH_MM, LANDSCAPE_TEXT_WIDTH_MM = 210 - 32, 297 - 32
CELL_PADDING_MM = 4 + 1  # 2 mm each side, and 1 mm so that rounding never wraps a number
EXCEL_CHARACTER_MM = 2.25  # Column.width counts characters (Excel's unit: a digit's width)
MAX_COLUMN_MM, MIN_TEXT_COLUMN_MM = 80, 12

Chunks = list[list[list[dict[str, str]]]]  # a table's pages, of rows, of formatted cells

#: Printouts of one page per context render in batches of this many pages in worker processes once they
#: have at least PARALLEL_MIN_PAGES pages (bench/schafkopf.py: 500 score lists). A batch's memory is about
#: 5 MB a page; the workers also pay the stylesheets and fonts once per batch.
BATCH_PAGES = 25
PARALLEL_MIN_PAGES = 50


logger = logging.getLogger(__name__)


def static_dir() -> Path:
    """The folder of print.css and the fonts: the first of STATICFILES_DIRS (in a clone and when installed)."""
    return Path(settings.STATICFILES_DIRS[0])


@functools.cache
def pdf_available() -> bool:
    """Whether this computer can make PDFs: WeasyPrint needs Pango, a system library that Windows and macOS lack
    unless it is installed (docs/install.md). Tried once per process; without it every page but a PDF works, and
    a PDF's address answers what to install (documents.response)."""
    try:
        from . import pdf_writer  # noqa: F401  (imports WeasyPrint, which loads Pango)
    except (OSError, ImportError) as error:
        logger.warning("PDF printouts are unavailable: WeasyPrint cannot load Pango (%s)", error)
        return False
    return True


class PdfUnavailable(RuntimeError):
    """A PDF was asked for on a computer without Pango (`pdf_available()` is False)."""


def render_pdf(document: Document, *, tournament) -> bytes:
    """The document as a PDF in the tournament's language."""
    if not pdf_available():
        raise PdfUnavailable("WeasyPrint cannot load Pango: see docs/install.md")
    with venue_locale(tournament):
        if isinstance(document, PrintDocument):
            contexts = document.page_contexts()
            if document.pages is not None and len(contexts) >= PARALLEL_MIN_PAGES and worker_count() > 1:
                return render_in_batches(document, contexts, tournament=tournament)
            fragments = [render_to_string(document.template_name, page) for page in contexts]
        elif isinstance(document, TableDocument | MultiSheetDocument):
            fragments = [render_tables_fragment(document)]
        else:
            raise TypeError(f"cannot render {type(document).__name__} as PDF")
        html = render_frame(fragments, tournament=tournament, title=document.title, landscape=document.landscape,
                            qr_page=document.qr_page)
        underlays = underlay_htmls(document, tournament=tournament) if isinstance(document, PrintDocument) else {}
    data = write_pdf(html)
    if not underlays:
        return data
    return assemble([data], {key: write_pdf(html) for key, html in underlays.items()},
                    [context.get("underlay") for context in contexts])


def render_pdf_pages(
    template_name: str, pages: list[dict[str, Any]], *, tournament, title: str = "", landscape: bool = False
) -> bytes:
    """One page per context (e.g. 500 score lists, one per table) in one PDF."""
    document = PrintDocument(template_name, {}, title, "", pages=pages, landscape=landscape)
    return render_pdf(document, tournament=tournament)


def render_frame(fragments: list[str], *, tournament, title, landscape: bool, qr_page: str | None = None) -> str:
    """The whole HTML: page setup, running header and footer, and the fragments one after another."""
    frame = frame_context(tournament=tournament, title=title, landscape=landscape, qr_page=qr_page)
    return frame_html(frame, fragments)


def frame_context(*, tournament, title, landscape: bool, qr_page: str | None = None) -> dict[str, Any]:
    """What the page frame shows, the same on every page (and in every batch) of a printout."""
    return {
        "bare": False,
        "tournament": tournament,
        "title": title,
        "page_size": "A4 landscape" if landscape else "A4 portrait",
        "page_number_content": mark_safe(page_number_content()),  # built from escaped pieces only
        "printed_at": formats.date_format(timezone.localtime(), "SHORT_DATETIME_FORMAT"),
        # inline SVG: the printouts' URL fetcher refuses data: URIs, and SVG stays sharp at any size
        "qr": qr_svg(public_url(tournament, qr_page)) if qr_page else None,
    }


def frame_html(frame: dict[str, Any], fragments: list[str], *, first_page: int = 1, total_pages: int | None = None
               ) -> str:
    """The frame around `fragments`; a batch of a larger printout starts at `first_page` of `total_pages`."""
    context = {**frame, "fragments": [SafeString(fragment) for fragment in fragments]}
    if total_pages is not None:
        context["page_number_content"] = mark_safe(page_number_content(total_pages))
        context["first_page"] = first_page
    return render_to_string("documents/print.html", context)


def underlay_htmls(document: PrintDocument, *, tournament) -> dict[Any, str]:
    """Each underlay of `document` as the whole HTML of one page: the same page box as the printout's pages
    (so that both lie exactly on each other), without the running header and footer, which the pages have."""
    if not document.underlay_template:
        return {}
    frame = {"bare": True, "tournament": tournament, "title": document.title,
             "page_size": "A4 landscape" if document.landscape else "A4 portrait",
             "page_number_content": "none"}
    return {
        key: frame_html(frame, [render_to_string(document.underlay_template,
                                                 {**document.context, **context, "first": True})])
        for key, context in document.underlays.items()
    }


def write_pdf(html: str, root: Path | None = None) -> bytes:
    """Lay out and write one HTML. Needs no Django settings when given `root`: batch workers call it."""
    from .pdf_writer import write_html

    return write_html(html, root or static_dir())


# --- large printouts: batches in worker processes, joined with pikepdf ------------------------------------


def worker_count() -> int:
    """The cores this process may use (a container or `taskset` may allow fewer than the machine has)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def batch_bounds(count: int, size: int) -> list[tuple[int, int]]:
    """(start, end) of each batch of `count` pages: as few batches as `size` allows, of (nearly) equal size."""
    batches = max(1, -(-count // size))
    return [(count * index // batches, count * (index + 1) // batches) for index in range(batches)]


def start_method() -> str:
    """How the batch workers start: PDF_START_METHOD if set (the suite forces `spawn` on Linux to run Windows'
    way), else `forkserver` where the system has it (Linux), else `spawn` (Windows has nothing else; on macOS
    Python itself starts processes by spawn, as Apple's system libraries are not safe in a forked child)."""
    available = multiprocessing.get_all_start_methods()
    chosen = getattr(settings, "PDF_START_METHOD", "")
    if chosen:
        if chosen not in available:
            raise ImproperlyConfigured(f"PDF_START_METHOD={chosen!r}: this system has {', '.join(available)}")
        return chosen
    return "forkserver" if "forkserver" in available and sys.platform != "darwin" else "spawn"


def process_context():
    """The processes of the batch workers. Neither way inherits the parent's database connections or threads.

    A fork server imports WeasyPrint (`pdf_writer`) once and forks each worker from it: they start in milliseconds.
    A spawned worker is a fresh interpreter (a second or so): it imports `pdf_writer` itself, and needs nothing
    else, as it gets the HTML and the static folder as arguments; no Django settings, no global of the parent.

    Either way the new process imports the main module of the program that started it: a script that renders
    large printouts needs the `if __name__ == "__main__":` guard (manage.py, the console command, pytest and the
    bench scripts have it)."""
    method = start_method()
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload([f"{__package__}.pdf_writer"])
    return context


def render_in_batches(document: PrintDocument, contexts: list[dict[str, Any]], *, tournament) -> bytes:
    """A printout of one page per context, laid out in batches by worker processes and joined in order.

    Every page's fragment is rendered here, where the data (model instances, lazy texts) lives; the
    workers get plain HTML. Each batch's first fragment is rendered as `first`, so that it links the
    printout's stylesheet. The pages are numbered on the assumption of one page per context, then
    checked: if a batch ran over, every batch is laid out again with the true numbers. The underlays,
    if any, are laid out by the workers too, along with the first batches.
    """
    bounds = batch_bounds(len(contexts), BATCH_PAGES)
    starts = {start for start, _end in bounds}
    fragments = [
        render_to_string(document.template_name, {**context, "first": index in starts})
        for index, context in enumerate(contexts)
    ]
    frame = frame_context(tournament=tournament, title=document.title, landscape=document.landscape,
                          qr_page=document.qr_page)
    underlays = underlay_htmls(document, tournament=tournament)
    batches = [fragments[start:end] for start, end in bounds]
    pages = [len(batch) for batch in batches]
    root = static_dir()
    with ProcessPoolExecutor(min(worker_count(), len(batches)), mp_context=process_context()) as pool:
        laid_under = pool.map(write_pdf, underlays.values(), [root] * len(underlays))
        while True:
            firsts = [1 + sum(pages[:index]) for index in range(len(batches))]
            htmls = [frame_html(frame, batch, first_page=first, total_pages=sum(pages))
                     for batch, first in zip(batches, firsts, strict=True)]
            parts = list(pool.map(write_pdf, htmls, [root] * len(htmls)))
            laid_out = [page_count(part) for part in parts]
            if laid_out == pages:
                break
            pages = laid_out  # a batch ran over: once more with the true page numbers
        underlay_pdfs = dict(zip(underlays, laid_under, strict=True))
    return assemble(parts, underlay_pdfs, [context.get("underlay") for context in contexts])


def page_count(data: bytes) -> int:
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)


def assemble(parts: list[bytes], underlays: dict[Any, bytes] | None = None, keys: list | None = None) -> bytes:
    """The parts' pages in order, with their bookmarks and the first part's metadata (title, dates); under
    each page the underlay its key names (`keys`: one per page, None for none).

    pikepdf (qpdf) does the joining: pypdf took 4.7 s of one CPU to parse and copy 500 score lists. An
    underlay is one Form XObject in the file, drawn under every page that names it: 500 score lists
    carry their grid once.
    """
    import pikepdf

    sources = [pikepdf.open(io.BytesIO(part)) for part in parts]
    joined = sources[0]
    with joined.open_outline() as outline:
        for source in sources[1:]:
            offset = len(joined.pages)
            joined.pages.extend(source.pages)
            indexes = {page.obj.objgen: index for index, page in enumerate(source.pages)}
            with source.open_outline() as source_outline:
                outline.root.extend(moved_outline_item(item, indexes, joined, offset)
                                    for item in source_outline.root)
    if underlays:
        if keys is None or len(keys) != len(joined.pages):
            raise ValueError(f"{len(joined.pages)} pages for {len(keys or ())} underlay keys: a page of a printout "
                             "with underlays ran over")
        underlay_sources = {key: pikepdf.open(io.BytesIO(data)) for key, data in underlays.items()}
        forms = {key: joined.copy_foreign(source.pages[0].as_form_xobject())
                 for key, source in underlay_sources.items()}
        for page, key in zip(joined.pages, keys, strict=True):
            if key is not None:
                page.add_underlay(forms[key])
    buffer = io.BytesIO()
    joined.save(buffer)
    return buffer.getvalue()


def moved_outline_item(item, indexes: dict, joined, offset: int):
    """A bookmark of a part, pointing to the same page (and place on it) among the joined pages."""
    import pikepdf

    destination = item.destination
    if isinstance(destination, pikepdf.Array) and len(destination):
        page = joined.pages[offset + indexes[destination[0].objgen]]
        destination = pikepdf.Array([page.obj, *list(destination)[1:]])
    moved = pikepdf.OutlineItem(item.title, destination)
    moved.children.extend(moved_outline_item(child, indexes, joined, offset) for child in item.children)
    return moved


def render_tables_fragment(document: TableDocument | MultiSheetDocument) -> str:
    sections = []
    multi = isinstance(document, MultiSheetDocument)
    room = None  # what is left of the page the previous dense table ended on
    for table in tables_of(document):
        dense = document.dense or table.dense
        rows = [formatted_row(table.columns, values) for values in table.row_values()]
        usual = DENSE if dense else REGULAR
        # only a dense table goes on where the one before ended: a regular one starts a page of its own
        before = room if dense else None
        titled = multi and not sections
        widths, chunks, flow, room = laid_out(table, rows, usual, landscape=document.landscape, titled=titled,
                                              room=before)
        compact = False
        if table.one_page and len(chunks) > 1:
            tried = laid_out(table, rows, COMPACT, landscape=document.landscape, titled=titled, room=before)
            if len(tried[1]) == 1:  # compact type keeps it on one page; else the usual type, page after page
                (widths, chunks, flow, room), compact = tried, True
        sections.append({"table": table, "chunks": chunks, "widths": widths, "dense": dense, "flow": flow,
                         "compact": compact})
    return render_to_string(
        "documents/pdf_tables.html",
        {"document": document, "multi": multi, "sections": sections},
    )


def laid_out(table: TableDocument, rows, kind: TableType, *, landscape: bool, titled: bool, room: float | None):
    """A table's column widths and its rows cut into pages in `kind`'s type: (widths, chunks, flow, room left)."""
    widths = column_percentages(table.columns, [rows], landscape=landscape, font_pt=kind.font_pt,
                                padding=kind.cell_padding_mm)
    chunks, flow, left = height_chunks(table, rows, widths, kind, landscape=landscape, titled=titled, room=room)
    return widths, chunks, flow, left


@dataclass(frozen=True)
class TableType:
    """A table's type size and cell padding in print.css, in the units the page cutting below counts in."""

    font_pt: float
    line_height: float  # print.css's line-height, a multiple of the type size
    row_padding_mm: float  # a row's top and bottom padding, and its border
    cell_padding_mm: float  # a cell's left and right padding, and a little so that rounding never wraps

    @property
    def line_mm(self) -> float:
        return self.font_pt * 25.4 / 72 * self.line_height


#: print.css's `th, td` (10pt/1.35, padding 1.1mm 2mm, a 0.5pt border) and `table.dense` (8pt/1.15,
#: padding 0.4mm 1.2mm): both cut into pages by their rows' height. A row is as tall as its most wrapped cell.
REGULAR = TableType(10, 1.35, 2 * 1.1 + 0.2, CELL_PADDING_MM)
DENSE = TableType(8, 1.15, 2 * 0.4 + 0.2, 2 * 1.2 + 0.6)
#: print.css's `table.compact` (7.5pt/1.0, padding 0.25mm 1mm): a ranking of about 40 rows on one A4 page
COMPACT = TableType(7.5, 1.0, 2 * 0.25 + 0.2, 2 * 1.0 + 0.6)
PAGE_TEXT_HEIGHT_MM = {False: 297 - 42, True: 210 - 42}  # A4 less print.css's top and bottom margins
TITLE_HEIGHT_MM = {True: 9 + 8, False: 10}  # the document's h1 and a sheet's h2 on its first page; or an h1
SUBTITLE_HEIGHT_MM = 9  # a line of 10pt/1.35 and its 4 mm margin
NOTES_FONT_PT = 9
NOTE_HEIGHT_MM = 4.5  # a line of notes (9pt)
SECTION_GAP_MM = 6  # between a table that ends on a page and the next that starts there
#: print.css's `th.continued-title`: a table's title again atop each page after its first, a line with this padding
CONTINUED_PADDING_MM = 0.6
#: fewer rows than this are not left alone on a page: the page before gives some of its own
FEWEST_ROWS_ON_A_PAGE = 4


def height_chunks(table: TableDocument, rows: list[list[dict[str, str]]], widths: list[float],
                  kind: TableType = REGULAR, *, landscape: bool, titled: bool, room: float | None = None
                  ) -> tuple[Chunks, bool, float]:
    """A table's rows cut into pages by their printed height in `kind`'s type (regular or dense): each row as
    many lines as its most wrapped cell needs in its column, the first page less its title, the last page with
    room for the notes, and never a page of only a few rows (`FEWEST_ROWS_ON_A_PAGE`). Each chunk fits its
    page: a row is never split across two pages, nor a group of rows the table keeps together (`keep_together`:
    a table's seats) unless it is taller than a page, and no page runs over and leaves the next half empty. The
    chunks are at least one, even if empty.

    `room` (mm) is what the previous dense table left of its last page: the table starts there when its
    title and a few rows fit (about 40 rows a page: the rounds of a standings printout follow each other).
    Returns the chunks, whether the table starts on that page, and the room left on its last page.
    """
    available = LANDSCAPE_TEXT_WIDTH_MM if landscape else PORTRAIT_TEXT_WIDTH_MM
    columns_mm = [available * width / 100 - kind.cell_padding_mm for width in widths]
    heights = [row_height(row, columns_mm, kind) for row in rows]
    header = row_height([{"text": str(column.title)} for column in table.columns], columns_mm, kind, bold=True)
    title = TITLE_HEIGHT_MM[titled] + (SUBTITLE_HEIGHT_MM if table.subtitle else 0)
    first = PAGE_TEXT_HEIGHT_MM[landscape] - header - 3 - title  # the table's margin-top
    # a page after the first repeats the table's title in a line of its head (pdf_tables.html: "… (continued)")
    page = PAGE_TEXT_HEIGHT_MM[landscape] - header - 3 - (kind.line_mm + CONTINUED_PADDING_MM)
    starts = group_starts(table, rows)  # the rows a page may start with
    group_end = dict(itertools.pairwise([*starts, len(rows)]))
    flow = False
    if room is not None:
        start = room - SECTION_GAP_MM - title - header - 3
        if start >= sum(heights[:max(FEWEST_ROWS_ON_A_PAGE, group_end.get(0, 0))]):
            first, flow = start, True
    cuts = [0]  # where each page's rows start
    room = first
    for index, height in enumerate(heights):
        if index in group_end and index > cuts[-1]:
            # a group (a table's seats) goes onto the next page whole, unless it is taller than a page itself
            group = sum(heights[index:group_end[index]])
            if group > room and group <= page:
                cuts.append(index)
                room = page
        if height > room and index > cuts[-1]:
            cuts.append(index)
            room = page
        room -= height
    notes = sum(NOTE_HEIGHT_MM * wrapped_lines(str(note), available, font_pt=NOTES_FONT_PT)
                for note in table.notes) + 4 if table.notes else 0  # the notes' lines and their margin-top
    if notes > room and len(rows) - cuts[-1] > FEWEST_ROWS_ON_A_PAGE:
        # the notes do not fit under the last rows: some of them go onto a page of their own with the notes
        cut = max((start for start in starts if cuts[-1] < start <= len(rows) - FEWEST_ROWS_ON_A_PAGE), default=None)
        if cut is not None:
            cuts.append(cut)
    if len(cuts) > 1 and len(rows) - cuts[-1] < FEWEST_ROWS_ON_A_PAGE:
        # a few rows alone on the last page: the page before hands some on (it only gets shorter), whole groups
        both = len(rows) - cuts[-2]
        most = cuts[-2] + max(both - FEWEST_ROWS_ON_A_PAGE, (both + 1) // 2)
        cuts[-1] = max((start for start in starts if cuts[-2] + (both + 1) // 2 <= start <= most), default=cuts[-1])
    chunks: Chunks = [rows[start:end] for start, end in zip(cuts, [*cuts[1:], len(rows)], strict=True)]
    last_start = first if len(chunks) == 1 else page
    used = sum(row_height(row, columns_mm, kind) for row in chunks[-1])
    return chunks, flow, max(last_start - used - notes, 0)


def group_starts(table: TableDocument, rows: list[list[dict[str, str]]]) -> list[int]:
    """The indexes of the rows a page may start with, in order: every row, or with `keep_together` the first
    row of each run of rows with the same value in that column (a table's seats)."""
    if table.keep_together is None:
        return list(range(len(rows)))
    column = [column.key for column in table.columns].index(table.keep_together)
    return [index for index, row in enumerate(rows)
            if index == 0 or row[column]["text"] != rows[index - 1][column]["text"]]


def row_height(row: list[dict[str, str]], columns_mm: list[float], kind: TableType = REGULAR, *,
               bold: bool = False) -> float:
    lines = max((wrapped_lines(cell["text"], width, bold=bold, font_pt=kind.font_pt)
                 for cell, width in zip(row, columns_mm, strict=True)), default=1)
    return lines * kind.line_mm + kind.row_padding_mm


#: where a line may break inside a word besides its spaces: after a hyphen, unless a digit follows (as in "-5")
AFTER_HYPHEN = re.compile(r"(?<=-)(?=[^\d-])")


def wrapped_lines(text: str, width_mm: float, *, bold: bool = False, font_pt: float = 10) -> int:
    """How many lines `text` takes in a column `width_mm` wide, in type of `font_pt`, wrapped as WeasyPrint
    wraps it: between words and after a hyphen ("Oberhuber-|Schmidt"); a word longer than the column starts a
    line of its own and breaks between its letters (print.css: overflow-wrap)."""
    if not text:
        return 1

    def width(piece: str) -> float:
        return text_width(piece, bold=bold, font_pt=font_pt)

    space = width(" ")
    lines, used = 1, 0.0
    for word in text.split():
        for index, piece in enumerate(AFTER_HYPHEN.split(word)):
            gap = space if used and index == 0 else 0.0
            piece_mm = width(piece)
            if used and used + gap + piece_mm > width_mm:
                lines, used, gap = lines + 1, 0.0, 0.0
            if used + gap + piece_mm <= width_mm:
                used += gap + piece_mm
                continue
            for char in piece:  # longer than the column (rare: see column_need): letter by letter
                char_mm = width(char)
                if used and used + char_mm > width_mm:
                    lines, used = lines + 1, 0.0
                used += char_mm
    return lines


def formatted_row(columns: list[Column], values: tuple) -> list[dict[str, str]]:
    return [
        {"text": format_value(value), "align": column.alignment} for column, value in zip(columns, values, strict=True)
    ]


def column_percentages(columns: list[Column], chunks: Chunks, *, landscape: bool, font_pt: float = 10,
                       padding: float = CELL_PADDING_MM) -> list[float]:
    """Column widths from the content of the whole table, the same on every page.

    The tables use a fixed layout with these widths: WeasyPrint then need not measure every
    cell to size the columns (most of its time on a table), and the columns do not jump about
    from one page's table to the next. Numbers and dates get all the room they need; when the
    page is too narrow, text columns give way, first down to their longest word (names wrap
    between words), then further (long words break).
    """
    available = LANDSCAPE_TEXT_WIDTH_MM if landscape else PORTRAIT_TEXT_WIDTH_MM
    texts = [[row[index]["text"] for chunk in chunks for row in chunk] for index in range(len(columns))]
    sizes = [column_need(column, column_texts, font_pt=font_pt, padding=padding)
             for column, column_texts in zip(columns, texts, strict=True)]
    widths = shrink_to_fit([size[0] for size in sizes], [size[1] for size in sizes], available)
    breakable = [column.kind == "text" and not column.width for column in columns]
    last_resort = [MIN_TEXT_COLUMN_MM if can else width for can, width in zip(breakable, widths, strict=True)]
    widths = shrink_to_fit(widths, last_resort, available)
    return [round(100 * width / sum(widths), 2) for width in widths]


def shrink_to_fit(widths: list[float], floors: list[float], available: float) -> list[float]:
    """Take what the widths exceed `available` by from the columns that have room above their floor."""
    excess = sum(widths) - available
    slack = [max(width - floor, 0) for width, floor in zip(widths, floors, strict=True)]
    if excess <= 0 or not sum(slack):
        return widths
    share = min(1.0, excess / sum(slack))
    return [width - give * share for width, give in zip(widths, slack, strict=True)]


def column_need(column: Column, texts: list[str], *, font_pt: float = 10, padding: float = CELL_PADDING_MM
                ) -> tuple[float, float]:
    """(preferred, least) width of a column in mm, cell padding included.

    A title prefers one line but may wrap between its words; numbers and dates never wrap;
    other text wraps between words. A column given a width (in characters, for Excel) prefers it,
    but never gets less than its longest word: a name is never broken letter by letter.
    """
    def width(text, bold=False):
        return text_width(text, bold=bold, font_pt=font_pt)

    title = str(column.title)
    title_line = width(title, bold=True)
    title_word = max((width(word, bold=True) for word in title.split()), default=0)
    if column.kind == "text":
        longest_word = max((width(word) for text in texts for word in text.split()), default=0)
        longest_text = max((width(text) for text in texts), default=0)
        floor = max(title_word, min(longest_word, MAX_COLUMN_MM))
        need = max(floor, min(max(title_line, longest_text), MAX_COLUMN_MM))
    else:
        longest_value = max((width(text) for text in texts), default=0)
        floor, need = max(title_word, longest_value), max(title_line, longest_value)
    if column.width:
        need = max(need, column.width * EXCEL_CHARACTER_MM * font_pt / 10)
    return need + padding, floor + padding


def text_width(text: str, *, bold: bool = False, font_pt: float = 10) -> float:
    """The printed width of `text` in mm, from the font's own glyph widths (as print.css sets it)."""
    widths, fallback = glyph_widths("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return sum(widths.get(ord(char), fallback) for char in text) * font_pt / 10


@functools.cache
def glyph_widths(font_file: str) -> tuple[dict[int, float], float]:
    font = TTFont(static_dir() / "fonts" / font_file)
    scale = FONT_SIZE_MM / font["head"].unitsPerEm
    metrics = font["hmtx"]
    widths = {code: metrics[glyph][0] * scale for code, glyph in font.getBestCmap().items()}
    return widths, widths[ord("M")]


def page_number_content(total_pages: int | None = None) -> str:
    """CSS `content` for "Page X of Y": translators see one sentence, CSS needs the counters between its pieces.

    A batch of a larger printout gets the whole printout's page count as a number: its own `pages`
    counter would count the batch only.
    """
    sentence = _("Page %(page)s of %(pages)s")
    pages = "counter(pages)" if total_pages is None else css_string(str(total_pages))
    counters = {"%(page)s": "counter(page)", "%(pages)s": pages}
    pieces = re.split(r"(%\(pages?\)s)", sentence)
    return " ".join(counters.get(piece) or css_string(piece) for piece in pieces if piece)


def css_string(text: str) -> str:
    """A CSS string literal safe inside a <style> element (no quote, backslash or "</" can break out)."""
    safe = "".join(char if char.isalnum() or char in " .,:;-" else f"\\{ord(char):x} " for char in text)
    return f'"{safe}"'
