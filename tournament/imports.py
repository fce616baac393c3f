"""Reading registration lists from Excel (.xlsx) or CSV.

The first row names the columns; names are matched case-insensitively in English,
German or Danish (see `COLUMN_NAMES` and docs/directors-guide.md). Each data row becomes
a dict of the known columns, or a rejection with the row number and a translated reason.
Callers import nothing unless every row is accepted, so a list is never half-imported.
"""

from __future__ import annotations

import codecs
import csv
import io
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5000
MAX_CELL = 120
#: columns read from each row (the known columns are a handful; the rest is ignored)
MAX_COLUMNS = 200

#: column key -> the header names accepted for it
COLUMN_NAMES: dict[str, tuple[str, ...]] = {
    "number": ("number", "no", "nr", "participant number", "teilnehmernummer", "startnummer", "deltagernummer"),
    "first_name": ("first name", "firstname", "vorname", "fornavn"),
    "last_name": ("last name", "lastname", "surname", "name", "nachname", "efternavn", "navn"),
    "club": ("club", "verein", "klub", "forening"),
    "group": ("group", "gruppe", "family", "familie"),
    "team": ("team", "team name", "mannschaft", "hold", "holdnavn"),
    "player1": ("player 1", "player1", "spieler 1", "spiller 1"),
    "player2": ("player 2", "player2", "spieler 2", "spiller 2"),
    "seeded": ("seeded", "gesetzt", "seedet"),
}


class ImportFileError(ValueError):
    """The file as a whole cannot be read (message translated)."""


@dataclass
class ParsedList:
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)

    def reject(self, row_number: int, reason: str) -> None:
        self.rejected.append((row_number, reason))


def _header_key(text: str) -> str | None:
    wanted = " ".join(str(text or "").strip().lower().replace("_", " ").split())
    for key, names in COLUMN_NAMES.items():
        if wanted in names:
            return key
    return None


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def _read_xlsx(data: bytes) -> list[list]:
    from openpyxl import load_workbook

    rows = []
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheet = book.worksheets[0]
            # cells right of MAX_COLUMNS are ignored: a row of thousands of columns is read no further
            for row in sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True):
                rows.append(list(row))
                if len(rows) > MAX_ROWS + 1:
                    break
        finally:
            book.close()
    except Exception as error:  # noqa: BLE001 - whatever openpyxl, zipfile or the XML parser trip over
        # A damaged or forged file fails in many ways (zip, XML, styles, dates); each means the same to the user.
        raise ImportFileError(_("This is not a readable Excel file (.xlsx).")) from error
    return rows


def _decode(data: bytes) -> str:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encodings = ("utf-16",)  # Excel's "Unicode text"
    else:
        encodings = ("utf-8-sig", "cp1252")
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ImportFileError(_("The CSV file's text encoding is not UTF-8, UTF-16 or Windows-1252."))


def _read_csv(data: bytes) -> list[list]:
    text = _decode(data)
    if "\x00" in text:
        raise ImportFileError(_("This does not look like a CSV text file."))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = []
    try:
        for row in csv.reader(io.StringIO(text), dialect):
            rows.append(row[:MAX_COLUMNS])
            if len(rows) > MAX_ROWS + 1:
                break
    except csv.Error as error:  # a field over csv's size limit, a quote left open, ...
        raise ImportFileError(
            _("The CSV file cannot be read (line %(line)s).") % {"line": len(rows) + 1}
        ) from error
    return rows


def read_table(filename: str, data: bytes, *, required: tuple[str, ...]) -> ParsedList:
    """Parse an uploaded list into rows of known columns; reject what cannot be used."""
    if len(data) > MAX_BYTES:
        raise ImportFileError(_("The file is larger than 5 MB; split it or remove what is not needed."))
    if not data.strip():
        raise ImportFileError(_("The file is empty."))
    name = filename.lower()
    if name.endswith(".xlsx"):
        raw = _read_xlsx(data)
    elif name.endswith((".csv", ".txt")):
        raw = _read_csv(data)
    else:
        raise ImportFileError(_("Upload an Excel file (.xlsx) or a CSV file (.csv)."))
    raw = [row for row in raw if any(_cell_text(c) for c in row)]
    if not raw:
        raise ImportFileError(_("The file is empty."))
    header = [_header_key(c) for c in raw[0]]
    missing = [key for key in required if key not in header]
    if missing:
        raise ImportFileError(
            _("The first row must name the columns; missing: %(columns)s.") % {"columns": ", ".join(missing)}
        )
    if len(raw) - 1 > MAX_ROWS:
        raise ImportFileError(_("The list has more than %(max)s rows.") % {"max": MAX_ROWS})
    parsed = ParsedList()
    for offset, row in enumerate(raw[1:], start=2):
        values = {}
        too_long = False
        for key, cell in zip(header, row, strict=False):
            if key is None:
                continue
            text = _cell_text(cell)
            if len(text) > MAX_CELL:
                too_long = True
            values[key] = text
        if too_long:
            parsed.reject(offset, _("A cell is longer than %(max)s characters.") % {"max": MAX_CELL})
            continue
        parsed.rows.append((offset, values))
    return parsed
