"""Sending a rendered document: the same for every game, and for the seasons' files.

A PDF opens in the browser (inline), to look at or print from there; `?download=1` saves it instead (the
"download" link beside each PDF button). An Excel workbook is always a download: browsers cannot show it.

Every printout and export is answered by `file_response`. On a computer without Pango (WeasyPrint's system
library, which Windows and macOS lack unless installed) a PDF's address answers a page that says what to install,
with status 503, instead of an error; every other page, and every Excel file, works as usual.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse
from django.shortcuts import render as render_page
from django.utils.http import content_disposition_header

from . import CONTENT_TYPES, pdf, render


def document_response(request, document, file_format: str, *, tournament) -> HttpResponse:
    return file_response(request, file_format, f"{tournament.slug}-{document.filename_stem}",
                         lambda: render(document, file_format, tournament=tournament))


def file_response(request, file_format: str, stem: str, make: Callable[[], bytes]) -> HttpResponse:
    """The file `make()` renders, named `stem` and the format's suffix; for a PDF on a computer that cannot make
    one, the page saying what to install (`render_pdf` refuses before it lays out anything)."""
    try:
        data = make()
    except pdf.PdfUnavailable:
        return pdf_unavailable_response(request)
    attachment = file_format != "pdf" or request.GET.get("download") == "1"
    filename = f"{stem}.{file_format}"
    return HttpResponse(data, content_type=CONTENT_TYPES[file_format],
                        headers={"Content-Disposition": content_disposition_header(attachment, filename)})


def pdf_unavailable_response(request) -> HttpResponse:
    return render_page(request, "documents/pdf_unavailable.html", status=503)
