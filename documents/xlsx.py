"""The Excel renderer: a small streaming writer of SpreadsheetML (.xlsx), with no library in between.

One sheet per table: a bold header row, panes frozen below it, numbers as numbers, dates as dates,
and the notes under the table. Text is always stored as text: names come from imports and a name
such as "=HYPERLINK(...)" must never become a formula. Every string is an inline string cell
(`t="inlineStr"`): this writer has no way to write a formula, an error value or a shared formula at
all, and text that Excel might read as a formula once someone edits the cell gets the quote prefix.

Why not openpyxl (the design notes' choice, still what the tests read the files back with): the
Schafkopf results export has 400,000 cells (30,000 games), and openpyxl's write-only mode costs
14-23 µs a cell here, 10.6 s for that export against a target of 3 s; with lxml installed 15 µs,
XlsxWriter (constant_memory) 10 µs. Writing the cells' XML directly costs about 2 µs a cell
(measurements in docs/performance.md). The documents need only a fixed, small part of the format
(typed cells, a handful of cell styles, column widths, a frozen header, the title), written here.
"""

from __future__ import annotations

import datetime
import io
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from itertools import chain, islice
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter

from .base import Bracketed, Column, Document, MultiSheetDocument, TableDocument, tables_of, venue_locale

MAX_SHEET_TITLE = 31
INVALID_SHEET_TITLE_CHARACTERS = re.compile(r"[\[\]:*?/\\]")
#: What a spreadsheet may read as a formula when the text is typed over or the file re-saved as CSV.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
#: Rows read ahead to size the columns; the rest stream straight through.
WIDTH_SAMPLE_ROWS = 200
MIN_WIDTH, MAX_WIDTH = 6, 60
#: Excel writes "." and "," in a format code, and shows them as the reader's Excel is set up ("555,00" in Germany)
NUMBER_FORMATS = {"decimal": "0.0##", "money": "0.00", "bracketed": '"("General")"'}
#: Django's date format letters (SHORT_DATE_FORMAT, SHORT_DATETIME_FORMAT) as Excel's format codes
EXCEL_DATE_CODES = {"d": "dd", "j": "d", "m": "mm", "n": "m", "M": "mmm", "b": "mmm", "N": "mmm", "F": "mmmm",
                    "Y": "yyyy", "y": "yy", "H": "hh", "G": "h", "i": "mm", "s": "ss", "P": "h:mm AM/PM",
                    "A": "AM/PM", "a": "AM/PM", "g": "h"}
#: Rows written to the zip stream at a time.
WRITE_ROWS = 1000
EXCEL_EPOCH = datetime.datetime(1899, 12, 30)

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
#: beyond & < >: a carriage return would be read back as a line feed
XML_ENTITIES = {"\r": "&#13;"}


def render_xlsx(document: Document, *, tournament) -> bytes:
    """The document as an .xlsx workbook, titles in the tournament's language."""
    if not isinstance(document, TableDocument | MultiSheetDocument):
        raise TypeError(f"cannot render {type(document).__name__} as Excel: it is a free-form printout")
    with venue_locale(tournament):
        tables = tables_of(document)
        titles = sheet_titles([str(table.title) for table in tables])
        styles = Styles()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as package:
            for number, (table, title) in enumerate(zip(tables, titles, strict=True), start=1):
                # a title the sheet's tab had to cut ("Provisional — after 8 of 18 score lists") is written whole
                # under the table, where the subtitle and the notes are
                full = str(table.title)
                with package.open(f"xl/worksheets/sheet{number}.xml", "w") as stream:
                    write_sheet(stream, table, styles, full_title=full if full != title else "")
            package.writestr("xl/styles.xml", styles.xml())
            package.writestr("xl/workbook.xml", workbook_xml(titles))
            package.writestr("xl/_rels/workbook.xml.rels", workbook_rels(len(tables)))
            package.writestr("[Content_Types].xml", content_types(len(tables)))
            package.writestr("_rels/.rels", PACKAGE_RELS)
            package.writestr("docProps/core.xml", core_properties(str(document.title), str(tournament.name)))
            package.writestr("docProps/app.xml", APP_PROPERTIES)
    return buffer.getvalue()


# --- cell styles --------------------------------------------------------------------------------------


