"""The Excel renderer (openpyxl, write-only mode so a large sheet streams instead of sitting in memory).

One sheet per table: a bold header row, panes frozen below it, numbers as numbers, dates as
dates, and the notes under the table. Text is always stored as text: names come from imports
and a name such as "=HYPERLINK(...)" must never become a formula.
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from itertools import chain, islice
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from .base import Column, Document, MultiSheetDocument, TableDocument, tables_of

MAX_SHEET_TITLE = 31
INVALID_SHEET_TITLE_CHARACTERS = re.compile(r"[\[\]:*?/\\]")
#: What a spreadsheet may read as a formula when the text is typed over or the file re-saved as CSV.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
#: Rows read ahead to size the columns; the rest stream straight through.
WIDTH_SAMPLE_ROWS = 200
MIN_WIDTH, MAX_WIDTH = 6, 60
NUMBER_FORMATS = {"decimal": "0.0##", "date": "yyyy-mm-dd", "datetime": "yyyy-mm-dd hh:mm"}
HEADER_FONT = Font(bold=True)


def render_xlsx(document: Document, *, tournament) -> bytes:
    """The document as an .xlsx workbook, titles in the tournament's language."""
    if not isinstance(document, TableDocument | MultiSheetDocument):
        raise TypeError(f"cannot render {type(document).__name__} as Excel: it is a free-form printout")
    with translation.override(tournament.language):
        workbook = Workbook(write_only=True)
        workbook.properties.title = str(document.title)
        workbook.properties.subject = str(tournament.name)
        tables = tables_of(document)
        for table, title in zip(tables, sheet_titles([str(table.title) for table in tables]), strict=True):
            write_sheet(workbook.create_sheet(title), table)
        buffer = io.BytesIO()
        workbook.save(buffer)
    return buffer.getvalue()


def write_sheet(sheet, table: TableDocument) -> None:
    rows = table.row_values()
    sample = list(islice(rows, WIDTH_SAMPLE_ROWS))
    # Write-only sheets take column widths and frozen panes before the first row, hence the sample.
    for index, width in enumerate(column_widths(table.columns, sample), start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    sheet.freeze_panes = "A2"
    sheet.append([header_cell(sheet, column) for column in table.columns])
    for values in chain(sample, rows):
        sheet.append([value_cell(sheet, value, column) for column, value in zip(table.columns, values, strict=True)])
    for line in footer_lines(table):
        sheet.append([text_cell(sheet, str(line))])


def footer_lines(table: TableDocument) -> list:
    """A blank row, then the subtitle and the notes (the header must stay in row 1 for filters and sorting)."""
    lines = [line for line in (table.subtitle, *table.notes) if line]
    return ["", *lines] if lines else []


def header_cell(sheet, column: Column) -> WriteOnlyCell:
    cell = text_cell(sheet, str(column.title))
    cell.font = HEADER_FONT
    if column.alignment != "left":
        cell.alignment = Alignment(horizontal=column.alignment)
    return cell


def value_cell(sheet, value: Any, column: Column) -> WriteOnlyCell:
    if value is None or isinstance(value, bool | int | float):
        return WriteOnlyCell(sheet, value)
    if isinstance(value, Decimal):
        # Excel has only floats; the Decimal stays exact up to this cell.
        cell = WriteOnlyCell(sheet, float(value))
        cell.number_format = NUMBER_FORMATS["decimal"]
        return cell
    if isinstance(value, datetime.datetime):
        # Excel knows no time zones: write the local wall-clock time.
        local = timezone.localtime(value).replace(tzinfo=None) if timezone.is_aware(value) else value
        cell = WriteOnlyCell(sheet, local)
        cell.number_format = NUMBER_FORMATS["datetime"]
        return cell
    if isinstance(value, datetime.date):
        cell = WriteOnlyCell(sheet, value)
        cell.number_format = NUMBER_FORMATS["date"]
        return cell
    cell = text_cell(sheet, str(value))
    if column.alignment != "left":
        cell.alignment = Alignment(horizontal=column.alignment)
    return cell


def text_cell(sheet, text: str) -> WriteOnlyCell:
    """A cell that holds `text` as text, whatever it looks like."""
    text = ILLEGAL_CHARACTERS_RE.sub("", text)  # control characters from an import would abort the save
    cell = WriteOnlyCell(sheet, text)
    # openpyxl turns "=..." into a formula and "#N/A" into an error; forcing the type keeps it literal,
    # and the quote prefix keeps Excel from re-reading it as a formula when someone edits the cell.
    cell.data_type = "s"
    if text.startswith(FORMULA_PREFIXES):
        cell.quotePrefix = True
    return cell


def column_widths(columns: list[Column], sample: list[tuple]) -> Iterator[float]:
    for index, column in enumerate(columns):
        if column.width:
            yield column.width
        else:
            longest = max(chain([len(str(column.title))], (display_length(row[index]) for row in sample)))
            yield min(max(longest + 2, MIN_WIDTH), MAX_WIDTH)


def display_length(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, datetime.datetime):
        return 16
    if isinstance(value, datetime.date):
        return 10
    return len(str(value))


def sheet_titles(titles: Iterable[str]) -> list[str]:
    """Valid, unique sheet titles: at most 31 characters, none of []:*?/\\, not quoted, never empty."""
    result: list[str] = []
    taken: set[str] = set()
    for title in titles:
        cleaned = " ".join(INVALID_SHEET_TITLE_CHARACTERS.sub(" ", title).split())
        base = cleaned.strip("'").strip() or _("Sheet")
        candidate, number = base[:MAX_SHEET_TITLE].rstrip(" '"), 2
        while candidate.casefold() in taken:  # Excel compares sheet titles case-insensitively
            suffix = f" ({number})"
            candidate, number = base[: MAX_SHEET_TITLE - len(suffix)].rstrip() + suffix, number + 1
        taken.add(candidate.casefold())
        result.append(candidate)
    return result
