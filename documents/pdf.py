"""The PDF renderer (WeasyPrint): A4, print CSS, a running header and footer, embedded local fonts.

Printouts are always in the tournament's language, whatever language the screen is in.

Speed: WeasyPrint's slow path is a long table spanning pages, so every page here is one
small table. A long TableDocument is cut into page-sized chunks, each its own table with its
header row. Printouts of many pages (one score list per table) render each page's fragment
and join them into one HTML with page breaks. bench/documents.py compared that with a WeasyPrint
document per page joined by `Document.copy(pages).write_pdf()`: for 500 pages one HTML took 20 %
less CPU but peaked 30 % higher (2.5 against 2.0 GB; WeasyPrint holds every laid-out page until
it writes). One HTML is kept: it is faster, numbers the pages "X of Y" across the whole printout,
and lets a page template link its stylesheet once (on the `first` page).
"""

from __future__ import annotations

import functools
import re
from itertools import islice
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import formats, timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from fontTools.ttLib import TTFont
from weasyprint import HTML
from weasyprint.urls import URLFetcher

from .base import (
    Column,
    Document,
    MultiSheetDocument,
    PrintDocument,
    TableDocument,
    format_value,
    tables_of,
)

#: Rows per page so that a chunk never spills onto a second page: measured with print.css (34 one-line
#: rows fit in portrait, 22 in landscape), less two for names that wrap. A taller chunk is still correct
#: (WeasyPrint carries the rest over, header repeated), only slower. The first page also holds the title.
ROWS_PER_PAGE = {False: 32, True: 20}
TITLE_ROWS = 4
#: Column widths are measured with the body font of print.css (DejaVu Sans 10pt), on A4 less the page margins.
FONT_SIZE_MM = 10 * 25.4 / 72
PORTRAIT_TEXT_WIDTH_MM, LANDSCAPE_TEXT_WIDTH_MM = 210 - 32, 297 - 32
CELL_PADDING_MM = 4 + 1  # 2 mm each side, and 1 mm so that rounding never wraps a number
EXCEL_CHARACTER_MM = 2.25  # Column.width counts characters (Excel's unit: a digit's width)
MAX_COLUMN_MM, MIN_TEXT_COLUMN_MM = 80, 12

Chunks = list[list[list[dict[str, str]]]]  # a table's pages, of rows, of formatted cells


def static_dir() -> Path:
    return Path(settings.BASE_DIR) / "static"


class LocalFileFetcher(URLFetcher):
    """Fetches only files under the static folder: a printout must never reach the network.

    Names in a printout come from imports and could be hostile; they are escaped by the
    templates, and even a stray URL that slipped through would be refused here.
    """

    def __init__(self, root: Path):
        super().__init__(allowed_protocols=("file",))
        self.root = root.resolve()

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            raise ValueError(f"refused to fetch {url!r}: printouts load local files only")
        path = Path(url2pathname(parts.path)).resolve()
        if not path.is_relative_to(self.root):
            raise ValueError(f"refused to fetch {url!r}: outside {self.root}")
        return super().fetch(url, headers)


def render_pdf(document: Document, *, tournament) -> bytes:
    """The document as a PDF in the tournament's language."""
    with translation.override(tournament.language):
        if isinstance(document, PrintDocument):
            fragments = [render_to_string(document.template_name, page) for page in document.page_contexts()]
        elif isinstance(document, TableDocument | MultiSheetDocument):
            fragments = [render_tables_fragment(document)]
        else:
            raise TypeError(f"cannot render {type(document).__name__} as PDF")
        html = render_frame(fragments, tournament=tournament, title=document.title, landscape=document.landscape,
                            qr_page=document.qr_page)
    return write_pdf(html)


def render_pdf_pages(
    template_name: str, pages: list[dict[str, Any]], *, tournament, title: str = "", landscape: bool = False
) -> bytes:
    """One page per context (e.g. 500 score lists, one per table) in one PDF."""
    document = PrintDocument(template_name, {}, title, "", pages=pages, landscape=landscape)
    return render_pdf(document, tournament=tournament)


def render_frame(fragments: list[str], *, tournament, title, landscape: bool, qr_page: str | None = None) -> str:
    """The whole HTML: page setup, running header and footer, and the fragments one after another."""
    from tournament.public.links import public_url
    from tournament.public.qr import qr_svg

    return render_to_string(
        "documents/print.html",
        {
            "tournament": tournament,
            "title": title,
            "fragments": [SafeString(fragment) for fragment in fragments],
            "page_size": "A4 landscape" if landscape else "A4 portrait",
            "page_number_content": mark_safe(page_number_content()),  # built from escaped pieces only
            "printed_at": formats.date_format(timezone.localtime(), "SHORT_DATETIME_FORMAT"),
            # inline SVG: the printouts' URL fetcher refuses data: URIs, and SVG stays sharp at any size
            "qr": qr_svg(public_url(tournament, qr_page)) if qr_page else None,
        },
    )


