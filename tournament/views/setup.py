"""The one-time set-up page (`/setup/`): the director chooses the user name and password in the browser.

Open only while all of these hold, so that nobody but the person at this computer can ever use it:
- the server was started for it (SETUP_IN_BROWSER: the console command sets it; `make run` and servers keep the
  terminal's `manage.py bootstrap`, which prints a password);
- the client is this computer (a loopback address), and the server is not behind a proxy (whose requests all
  come from a loopback address);
- no account exists yet: the first account made closes the page for good.
While it is open, the start page and the login page lead this computer's browser here.
"""

from __future__ import annotations

import ipaddress
import logging

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View
from django.views.generic import TemplateView

from ..form_focus import FocusFirstError
from ..services.first_start import AccountsExist, accounts_exist, create_director, make_demo_tournaments

logger = logging.getLogger(__name__)


def behind_proxy() -> bool:
    """A reverse proxy in front (docs/deploy.md): every request then comes from a loopback address."""
    return bool(getattr(settings, "BEHIND_PROXY", False)) or settings.SECURE_PROXY_SSL_HEADER is not None


def from_this_computer(request) -> bool:
    """The client is this computer: a loopback address (127.0.0.0/8, ::1), and no proxy in between."""
    if behind_proxy():
        return False
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", "").split("%")[0])
    except ValueError:
        return False
    # a server listening on IPv6 and IPv4 at once sees 127.0.0.1 as ::ffff:127.0.0.1
    return (getattr(address, "ipv4_mapped", None) or address).is_loopback


def setup_is_open(request) -> bool:
    """The set-up page would make the first account for this client now."""
    return settings.SETUP_IN_BROWSER and from_this_computer(request) and not accounts_exist()


def setup_redirect(request):
    """A redirect to the set-up page while it is open for this client, else None (the start and login pages)."""
    if settings.SETUP_IN_BROWSER and request.method == "GET" and setup_is_open(request):
        return redirect("setup")
    return None


class SetupForm(FocusFirstError, forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150, initial="director",
                               validators=[UnicodeUsernameValidator()],
                               help_text=gettext_lazy("Letters, digits and @ . + - _ only."))
    password1 = forms.CharField(label=gettext_lazy("Password"), strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label=gettext_lazy("The same password again"), strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    demo = forms.BooleanField(label=gettext_lazy("Make the demo tournaments"), required=False, initial=True,
                              help_text=gettext_lazy("One tournament of every game with results, to look around in. "
                                                        "Making them takes some seconds."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(autofocus=True, autocomplete="username")
        # what AUTH_PASSWORD_VALIDATORS ask, in Django's own translated words
        self.fields["password1"].help_text = " ".join(password_validation.password_validators_help_texts())

    def clean(self):
        cleaned = super().clean()
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second:
            if first != second:
                # on the first password field: both are empty again after a refusal, so the cursor starts there
                self.add_error("password1", ValidationError(_("The two passwords differ: type the same one twice."),
                                                            code="password_mismatch"))
            else:
                user = get_user_model()(username=cleaned.get("username", ""))
                try:
                    password_validation.validate_password(first, user)
                except ValidationError as error:
                    self.add_error("password1", error)
        return cleaned


class SetupView(View):
    template_name = "tournament/setup.html"

    def dispatch(self, request, *args, **kwargs):
        if not settings.SETUP_IN_BROWSER:
            return render(request, "tournament/setup_closed.html", {"reason": "off"}, status=404)
        if accounts_exist():
            messages.info(request, _("The director's account exists already: log in with it."))
            return redirect("login")
        if not from_this_computer(request):
            return render(request, "tournament/setup_closed.html", {"reason": "remote"}, status=403)
        return super().dispatch(request, *args, **kwargs)

    def get(self, request):
        return render(request, self.template_name, {"form": SetupForm()})

    def post(self, request):
        form = SetupForm(request.POST)
        if not form.is_valid():
            return render(request, self.template_name, {"form": form}, status=400)
        try:
            user = create_director(form.cleaned_data["username"], form.cleaned_data["password1"])
        except AccountsExist:  # another tab or a double click was first
            messages.info(request, _("The director's account exists already: log in with it."))
            return redirect("login")
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Your account is ready, and you are logged in as %(user)s.")
                         % {"user": user.get_username()})
        if form.cleaned_data["demo"]:
            try:
                make_demo_tournaments()
            except Exception:  # the account stands; a demo is only something to look at
                logger.exception("making the demo tournaments failed")
                messages.warning(request, _("The demo tournaments could not all be made; your account is not "
                                            "affected."))
            else:
                messages.success(request, _("The demo tournaments are in the list below: open one to look around."))
        return redirect("tournament:list")


class HomeView(TemplateView):
    """The start page; on the very first start it leads this computer's browser to the set-up page."""

    template_name = "home.html"

    def get(self, request, *args, **kwargs):
        return setup_redirect(request) or super().get(request, *args, **kwargs)
