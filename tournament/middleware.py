"""Keep a signed-in session alive while it is used (config/settings.py, "Sessions")."""

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.utils import timezone

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
