"""The one module that imports WeasyPrint: it lays out one HTML and writes it as a PDF.

Importing WeasyPrint loads Pango, a system library that Windows and macOS do not have unless it is installed
(docs/install.md). `documents.pdf` imports this module only when it makes a PDF, and `documents.pdf.pdf_available()`
tries once whether it can be imported, so that every other page works without Pango.

It needs nothing from Django: the batch workers of a large printout (`documents.pdf.render_in_batches`) run it in
processes of their own, started by `spawn` where the system has no fork server, with the HTML and the static
folder as their only inputs.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from weasyprint import HTML
from weasyprint.urls import URLFetcher


class LocalFileFetcher(URLFetcher):
    """Fetches only files under the static folder: a printout must never reach the network.

    Names in a printout come from imports and could be hostile; they are escaped by the
    templates, and even a stray URL that slipped through would be refused here.
    """

    def __init__(self, root: Path):
        super().__init__(allowed_protocols=("file",))
        self.root = root.resolve()

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            raise ValueError(f"refused to fetch {url!r}: printouts load local files only")
        path = Path(url2pathname(parts.path)).resolve()
        if not path.is_relative_to(self.root):
            raise ValueError(f"refused to fetch {url!r}: outside {self.root}")
        return super().fetch(url, headers)


def write_html(html: str, root: Path) -> bytes:
    """`html` laid out and written as a PDF; its stylesheets, fonts and images come from under `root`."""
    return HTML(string=html, base_url=root.as_uri() + "/", url_fetcher=LocalFileFetcher(root)).write_pdf()