class Styles:
    """The workbook's cell formats (`cellXfs`), added as the sheets need them; 0 is the default."""

    def __init__(self):
        self.formats: dict[tuple, int] = {(False, None, None, False): 0}
        self.number_formats: dict[str, int] = {}

    def index(self, *, bold: bool = False, number_format: str | None = None, align: str | None = None,
              quote: bool = False) -> int:
        key = (bold, number_format, None if align == "left" else align, quote)
        if key not in self.formats:
            if number_format and number_format not in self.number_formats:
                self.number_formats[number_format] = 164 + len(self.number_formats)  # 0-163 are built in
            self.formats[key] = len(self.formats)
        return self.formats[key]

    def xml(self) -> str:
        number_formats = "".join(f'<numFmt numFmtId="{number}" formatCode={quoteattr(code)}/>'
                                 for code, number in self.number_formats.items())
        formats = []
        for bold, number_format, align, quote in self.formats:
            number = self.number_formats[number_format] if number_format else 0
            attributes = f'numFmtId="{number}" fontId="{int(bold)}" fillId="0" borderId="0" xfId="0"'
            attributes += ' applyNumberFormat="1"' if number else ""
            attributes += ' applyFont="1"' if bold else ""
            attributes += ' quotePrefix="1"' if quote else ""
            if align:
                formats.append(f'<xf {attributes} applyAlignment="1"><alignment horizontal="{align}"/></xf>')
            else:
                formats.append(f"<xf {attributes}/>")
        return (
            f'{XML_HEAD}<styleSheet xmlns="{MAIN_NS}">'
            + (f'<numFmts count="{len(self.number_formats)}">{number_formats}</numFmts>' if number_formats else "")
            + '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
            '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
            '<fills count="2"><fill><patternFill patternType="none"/></fill>'
            '<fill><patternFill patternType="gray125"/></fill></fills>'
            '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
            f'<cellXfs count="{len(formats)}">{"".join(formats)}</cellXfs>'
            '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
            "</styleSheet>"
        )


# --- sheets -----------------------------------------------------------------------------------------


def write_sheet(stream, table: TableDocument, styles: Styles, *, full_title: str = "") -> None:
    rows = table.row_values()
    sample = list(islice(rows, WIDTH_SAMPLE_ROWS))
    columns = "".join(f'<col min="{index}" max="{index}" width="{width}" customWidth="1"/>'
                      for index, width in enumerate(column_widths(table.columns, sample), start=1))
    stream.write((
        f'{XML_HEAD}<worksheet xmlns="{MAIN_NS}" xmlns:r="{REL_NS}">'
        '<sheetViews><sheetView workbookViewId="0">'
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
        '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>'
        f'<sheetFormatPr defaultRowHeight="15"/><cols>{columns}</cols><sheetData>'
    ).encode())
    letters = [get_column_letter(index) for index in range(1, len(table.columns) + 1)]
    header = [text_cell(letter, 1, str(column.title), styles, bold=True, align=column.alignment)
              for letter, column in zip(letters, table.columns, strict=True)]
    lines = [f'<row r="1">{"".join(header)}</row>']
    writers = [cell_writer(letter, column, styles) for letter, column in zip(letters, table.columns, strict=True)]
    number = 1
    for number, values in enumerate(chain(sample, rows), start=2):
        cells = [write(value, number) for write, value in zip(writers, values, strict=True) if value is not None]
        lines.append(f'<row r="{number}">{"".join(cells)}</row>')
        if len(lines) >= WRITE_ROWS:
            stream.write("".join(lines).encode())
            lines.clear()
    for footer, line in enumerate(footer_lines(table, full_title), start=number + 1):
        # the blank row holds an empty cell, so that a reader sees it as a row (openpyxl's read-only mode)
        cell = text_cell("A", footer, str(line), styles) if line else f'<c r="A{footer}"/>'
        lines.append(f'<row r="{footer}">{cell}</row>')
    lines.append('</sheetData><pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" footer="0.5"/>'
                 "</worksheet>")
    stream.write("".join(lines).encode())


def footer_lines(table: TableDocument, full_title: str = "") -> list:
    """A blank row, then the title when the sheet's tab cut it, the subtitle and the notes (the header must stay
    in row 1 for filters and sorting)."""
    lines = [line for line in (full_title, table.subtitle, *table.notes) if line]
    return ["", *lines] if lines else []


