"""The standings page's rows: the direct HTML builder writes exactly what the plain cell-by-cell loop wrote."""

from decimal import Decimal
from functools import partial
from types import SimpleNamespace

from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext_lazy

from documents.base import format_value
from scoring.seated.views import reports
from scoring.seated.views.reports import CELL_CLASSES

#: the rows as Schafkopf's page builds them: its first metric is the points, its classes start "sk-"
standings_rows_html = partial(reports.standings_rows_html, first_metric="points")


def reference_rows_html(document, result) -> str:
    """The builder as it was: one method-free pass per cell."""
    keys = [column.key for column in document.columns]
    classes = [CELL_CLASSES[column.alignment] for column in document.columns]
    html = []
    for standing, values in zip(result.rows, document.row_values(), strict=True):
        decided = standing.separated_by if standing.separated_by not in (None, "points") else None
        cells = []
        for key, css, value in zip(keys, classes, values, strict=True):
            if key == decided or (key == "lot" and standing.by_lot):
                css += " seated-decided"
            cells.append(f'<td class="{css}">{escape(format_value(value))}</td>')
        html.append(f'<tr class="{"seated-excluded" if standing.excluded else ""}">{"".join(cells)}</tr>')
    return "\n".join(html)


class Document:
    def __init__(self, columns, rows):
        self.columns = [SimpleNamespace(key=key, alignment=alignment) for key, alignment in columns]
        self.rows = rows

    def row_values(self):
        return iter(self.rows)


def test_rows_html_is_the_cell_loop_byte_for_byte():
    columns = [("rank", "right"), ("name", "left"), ("club", "left"), ("round1", "right"), ("points", "right"),
               ("tout_won", "right"), ("share", "right"), ("excluded", "center"), ("lot", "center")]
    rows = [
        (1, "Anna <Ä> & Co", "", 55, 74, 1, Decimal("2.5"), False, ""),
        (2, 'Bob "B"', "FC 'X'", None, -1234, 0, Decimal("2.5"), True, gettext_lazy("Lot")),
        (3, "Cäcilie", "FC 'X'", -7, 10**6, True, None, None, gettext_lazy("Lot")),
        (4, "Dora", "Club", 0, 0, 0, 1.5, False, ""),
    ]
    standings = [
        SimpleNamespace(separated_by=None, by_lot=False, excluded=False),
        SimpleNamespace(separated_by="tout_won", by_lot=True, excluded=False),
        SimpleNamespace(separated_by="lot", by_lot=True, excluded=False),
        SimpleNamespace(separated_by="excluded", by_lot=False, excluded=True),
    ]
    result = SimpleNamespace(rows=standings)
    document = Document(columns, rows)
    for language in ("en", "de", "da"):
        with translation.override(language):
            built = standings_rows_html(document, result)
            assert built == reference_rows_html(document, result), language
    assert built.count("seated-decided") == 4  # tout_won and lot, lot, the excluded column
    # the points step needs no mark
    points_only = SimpleNamespace(rows=[SimpleNamespace(separated_by="points", by_lot=False, excluded=False)])
    single = Document(columns, rows[:1])
    assert standings_rows_html(single, points_only) == reference_rows_html(single, points_only)
    assert "seated-decided" not in standings_rows_html(single, points_only)
