"""Sessions kept alive while used, the Content-Security-Policy (config/settings.py), and the page a database
outage gets."""

import logging

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db import InterfaceError, OperationalError
from django.shortcuts import render
from django.utils import timezone

from .requested import tournament_by_slug

logger = logging.getLogger(__name__)

RENEWED_KEY = "_renewed"


class RenewSessionMiddleware:
    """A session expires SESSION_COOKIE_AGE after it was last saved. Saving it again on a request pushes the
    end on, so a director at work is never logged out in the middle of a tournament, while a session left
    alone ends after that idle time. At most every SESSION_RENEW_SECONDS, as each renewal is a database write;
    visitors who are not signed in (the phones) are not touched."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        # is_empty() first: no cookie, no database read. A signed-in session only (an expired one loads empty).
        if session is not None and not session.is_empty() and SESSION_KEY in session:
            now = int(timezone.now().timestamp())
            if now - session.get(RENEWED_KEY, 0) >= settings.SESSION_RENEW_SECONDS:
                session[RENEWED_KEY] = now
        return response


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's policy (CONTENT_SECURITY_POLICY), on every answer but a PDF. Chrome shows a PDF opened in
    the browser in a viewer made of an <embed> and inline styles, which the pages' policy (object-src 'none',
    style-src 'self') would block: a blank page instead of the printout (crbug.com/271452). A PDF runs no
    script of ours, so the policy protects nothing there."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("application/pdf"):
            return response
        return super().process_response(request, response)


class VenueTimeZoneMiddleware:
    """Dates and times of a tournament's pages in its venue's time zone (`Tournament.time_zone`), whoever looks:
    the director's laptop, a phone at a table, a public page. Pages of no tournament keep the installation's
    TIME_ZONE. The tournament is found from the address: /manage/<slug>/…, /p/<slug>/… or a table link /t/<token>/."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request, view_func, view_args, view_kwargs):
        zone = venue_time_zone_of(view_kwargs, request)
        if zone:
            timezone.activate(zone)


def venue_time_zone_of(view_kwargs: dict, request=None) -> str | None:
    """The venue's time zone of the address's tournament. With `request`, a tournament page (/manage/<slug>/…,
    /p/<slug>/…) uses the tournament `tournament.clubaddress.ClubAddressMiddleware` read for the request
    (`request.slug_tournament`, also the game pages' guard's and the views'): one query of the tournament a page."""
    from tournament.clubaddress import addressed_kind
    from tournament.models import Tournament

    if request is not None and addressed_kind(request, view_kwargs)[0] is not Tournament:
        return None
    if isinstance(view_kwargs.get("slug"), str):
        tournament = tournament_by_slug(request, view_kwargs["slug"])
        return tournament.time_zone if tournament is not None else None
    if isinstance(view_kwargs.get("token"), str):
        from scoring.models import TableLink
        from scoring.results.links import hash_of

        return (TableLink.objects.filter(token_hash=hash_of(view_kwargs["token"]))
                .values_list("tournament__time_zone", flat=True).first())
    return None


#: what a lost database connection raises (a PostgreSQL restart, a network cut, the server's connections ended)
DATABASE_OUTAGE = (OperationalError, InterfaceError)
#: how soon a browser may ask again
OUTAGE_RETRY_SECONDS = 10


def database_outage_page(request):
    """503 with a translated page: the database did not answer. Whether something sent may already be in (a
    POST: its transaction may have committed before the connection broke) and that sending it again is safe
    (every save refuses what it already holds: versions and replay keys, docs/operations.md). Renders without
    the database (templates/errors/)."""
    response = render(request, "errors/database.html", {"sent": request.method == "POST"}, status=503)
    response["Retry-After"] = str(OUTAGE_RETRY_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseOutageMiddleware:
    """A view that meets a lost database gets `database_outage_page` instead of a bare 500. A broken
    connection met outside a view (the session saved after it) reaches the 500 handler, which answers the same
    (tournament/views/errors.py). With CONN_HEALTH_CHECKS (config/settings.py) a connection closed by a
    database restart is replaced at the next request's start, so only a request during the outage gets here."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_OUTAGE):
            logger.warning("The database did not answer %s %s: %s", request.method, request.path, exception)
            return database_outage_page(request)
        return None