def cell_writer(letter: str, column: Column, styles: Styles) -> Callable[[Any, int], str]:
    """A function writing one column's cells (value, row number) as XML: the column's styles looked up once."""
    decimal = styles.index(number_format=NUMBER_FORMATS["decimal"])
    money = styles.index(number_format=NUMBER_FORMATS["money"])
    bracketed = styles.index(number_format=NUMBER_FORMATS["bracketed"])
    date = styles.index(number_format=excel_date_format("SHORT_DATE_FORMAT"))
    date_time = styles.index(number_format=excel_date_format("SHORT_DATETIME_FORMAT"))
    align = column.alignment
    plain, quoted = styles.index(align=align), styles.index(align=align, quote=True)
    plain_attribute = f' s="{plain}"' if plain else ""

    def write(value: Any, row: int) -> str:
        kind = type(value)
        if kind is int:
            return f'<c r="{letter}{row}"><v>{value}</v></c>'
        if kind is str and value.isalnum():  # the common case, a word or a number as text: nothing to clean
            return f'<c r="{letter}{row}"{plain_attribute} t="inlineStr"><is><t>{value}</t></is></c>'
        if kind is str:
            text = ILLEGAL_CHARACTERS_RE.sub("", value)
            style = quoted if text.startswith(FORMULA_PREFIXES) else plain
            return inline_string(letter, row, text, style)
        if kind is bool:
            return f'<c r="{letter}{row}" t="b"><v>{int(value)}</v></c>'
        if isinstance(value, int | float):
            return f'<c r="{letter}{row}"><v>{number_text(value)}</v></c>'
        if isinstance(value, Decimal):
            # an amount of money (two decimals) shows its cents, a half point its half, a whole point none:
            # 555.00, 2.5, 12 (as the pages show them; Excel puts in the reader's decimal comma)
            exponent = value.as_tuple().exponent
            if isinstance(exponent, int) and exponent >= 0:
                return f'<c r="{letter}{row}"><v>{decimal_text(value)}</v></c>'
            style = money if exponent == -2 else decimal
            return f'<c r="{letter}{row}" s="{style}"><v>{decimal_text(value)}</v></c>'
        if isinstance(value, Bracketed):
            return f'<c r="{letter}{row}" s="{bracketed}"><v>{decimal_text(Decimal(value.value))}</v></c>'
        if isinstance(value, datetime.datetime):
            # Excel knows no time zones: write the local wall-clock time.
            local = timezone.localtime(value).replace(tzinfo=None) if timezone.is_aware(value) else value
            return f'<c r="{letter}{row}" s="{date_time}"><v>{serial(local)}</v></c>'
        if isinstance(value, datetime.date):
            return f'<c r="{letter}{row}" s="{date}"><v>{serial(value)}</v></c>'
        return text_cell(letter, row, str(value), styles, align=align)

    return write


def excel_date_format(name: str) -> str:
    """The active language's date format (Django's `name`, e.g. "d.m.Y" in German) as an Excel format code
    ("dd.mm.yyyy"), so that a date in the sheet reads as it does on the pages and printouts."""
    code = []
    for letter in formats.get_format(name):
        if letter in EXCEL_DATE_CODES:
            code.append(EXCEL_DATE_CODES[letter])
        elif letter in " .,:/-":
            code.append(letter)
        else:
            code.append(f'"{letter}"')
    return "".join(code)


def text_cell(letter: str, row: int, text: str, styles: Styles, *, bold: bool = False, align: str | None = None
              ) -> str:
    """A cell that holds `text` as text, whatever it looks like (an inline string is never a formula)."""
    text = ILLEGAL_CHARACTERS_RE.sub("", text)  # control characters are not allowed in XML
    return inline_string(letter, row, text, styles.index(bold=bold, align=align,
                                                         quote=text.startswith(FORMULA_PREFIXES)))


def inline_string(letter: str, row: int, text: str, style: int) -> str:
    space = ' xml:space="preserve"' if text != text.strip() else ""  # else XML readers drop outer spaces
    style_attribute = f' s="{style}"' if style else ""
    return (f'<c r="{letter}{row}"{style_attribute} t="inlineStr"><is><t{space}>{escape(text, XML_ENTITIES)}</t>'
            "</is></c>")


def number_text(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"Excel cannot store {value!r}")
    return repr(value) if isinstance(value, float) else str(value)


def decimal_text(value: Decimal) -> str:
    """A Decimal as the cell's number, written exactly (no float in between): a whole number without a
    decimal point ("34", not "34.0"), so that a reader gets the number the page shows."""
    if not value.is_finite():
        raise ValueError(f"Excel cannot store {value!r}")
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def serial(value: datetime.date) -> str:
    """Excel's date number: days since 1899-12-30, the time of day as the fraction."""
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime.combine(value, datetime.time())
    delta = value - EXCEL_EPOCH
    return number_text(delta.days + delta.seconds / 86400 + delta.microseconds / 86400e6)


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


