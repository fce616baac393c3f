"""The one login page of the site, with a brake on password guessing.

Every way in goes through this page: the admin's login page sends its visitors here
(config/urls.py). Attempts are counted per address and user name together, in the database
that all server processes share (tournament/services/logins.py): after a few failures each
further attempt for that pair must wait a growing time, without the password even being
checked. Another address is not affected, so nobody can lock a director out from elsewhere.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..services import logins
from .setup import setup_redirect


def client_address(request) -> str:
    # Behind the reverse proxy of docs/deploy.md every request comes from the proxy; the client
    # is the last address the proxy appended to X-Forwarded-For (earlier ones can be forged).
    if settings.SECURE_PROXY_SSL_HEADER and request.META.get("HTTP_X_FORWARDED_FOR"):
        return request.META["HTTP_X_FORWARDED_FOR"].split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "")


def wait_message(seconds: int) -> str:
    if seconds < 120:
        return ngettext(
            "Too many failed log-in attempts for this user name from this computer. "
            "Please wait %(count)d second and try again.",
            "Too many failed log-in attempts for this user name from this computer. "
            "Please wait %(count)d seconds and try again.",
            seconds,
        ) % {"count": seconds}
    minutes = -(-seconds // 60)
    return ngettext(
        "Too many failed log-in attempts for this user name from this computer. "
        "Please wait %(count)d minute and try again.",
        "Too many failed log-in attempts for this user name from this computer. "
        "Please wait %(count)d minutes and try again.",
        minutes,
    ) % {"count": minutes}


class RateLimitedAuthenticationForm(AuthenticationForm):
    #: seconds the client must wait before trying this user name again (0: not refused)
    retry_after = 0

    def clean(self):
        username = self.cleaned_data.get("username")
        if self.errors or not username or not self.cleaned_data.get("password"):
            # the page shows no per-field errors: say on the form what is missing (not an attempt)
            raise ValidationError(_("Enter your user name and your password."), code="incomplete")
        address = client_address(self.request)
        self.retry_after = logins.reserve_attempt(address, username)
        if self.retry_after:
            raise ValidationError(wait_message(self.retry_after), code="rate_limited")
        cleaned = super().clean()  # a wrong password raises here; the attempt is counted already
        logins.forget_attempts(address, username)
        return cleaned


class RateLimitedLoginView(LoginView):
    authentication_form = RateLimitedAuthenticationForm

    def get(self, request, *args, **kwargs):
        # on the very first start nobody can log in yet: this computer's browser makes the account instead
        return setup_redirect(request) or super().get(request, *args, **kwargs)

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "rate_limited"):
            response.status_code = 429  # Too Many Requests: also tells scripts to back off
            response["Retry-After"] = str(form.retry_after)
        return response
