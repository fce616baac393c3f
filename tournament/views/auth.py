"""The login page with a rate limit against password guessing.

After `LIMIT` failed logins for one user name, or from one address, within `WINDOW` seconds,
every further attempt for that name or from that address is refused for `LOCKOUT` seconds
without the password even being checked, so the right password does not get in either.

The counts live in Django's cache. Each entry stores its own timestamps instead of relying on
the cache's expiry, so the window is exact and tests can move the clock.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext as _

LIMIT = 5
WINDOW = 15 * 60
LOCKOUT = 15 * 60
CACHE_PREFIX = "login-failures"


def now() -> float:
    return time.time()


def client_address(request) -> str:
    # Behind the reverse proxy of docs/deploy.md every request comes from the proxy; the client
    # is the last address the proxy appended to X-Forwarded-For (earlier ones can be forged).
    if settings.SECURE_PROXY_SSL_HEADER and request.META.get("HTTP_X_FORWARDED_FOR"):
        return request.META["HTTP_X_FORWARDED_FOR"].split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "")


def _key(kind: str, value: str) -> str:
    # hashed: user names may hold characters a cache backend does not accept in keys
    digest = hashlib.sha256(value.encode("utf-8")).hexdigest()
    return f"{CACHE_PREFIX}:{kind}:{digest}"


def attempt_keys(request, username: str | None) -> list[str]:
    keys = [_key("ip", client_address(request))]
    if username:
        keys.append(_key("user", username.strip().casefold()))
    return keys


def _state(key: str) -> dict:
    return cache.get(key) or {"failures": [], "locked_until": 0.0}


def is_locked(keys: list[str]) -> bool:
    moment = now()
    return any(_state(key)["locked_until"] > moment for key in keys)


def record_failure(keys: list[str]) -> None:
    moment = now()
    for key in keys:
        state = _state(key)
        failures = [t for t in state["failures"] if t > moment - WINDOW] + [moment]
        locked_until = state["locked_until"]
        if len(failures) >= LIMIT:
            failures, locked_until = [], moment + LOCKOUT
        cache.set(key, {"failures": failures, "locked_until": locked_until}, timeout=WINDOW + LOCKOUT)


def forget_failures(key: str) -> None:
    cache.delete(key)


class RateLimitedAuthenticationForm(AuthenticationForm):
    def clean(self):
        username = self.cleaned_data.get("username")
        keys = attempt_keys(self.request, username)
        if is_locked(keys):
            raise ValidationError(
                _("Too many failed log-in attempts for this user name or from this computer. "
                  "Please wait %(minutes)s minutes and try again.") % {"minutes": LOCKOUT // 60},
                code="rate_limited",
            )
        if self.errors:
            # the page shows no per-field errors: say on the form what is missing
            raise ValidationError(_("Enter your user name and your password."), code="incomplete")
        try:
            cleaned = super().clean()
        except ValidationError:
            record_failure(keys)
            raise
        # A correct login clears the user name's count; the address keeps its own, or a guesser
        # with one account could reset it between guesses at others.
        if username and self.get_user() is not None:
            forget_failures(keys[-1])
        return cleaned


class RateLimitedLoginView(LoginView):
    authentication_form = RateLimitedAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "rate_limited"):
            response.status_code = 429  # Too Many Requests: also tells scripts to back off
        return response