def shortened(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: cut after a whole word and marked "…" ("Provisional — after 8 of
    18…", not "Provisional — after 8 of 18 sco", which reads as another word); a first word too long is cut."""
    if len(text) <= limit:
        return text.rstrip(" '")
    head = text[: limit - 1]
    if (space := head.rfind(" ")) > limit // 2:
        head = head[:space]
    return head.rstrip(" '—-–,;") + "…"


def sheet_titles(titles: Iterable[str]) -> list[str]:
    """Valid, unique sheet titles: at most 31 characters, none of []:*?/\\, not quoted, never empty."""
    result: list[str] = []
    taken: set[str] = set()
    for title in titles:
        cleaned = " ".join(INVALID_SHEET_TITLE_CHARACTERS.sub(" ", ILLEGAL_CHARACTERS_RE.sub("", title)).split())
        base = cleaned.strip("'").strip() or _("Sheet")
        candidate, number = shortened(base, MAX_SHEET_TITLE), 2
        while candidate.casefold() in taken:  # Excel compares sheet titles case-insensitively
            suffix = f" ({number})"
            candidate, number = shortened(base, MAX_SHEET_TITLE - len(suffix)) + suffix, number + 1
        taken.add(candidate.casefold())
        result.append(candidate)
    return result


# --- the package around the sheets --------------------------------------------------------------------


def workbook_xml(titles: list[str]) -> str:
    sheets = "".join(f'<sheet name={quoteattr(title)} sheetId="{number}" r:id="rId{number}"/>'
                     for number, title in enumerate(titles, start=1))
    return (f'{XML_HEAD}<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}">'
            f'<bookViews><workbookView activeTab="0"/></bookViews><sheets>{sheets}</sheets></workbook>')


def workbook_rels(sheets: int) -> str:
    worksheet = f"{REL_NS}/worksheet"
    links = "".join(f'<Relationship Id="rId{n}" Type="{worksheet}" Target="worksheets/sheet{n}.xml"/>'
                    for n in range(1, sheets + 1))
    return (f'{XML_HEAD}<Relationships xmlns="{PACKAGE_REL_NS}">{links}'
            f'<Relationship Id="rId{sheets + 1}" Type="{REL_NS}/styles" Target="styles.xml"/></Relationships>')


def content_types(sheets: int) -> str:
    types = "application/vnd.openxmlformats-officedocument"
    overrides = "".join(f'<Override PartName="/xl/worksheets/sheet{n}.xml" '
                        f'ContentType="{types}.spreadsheetml.worksheet+xml"/>' for n in range(1, sheets + 1))
    return (
        f'{XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        f'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{types}.spreadsheetml.sheet.main+xml"/>{overrides}'
        f'<Override PartName="/xl/styles.xml" ContentType="{types}.spreadsheetml.styles+xml"/>'
        '<Override PartName="/docProps/core.xml" '
        'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
        f'<Override PartName="/docProps/app.xml" ContentType="{types}.extended-properties+xml"/>'
        "</Types>"
    )


PACKAGE_RELS = (
    f'{XML_HEAD}<Relationships xmlns="{PACKAGE_REL_NS}">'
    f'<Relationship Id="rId1" Type="{REL_NS}/officeDocument" Target="xl/workbook.xml"/>'
    f'<Relationship Id="rId2" Type="{PACKAGE_REL_NS}/metadata/core-properties" Target="docProps/core.xml"/>'
    f'<Relationship Id="rId3" Type="{REL_NS}/extended-properties" Target="docProps/app.xml"/>'
    "</Relationships>"
)

APP_PROPERTIES = (
    f'{XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
    "<Application>Microsoft Excel</Application></Properties>"  # as openpyxl writes it
)


def core_properties(title: str, subject: str) -> str:
    created = timezone.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    clean = [escape(ILLEGAL_CHARACTERS_RE.sub("", text)) for text in (title, subject)]
    return (
        f'{XML_HEAD}<cp:coreProperties '
        'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f'<dc:title>{clean[0]}</dc:title><dc:subject>{clean[1]}</dc:subject>'
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{created}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{created}</dcterms:modified>'
        "</cp:coreProperties>"
    )
