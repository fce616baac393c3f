"""The hall: the addresses the phones and other laptops open, and the poster that shows them.

Whether the hall may reach this computer is a choice of the running server (settings.HALL, read at its start);
the hall page (tournament/views/hall.py) changes it through config.serving, which restarts the server.
"""

from __future__ import annotations

from types import SimpleNamespace
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port

from config.network import is_loopback, local_addresses, url_host
from documents import PrintDocument

#: the poster's one line, in every language of the app at once: a phone's owner reads his own
POSTER_LINES = (
    ("en", "Open this address on your phone"),
    ("de", "Öffnen Sie diese Adresse auf Ihrem Handy"),
    ("da", "Åbn denne adresse på din telefon"),
)
#: the address on the poster is as large as fits the A4 page's width (print/hall-poster.css), at most this size
POSTER_ADDRESS_MAX_PT = 60
POSTER_ADDRESS_WIDTH_MM = 170


def phone_addresses(request) -> list[str]:
    """The addresses a phone in the hall opens, the one to print first: PUBLIC_BASE_URL when it is set to a
    network address, then this computer's network addresses on the port the browser used."""
    port = split_domain_port(request.get_host())[1] or request.get_port()
    suffix = "" if port == "80" else f":{port}"
    found = []
    base = settings.PUBLIC_BASE_URL.rstrip("/")
    if base and not is_loopback(urlsplit(base).hostname or "localhost"):
        found.append(base)
    found += [f"http://{url_host(address)}{suffix}" for address in local_addresses()]
    return list(dict.fromkeys(found))


def poster_address_pt(url: str) -> float:
    """The address's type size on the poster: one line across the page, never wider."""
    from documents.pdf import text_width

    return round(min(POSTER_ADDRESS_MAX_PT, 10 * POSTER_ADDRESS_WIDTH_MM / text_width(url, bold=True)), 1)


def poster_document(url: str) -> PrintDocument:
    """The hall poster: `url` in big letters, its QR code, one line in English, German and Danish."""
    from documents.qr import qr_svg

    context = {"url": url, "qr": qr_svg(url), "lines": POSTER_LINES, "address_pt": poster_address_pt(url)}
    return PrintDocument("tournament/print/hall_poster.html", context, "Tournament manager", "hall-poster")


def poster_frame() -> SimpleNamespace:
    """What the printouts' page frame reads from a tournament, for the poster (which belongs to none): printed
    the same whatever the screen's language. The poster's own page hides the running header and footer."""
    return SimpleNamespace(name="", date=None, venue="", language="en", slug="tournament-manager",
                           time_zone=settings.TIME_ZONE)
