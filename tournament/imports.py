"""Reading registration lists from Excel (.xlsx) or CSV.

The first row that is not blank names the columns; names are matched case-insensitively in
English, German or Danish (see `COLUMN_NAMES` and docs/directors-guide.md). Each data row becomes
a dict of the known columns, or a rejection with its row number as the spreadsheet shows it (blank
rows and the header row counted) and a translated reason. Callers import nothing unless every row
is accepted, so a list is never half-imported.

An upload is untrusted: an .xlsx is a zip, and a small one can unpack to gigabytes of XML. Before
openpyxl parses anything, the zip's members are counted and unpacked in chunks (their declared and
their actual sizes) against `MAX_UNPACKED_BYTES`; reading then stops after `MAX_READ_ROWS` rows and
`MAX_CELLS` filled cells.
"""

from __future__ import annotations

import codecs
import csv
import io
import zipfile
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.games import game_of

from .queries import draw_fixed

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5000
MAX_CELL = 120
#: columns read from each row (the known columns are a handful; the rest is ignored)
MAX_COLUMNS = 200
#: rows read at most, blank ones included (a list of MAX_ROWS with room for blank lines and a header)
MAX_READ_ROWS = MAX_ROWS + 1000
#: filled cells read at most (a list of MAX_ROWS people has a handful of columns)
MAX_CELLS = 100_000
#: an .xlsx's members unpacked, all together; a real list of MAX_ROWS people is a few MB
MAX_UNPACKED_BYTES = 16 * 1024 * 1024
#: members of an .xlsx (a workbook has a dozen or two)
MAX_ZIP_MEMBERS = 500

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


def _check_zip(data: bytes) -> None:
    """Refuse an .xlsx that unpacks to more than MAX_UNPACKED_BYTES, by the declared sizes and by unpacking.

    The declared sizes are read first (cheap); the members are then unpacked in chunks and counted, so a
    zip whose headers understate its content is stopped at the limit all the same.
    """
    too_big = ImportFileError(
        _("The Excel file unpacks to more than %(limit)s MB: it cannot be a list of participants.")
        % {"limit": MAX_UNPACKED_BYTES // (1024 * 1024)}
    )
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
            if len(members) > MAX_ZIP_MEMBERS:
                raise too_big
            if sum(member.file_size for member in members) > MAX_UNPACKED_BYTES:
                raise too_big
            unpacked = 0
            for member in members:
                with archive.open(member) as stream:
                    while chunk := stream.read(64 * 1024):
                        unpacked += len(chunk)
                        if unpacked > MAX_UNPACKED_BYTES:
                            raise too_big
    except ImportFileError:
        raise
    except Exception as error:  # noqa: BLE001 - a damaged zip fails in many ways (headers, CRC, compression)
        raise ImportFileError(_("This is not a readable Excel file (.xlsx).")) from error


def _too_many_cells() -> ImportFileError:
    return ImportFileError(
        _("The list has more than %(max)s filled cells; remove what is not needed.") % {"max": MAX_CELLS}
    )


def _too_many_rows() -> ImportFileError:
    return ImportFileError(
        _("The list is longer than %(max)s rows (blank rows included); split it.") % {"max": MAX_READ_ROWS}
    )


def _read_xlsx(data: bytes) -> list[list]:
    from openpyxl import load_workbook

    _check_zip(data)
    rows = []
    cells = 0
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheet = book.worksheets[0]
            # cells right of MAX_COLUMNS are ignored: a row of thousands of columns is read no further
            for row in sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True):
                rows.append(list(row))
                cells += sum(value is not None for value in row)
                if cells > MAX_CELLS:
                    raise _too_many_cells()
                if len(rows) > MAX_READ_ROWS:
                    raise _too_many_rows()
        finally:
            book.close()
    except ImportFileError:
        raise
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
    cells = 0
    try:
        for row in csv.reader(io.StringIO(text), dialect):
            rows.append(row[:MAX_COLUMNS])
            cells += sum(bool(value) for value in row[:MAX_COLUMNS])
            if cells > MAX_CELLS:
                raise _too_many_cells()
            if len(rows) > MAX_READ_ROWS:
                raise _too_many_rows()
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
    # numbered as the spreadsheet numbers them: 1 for its first row, blank rows counted
    numbered = [(number, row) for number, row in enumerate(raw, start=1) if any(_cell_text(c) for c in row)]
    if not numbered:
        raise ImportFileError(_("The file is empty."))
    header_number, header_row = numbered[0]
    header = [_header_key(c) for c in header_row]
    missing = [key for key in required if key not in header]
    if missing:
        raise ImportFileError(
            _("Row %(row)s must name the columns; missing: %(columns)s.")
            % {"row": header_number, "columns": ", ".join(missing)}
        )
    if len(numbered) - 1 > MAX_ROWS:
        raise ImportFileError(_("The list has more than %(max)s rows.") % {"max": MAX_ROWS})
    parsed = ParsedList()
    for offset, row in numbered[1:]:
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


def refuse_after_play(tournament) -> None:
    """Refuse a list for a tournament whose draw is fixed (a result entered, or a round of seats started).

    Nobody imported then could be drawn any more: a team would play in no pool, a player sit at no
    table. The message says what to do instead.
    """
    if not draw_fixed(tournament):
        return
    if game_of(tournament).participants == "team":
        raise ImportFileError(_(
            "Results have been entered, so the pools are fixed and a list can no longer be imported: its teams "
            "would play in no pool. A team can join only until the first result, when the pools are drawn again."))
    raise ImportFileError(_(
        "Play has started, so the seating is fixed and a list can no longer be imported: its players would sit "
        "at no table. Register a late player one by one on the players page instead."))
