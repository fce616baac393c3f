"""The screen renderer: a django-tables2 table built from a TableDocument's columns.

The cells go through the same `format_value` as the PDF, so the web table, the PDF and the
Excel sheet show the same data. Rendered in the screen's language (the PDF uses the tournament's).
"""

from __future__ import annotations

import django_tables2 as tables

from .base import Column, TableDocument, format_value

ALIGN_CLASSES = {"right": "num", "center": "center", "left": ""}


class DocumentColumn(tables.Column):
    def render(self, value):
        return format_value(value)


def table_for(document: TableDocument) -> type[tables.Table]:
    """A Table class with one column per document column, in order, not sortable (documents come ranked)."""
    attrs = {column.key: document_column(column) for column in document.columns}
    meta = type("Meta", (), {"attrs": {"class": "grid"}, "orderable": False, "sequence": list(attrs)})
    return type(f"{type(document).__name__}Table", (tables.Table,), {**attrs, "Meta": meta})


def document_column(column: Column) -> DocumentColumn:
    css_class = ALIGN_CLASSES[column.alignment]
    return DocumentColumn(
        verbose_name=column.title,
        accessor=tables.A(column.key),
        default="",
        attrs={"th": {"class": css_class}, "td": {"class": css_class}} if css_class else {},
    )


def bind_table(document: TableDocument) -> tables.Table:
    """The document's table filled with its rows, ready for `{% render_table %}`."""
    return table_for(document)(document.row_dicts())
