"""Absolute addresses of the public pages, for QR codes, the beamer and printouts.

PUBLIC_BASE_URL (environment) says how phones in the hall reach the server, e.g. http://192.168.1.20:8000.
`manage.py serve` sets it (`make run`): in the hall to this computer's address in the network, on a loopback
address to that one (http://127.0.0.1:8000, which only this computer opens: the public pages' page says so).
Without it, pages use the address the browser used, and printouts (which have no request) fall back to
http://<this computer's name>:8000.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from django.conf import settings

from config.network import is_loopback

PAGES = ("index", "schedule", "standings", "bracket", "results", "seat", "beamer")


def base_url(request=None) -> str:
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL.rstrip("/")
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return f"http://{socket.gethostname()}:8000"


def printed_for_this_computer_only() -> str:
    """The address the printouts' QR codes and links carry (they have no request) when only this computer opens
    it (a loopback address: `make run` without the hall), else "": then no phone can scan what is printed."""
    url = base_url()
    return url if is_loopback(urlsplit(url).hostname or "localhost") else ""


def public_path(tournament, page: str = "index") -> str:
    """The path of one public page of `tournament`, carrying its club on a server of several clubs."""
    # Imported here: the PDF workers (a `spawn` pool) import documents.pdf, and so this module, before Django's
    # apps are ready; the club's addresses need the models.
    from .clubaddress import club_of, reverse_in_club

    return reverse_in_club(club_of(tournament), f"public:{page}", kwargs={"slug": tournament.slug})


def public_url(tournament, page: str = "index", request=None) -> str:
    """The absolute address of one public page of `tournament`."""
    return base_url(request) + public_path(tournament, page)


def published_page(tournament, page: str) -> str | None:
    """`page` if the director has published that kind of public page, else None: what a printout's QR code
    may lead to (`qr_page` of a document)."""
    return page if getattr(tournament, f"publish_{page}", False) else None
