"""Sending a rendered document: the same for every game.

A PDF opens in the browser (inline), to look at or print from there; `?download=1` saves it instead (the
"download" link beside each PDF button). An Excel workbook is always a download: browsers cannot show it.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.http import content_disposition_header

from . import CONTENT_TYPES, render


def document_response(request, document, file_format: str, *, tournament) -> HttpResponse:
    data = render(document, file_format, tournament=tournament)
    filename = f"{tournament.slug}-{document.filename_stem}.{file_format}"
    attachment = file_format != "pdf" or request.GET.get("download") == "1"
    return HttpResponse(data, content_type=CONTENT_TYPES[file_format],
                        headers={"Content-Disposition": content_disposition_header(attachment, filename)})
