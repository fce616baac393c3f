"""What a document is: the data of a printout or export, with no idea how it will be rendered.

A game builds documents from its results; the renderers in `documents.html`, `documents.pdf`
and `documents.xlsx` turn the same document into a web table, a PDF and an Excel workbook, so
the three can never disagree. Documents hold plain values (int, Decimal for half points, date,
str); formatting them is the renderers' job, done by `format_value` in the language in force.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils import formats, timezone, translation
from django.utils.functional import Promise

KINDS = ("text", "int", "decimal", "date")
NUMERIC_KINDS = ("int", "decimal")


@dataclass(frozen=True)
class Column:
    """One column of a table: `key` finds the value in a dict row, `title` heads the column."""

    key: str
    title: str | Promise
    kind: str = "text"
    #: width in characters (Excel's unit); None sizes the column from its content
    width: int | None = None
    #: "left", "right" or "center"; None aligns numbers right and everything else left
    align: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"column {self.key!r}: kind must be one of {KINDS}, not {self.kind!r}")
        if self.align not in (None, "left", "right", "center"):
            raise ValueError(f"column {self.key!r}: align must be left, right or center, not {self.align!r}")

    @property
    def alignment(self) -> str:
        return self.align or ("right" if self.kind in NUMERIC_KINDS else "left")


@dataclass(frozen=True)
class TableDocument:
    """A titled table: one web table, one Excel sheet, one section of a PDF.

    `rows` are sequences in column order or dicts keyed by `Column.key`. A list can be
    rendered any number of times; a generator (for a large export) only once.
    `notes` are footnotes printed under the table, such as "decided by lot".
    """

    title: str | Promise
    columns: Sequence[Column]
    rows: Iterable[Sequence[Any] | Mapping[str, Any]]
    subtitle: str | Promise = field(default="", kw_only=True)
    notes: Sequence[str | Promise] = field(default=(), kw_only=True)
    filename_stem: str = field(kw_only=True)
    landscape: bool = field(default=False, kw_only=True)
    #: the public page ("schedule", "seat", ...) a QR code on every printed page points to
    qr_page: str | None = field(default=None, kw_only=True)
    #: a long list in smaller type, about 40 rows a page, cut into pages by the rows' height (see documents.pdf)
    dense: bool = field(default=False, kw_only=True)
    #: a column key: rows that follow each other with the same value there (a table's seats) print on one page
    keep_together: str | None = field(default=None, kw_only=True)
    #: a table handed over whole (a ranking): in the PDF in compact type when that keeps it on one page, which
    #: it does up to about 40 one-line rows on an A4 page (see documents.pdf.COMPACT)
    one_page: bool = field(default=False, kw_only=True)

    def __post_init__(self):
        if self.keep_together is not None and self.keep_together not in [column.key for column in self.columns]:
            raise ValueError(f"{self.filename_stem}: keep_together names no column: {self.keep_together!r}")

    def row_values(self) -> Iterator[tuple]:
        """Each row as a tuple in column order, whichever shape the rows were given in."""
        keys = [column.key for column in self.columns]
        for row in self.rows:
            if isinstance(row, Mapping):
                yield tuple(row.get(key) for key in keys)
            else:
                values = tuple(row)
                if len(values) != len(keys):
                    raise ValueError(f"{self.filename_stem}: a row has {len(values)} values for {len(keys)} columns")
                yield values

    def row_dicts(self) -> list[dict[str, Any]]:
        keys = [column.key for column in self.columns]
        return [dict(zip(keys, values, strict=True)) for values in self.row_values()]


@dataclass(frozen=True)
class MultiSheetDocument:
    """Several tables in one file: an Excel sheet each, a PDF section each (e.g. every pool's standings)."""

    title: str | Promise
    sheets: Sequence[TableDocument]
    filename_stem: str = field(kw_only=True)
    landscape: bool = field(default=False, kw_only=True)
    #: every sheet in smaller type, cut into pages by the rows' height (see documents.pdf)
    dense: bool = field(default=False, kw_only=True)
    #: the public page ("schedule", "seat", ...) a QR code on every printed page points to
    qr_page: str | None = field(default=None, kw_only=True)
    #: pictures of the sheets' numbers (documents.charts, already drawn), on a page of their own after the
    #: sheets in the PDF; an Excel file has the numbers alone
    figures: Sequence[str] = field(default=(), kw_only=True)


@dataclass(frozen=True)
class PrintDocument:
    """A free-form printout (match slips with cut lines, score lists, table cards), PDF only.

    `template_name` renders the body of the printout, not a whole HTML page: the PDF renderer
    adds the page frame (fonts, running header and footer). Without `pages` it is rendered once
    with `context` and must put `break-after: page` (class "page") between its pages itself.
    With `pages` it is rendered once per page context (merged over `context`), one page each:
    the shape for "one score list per table", which keeps every page one small table.
    Every rendering also gets `first` (True only for the first), so a template can link its
    own stylesheet once: all fragments end up in one HTML document.
    """

    template_name: str
    context: Mapping[str, Any]
    title: str | Promise
    filename_stem: str
    pages: Sequence[Mapping[str, Any]] | None = field(default=None, kw_only=True)
    landscape: bool = field(default=False, kw_only=True)
    #: the public page ("schedule", "seat", ...) a QR code on every printed page points to
    qr_page: str | None = field(default=None, kw_only=True)
    #: What many pages have in common (a score list's grid, column titles and legend) is rendered once per
    #: key of `underlays` with this template, and laid under every page whose context names the key as
    #: "underlay"; `template_name` then renders only what differs from page to page (title, names).
    underlay_template: str | None = field(default=None, kw_only=True)
    underlays: Mapping[Hashable, Mapping[str, Any]] = field(default_factory=dict, kw_only=True)

    def page_contexts(self) -> list[dict[str, Any]]:
        pages = [{}] if self.pages is None else self.pages
        return [{"first": index == 0, **self.context, **page} for index, page in enumerate(pages)]


Document = TableDocument | MultiSheetDocument | PrintDocument


def tables_of(document: TableDocument | MultiSheetDocument) -> list[TableDocument]:
    if isinstance(document, MultiSheetDocument):
        return list(document.sheets)
    return [document]


@dataclass(frozen=True)
class Bracketed:
    """A number shown in brackets: a result that is kept but does not count (a season's discarded evening).
    On the screen and in the PDF "(22)"; in Excel the cell stays a number and the brackets are its format."""

    value: int | Decimal


def format_value(value: Any) -> str:
    """A cell's text in the active language: the one formatting rule shared by screen and PDF.

    Half points stay Decimals to the end and print with the language's decimal separator
    ("2,5" in German and Danish); dates use the language's short date format.
    """
    if value is None:
        return ""
    if isinstance(value, Bracketed):
        return f"({format_value(value.value)})"
    if isinstance(value, bool):
        return "✓" if value else ""
    if isinstance(value, datetime.datetime):
        local = timezone.localtime(value) if timezone.is_aware(value) else value
        return formats.date_format(local, "SHORT_DATETIME_FORMAT")
    if isinstance(value, datetime.date):
        return formats.date_format(value, "SHORT_DATE_FORMAT")
    if isinstance(value, int | Decimal | float):
        return formats.number_format(value)
    return str(value)


@contextmanager
def venue_locale(tournament):
    """A printout's or export's language and clock: the tournament's language and its venue's time zone,
    also when made outside a request (`manage.py export`, a backup)."""
    with translation.override(tournament.language), timezone.override(tournament.time_zone):
        yield
