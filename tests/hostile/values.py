"""Hypothesis strategies for hostile form values and uploaded files."""

from __future__ import annotations

import codecs
import csv
import io
import zipfile

from hypothesis import strategies as st

FORMULAS = ('=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3+cmd", "=1+1")
MARKUP = ("<script>alert(1)</script>", "<b>x</b>", '"onmouseover="alert(1)', "'><img src=x onerror=alert(1)>")

#: values that break naive parsing: types, signs, sizes, unicode oddities
HOSTILE = (
    "", " ", "\t\n ", "0", "-0", "-1", "-13", "1.5", "-2.5", "2,5", "1e5", "1e400", "0x10", "+7", "  7  ",
    str(10**30), str(-10**30), str(2**63), str(2**31), "9" * 5000, "NaN", "inf", "-Infinity", "None", "null",
    "true", "on", "[]", "{}", "²", "٣", "１２", "Ⅻ", "\x00", "a\x00b", "\u202eevil\u202c", "\u200b", "😀" * 3,
    "x" * 10_000, "ä" * 200, "\ud7ff", "%s %(x)s {0}", "'; DROP TABLE tournament_participant; --",
    "../../etc/passwd", *FORMULAS, *MARKUP,
)

hostile_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(min_value=-10**31, max_value=10**31).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(max_size=40),
)

# --- uploads -------------------------------------------------------------------------------------------


def xlsx(rows, *, as_text=False) -> bytes:
    """An Excel file of these rows; `as_text`: "=..." stays text, as typed after a quote mark in Excel."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(list(row))
        if as_text:
            for cell in sheet[sheet.max_row]:
                if isinstance(cell.value, str):
                    cell.data_type = "s"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def csv_text(rows) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


PLAYERS_HEADER = ["Number", "First name", "Last name", "Club", "Group", "Team", "Player 1", "Player 2", "Seeded"]
SOME_ROWS = [PLAYERS_HEADER, [1, "Anna", "Huber", "TSV", "", "Anna/Bea", "Anna Huber", "Bea Maier", ""],
             [2, "Bea", "Maier", "SC", "", "Cleo/Dora", "Cleo Berg", "Dora Lund", "x"]]
GOOD_XLSX = xlsx(SOME_ROWS)
GOOD_CSV = csv_text(SOME_ROWS).encode()


#: (file name, content): each is refused with a message or imported whole
UPLOADS = (
    ("empty.csv", b""),
    ("blank.csv", b" \r\n\t"),
    ("noise.xlsx", bytes(range(256)) * 4),
    ("noise.csv", bytes(range(256)) * 4),
    ("truncated.xlsx", GOOD_XLSX[: len(GOOD_XLSX) // 2]),
    ("corrupt.xlsx", GOOD_XLSX[:200] + b"\x00" * 300 + GOOD_XLSX[500:]),
    ("notxlsx.xlsx", zip_of({"hello.txt": b"hi"})),
    ("badxml.xlsx", zip_of({"[Content_Types].xml": b"<Types", "xl/workbook.xml": b"<<<"})),
    ("players.exe", GOOD_CSV),
    ("players.xlsx", GOOD_CSV),
    ("players.csv", GOOD_XLSX),
    ("utf16.csv", codecs.BOM_UTF16_LE + csv_text(SOME_ROWS).encode("utf-16-le")),
    ("latin1.csv", csv_text([*SOME_ROWS, [3, "Jörg", "Müßig", "Ærø", "", "Jörg/Åse", "Jörg M", "Åse Ø", ""]])
     .encode("latin-1")),
    ("bom.csv", codecs.BOM_UTF8 + GOOD_CSV),
    ("semicolon.csv", csv_text(SOME_ROWS).replace(",", ";").encode()),
    ("formulas.csv", csv_text([PLAYERS_HEADER, *[[n, f, f, f, "", f + str(n), f, f, ""]
                                                   for n, f in enumerate(FORMULAS, start=10)]]).encode()),
    ("formulas.xlsx", xlsx([PLAYERS_HEADER, *[[n, f, f, f, "", f + str(n), f, f, ""]
                                             for n, f in enumerate(FORMULAS, start=10)]], as_text=True)),
    ("computed.xlsx", xlsx([PLAYERS_HEADER, *[[n, f, f, f, "", f + str(n), f, f, ""]
                                             for n, f in enumerate(FORMULAS, start=10)]])),
    ("markup.csv", csv_text([PLAYERS_HEADER, *[[n, m.replace(",", " "), "X", "", "", f"T{n}", "A B", "C D", ""]
                                               for n, m in enumerate(MARKUP, start=20)]]).encode()),
    ("wide.csv", csv_text([PLAYERS_HEADER + [f"c{i}" for i in range(5000)],
                           [1, "A", "B", "", "", "T", "A B", "C D", ""] + ["x"] * 5000]).encode()),
    ("wide.xlsx", xlsx([PLAYERS_HEADER + [f"c{i}" for i in range(3000)],
                        [1, "A", "B", "", "", "T", "A B", "C D", ""] + ["x"] * 3000])),
    ("headeronly.csv", ",".join(PLAYERS_HEADER).encode()),
    ("noheader.csv", b"1,2,3\n4,5,6\n"),
    ("numbers.csv", csv_text([PLAYERS_HEADER, [str(10**30), "A", "B", "", "", "T", "A B", "C D", ""],
                              ["-5", "C", "D", "", "", "U", "E F", "G H", ""],
                              ["1.5", "E", "F", "", "", "V", "I J", "K L", ""]]).encode()),
    ("duplicates.csv", csv_text([PLAYERS_HEADER, SOME_ROWS[1], SOME_ROWS[1]]).encode()),
    ("nul.csv", GOOD_CSV.replace(b"Anna", b"An\x00na")),
    ("hugefield.csv", b'Number,First name,Last name\r\n1,"' + b"x" * 200_000 + b'",B\r\n'),
    ("quote.csv", b'Number,First name,Last name\r\n1,"unterminated,B\r\n2,C,D\r\n'),
    ("long.csv", csv_text([PLAYERS_HEADER, [1, "x" * 500, "B", "", "", "T", "A B", "C D", ""]]).encode()),
    ("json.json", b'{"format": 1}'),
    ("deep.json", b"[" * 100_000 + b"]" * 100_000),
)

uploads = st.one_of(
    st.sampled_from(UPLOADS),
    st.tuples(st.sampled_from(["x.csv", "x.xlsx", "x.json", "x.txt", "x"]), st.binary(max_size=2000)),
    st.tuples(st.sampled_from(["x.csv", "x.txt"]), st.text(max_size=300).map(lambda s: s.encode("utf-8", "replace"))),
)
