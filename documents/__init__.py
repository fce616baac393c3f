"""Documents are renderers: every printout and export is a document, rendered to HTML, PDF or XLSX.

A game's `documents(tournament)` hook returns `{name: callable returning a document}`; a view or
`manage.py export` picks one and calls `render(document, "pdf", tournament=...)`. The data lives
in `documents.base`, the renderers in `documents.html`, `documents.pdf` and `documents.xlsx`.
"""

from .base import Bracketed, Column, Document, MultiSheetDocument, PrintDocument, TableDocument, venue_locale

__all__ = [
    "Bracketed",
    "Column",
    "Document",
    "MultiSheetDocument",
    "PrintDocument",
    "TableDocument",
    "CONTENT_TYPES",
    "formats_for",
    "render",
    "venue_locale",
]

CONTENT_TYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def formats_for(document: Document) -> tuple[str, ...]:
    """The file formats a document can be rendered to: a free-form printout has no table for Excel."""
    return ("pdf",) if isinstance(document, PrintDocument) else ("pdf", "xlsx")


def render(document: Document, file_format: str, *, tournament) -> bytes:
    if file_format not in formats_for(document):
        raise ValueError(f"{type(document).__name__} cannot be rendered as {file_format!r}")
    # Imported here: WeasyPrint is slow to import and only needed when a PDF is made.
    if file_format == "pdf":
        from .pdf import render_pdf

        return render_pdf(document, tournament=tournament)
    from .xlsx import render_xlsx

    return render_xlsx(document, tournament=tournament)