def write_pdf(html: str) -> bytes:
    root = static_dir()
    return HTML(string=html, base_url=root.as_uri() + "/", url_fetcher=LocalFileFetcher(root)).write_pdf()


def render_tables_fragment(document: TableDocument | MultiSheetDocument) -> str:
    sections = []
    for table in tables_of(document):
        chunks = table_chunks(table, landscape=document.landscape)
        widths = column_percentages(table.columns, chunks, landscape=document.landscape)
        sections.append({"table": table, "chunks": chunks, "widths": widths})
    return render_to_string(
        "documents/pdf_tables.html",
        {"document": document, "multi": isinstance(document, MultiSheetDocument), "sections": sections},
    )


def table_chunks(table: TableDocument, *, landscape: bool) -> Chunks:
    """The table's rows as formatted cells, cut into one chunk per page (at least one, even if empty)."""
    per_page = ROWS_PER_PAGE[landscape]
    rows = (formatted_row(table.columns, values) for values in table.row_values())
    chunks = [list(islice(rows, per_page - TITLE_ROWS))]
    while chunk := list(islice(rows, per_page)):
        chunks.append(chunk)
    return chunks


def formatted_row(columns: list[Column], values: tuple) -> list[dict[str, str]]:
    return [
        {"text": format_value(value), "align": column.alignment} for column, value in zip(columns, values, strict=True)
    ]


def column_percentages(columns: list[Column], chunks: Chunks, *, landscape: bool) -> list[float]:
    """Column widths from the content of the whole table, the same on every page.

    The tables use a fixed layout with these widths: WeasyPrint then need not measure every
    cell to size the columns (most of its time on a table), and the columns do not jump about
    from one page's table to the next. Numbers and dates get all the room they need; when the
    page is too narrow, text columns give way, first down to their longest word (names wrap
    between words), then further (long words break).
    """
    available = LANDSCAPE_TEXT_WIDTH_MM if landscape else PORTRAIT_TEXT_WIDTH_MM
    texts = [[row[index]["text"] for chunk in chunks for row in chunk] for index in range(len(columns))]
    sizes = [column_need(column, column_texts) for column, column_texts in zip(columns, texts, strict=True)]
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


def column_need(column: Column, texts: list[str]) -> tuple[float, float]:
    """(preferred, least) width of a column in mm, cell padding included.

    A title prefers one line but may wrap between its words; numbers and dates never wrap;
    other text wraps between words.
    """
    title = str(column.title)
    title_line = text_width(title, bold=True)
    title_word = max((text_width(word, bold=True) for word in title.split()), default=0)
    if column.width:
        need = floor = column.width * EXCEL_CHARACTER_MM
    elif column.kind == "text":
        longest_word = max((text_width(word) for text in texts for word in text.split()), default=0)
        longest_text = max((text_width(text) for text in texts), default=0)
        floor = max(title_word, min(longest_word, MAX_COLUMN_MM))
        need = max(floor, min(max(title_line, longest_text), MAX_COLUMN_MM))
    else:
        longest_value = max((text_width(text) for text in texts), default=0)
        floor, need = max(title_word, longest_value), max(title_line, longest_value)
    return need + CELL_PADDING_MM, floor + CELL_PADDING_MM


def text_width(text: str, *, bold: bool = False) -> float:
    """The printed width of `text` in mm, from the font's own glyph widths (as print.css sets it)."""
    widths, fallback = glyph_widths("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return sum(widths.get(ord(char), fallback) for char in text)


@functools.cache
def glyph_widths(font_file: str) -> tuple[dict[int, float], float]:
    font = TTFont(static_dir() / "fonts" / font_file)
    scale = FONT_SIZE_MM / font["head"].unitsPerEm
    metrics = font["hmtx"]
    widths = {code: metrics[glyph][0] * scale for code, glyph in font.getBestCmap().items()}
    return widths, widths[ord("M")]


def page_number_content() -> str:
    """CSS `content` for "Page X of Y": translators see one sentence, CSS needs the counters between its pieces."""
    sentence = _("Page %(page)s of %(pages)s")
    counters = {"%(page)s": "counter(page)", "%(pages)s": "counter(pages)"}
    pieces = re.split(r"(%\(pages?\)s)", sentence)
    return " ".join(counters.get(piece) or css_string(piece) for piece in pieces if piece)


def css_string(text: str) -> str:
    """A CSS string literal safe inside a <style> element (no quote, backslash or "</" can break out)."""
    safe = "".join(char if char.isalnum() or char in " .,:;-" else f"\\{ord(char):x} " for char in text)
    return f'"{safe}"'
