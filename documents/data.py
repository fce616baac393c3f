"""The JSON renderer: a document as plain data, for the read-only API (tournament/public/api.py).

The third renderer beside the screen/PDF (`documents.html`, `documents.pdf`) and Excel (`documents.xlsx`): the same
document, so a club's website shows what the printed standings show. Values keep their type: whole numbers as
integers, half points and money as numbers (2.5, 81.0), dates as ISO text, a discarded season evening as
`{"value": 22, "counts": false}`; what the pages translate is in the language in force.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from .base import Bracketed, MultiSheetDocument, TableDocument, tables_of


def value_data(value: Any) -> Any:
    """A cell as JSON: None, bool, int, float, text, or a discarded number."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Bracketed):
        return {"value": value_data(value.value), "counts": False}
    if isinstance(value, datetime.date):  # a datetime too
        return value.isoformat()
    return str(value)


def table_data(table: TableDocument) -> dict:
    """A table: its titles, its columns (key, heading, kind) and its rows keyed by the columns' keys."""
    keys = [column.key for column in table.columns]
    return {
        "title": str(table.title),
        "subtitle": str(table.subtitle),
        "columns": [{"key": column.key, "title": str(column.title), "kind": column.kind} for column in table.columns],
        "rows": [dict(zip(keys, map(value_data, values), strict=True)) for values in table.row_values()],
        "notes": [str(note) for note in table.notes],
    }


def document_data(document: TableDocument | MultiSheetDocument) -> dict:
    """A document's title and its tables (one, or one per sheet)."""
    return {"title": str(document.title), "tables": [table_data(table) for table in tables_of(document)]}
