"""The laptop's side of "Laptop ↔ server": its "Club server" page (the server's address and the club's API token,
the latest pushes) and the tournament page's button "Send to the club's server" (tournament/services/push.py).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404
from django.shortcuts import redirect
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.generic import FormView, View

from ..club_forms import ClubServerForm
from ..models import AuditEntry, ClubServer
from ..permissions import DirectorRequiredMixin
from ..services.errors import DomainError
from ..services.push import Pushed, PushFailed, forget_club_server, push_tournament, save_club_server
from ..tenancy import directs_in, organisation_of

RECENT_PUSHES = 20


def pushed_message(pushed: Pushed) -> SafeString:
    """What the director reads after a push, the server's copy linked (an address the server gave that is not a
    web address stays plain text)."""
    text = (_("Sent to the club's server: it made the tournament there (%(url)s).")
            if pushed.result == "created" else
            _("Sent to the club's server: it updated its copy of the tournament (%(url)s)."))
    url = pushed.url
    if urlsplit(url).scheme in ("http", "https"):
        url = format_html('<a href="{0}">{0}</a>', url)
    return mark_safe(conditional_escape(text) % {"url": conditional_escape(url)})  # noqa: S308 (both escaped)


class ClubServerView(LoginRequiredMixin, FormView):
    """Where this laptop sends its tournaments: a director of the club sets it."""

    template_name = "tournament/club_server.html"
    form_class = ClubServerForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            self.club = organisation_of(request.user)
            if self.club is None or not directs_in(request.user, self.club):
                raise Http404
            self.kept = ClubServer.objects.filter(organisation=self.club).first()
        return super().dispatch(request, *args, **kwargs)

    def get_initial(self):
        return {"url": self.kept.url} if self.kept else {}

    def get_context_data(self, **kwargs):
        pushes = list(AuditEntry.objects.of(self.club).filter(action="tournament.push").select_related("user")
                      [:RECENT_PUSHES])
        return super().get_context_data(kept=self.kept, pushes=pushes, **kwargs)

    def post(self, request, *args, **kwargs):
        if request.POST.get("action") == "forget":
            forget_club_server(self.club, by=request.user)
            messages.success(request, _("The club server is forgotten on this computer."))
            return redirect("club_server")
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        try:
            save_club_server(self.club, by=self.request.user, **form.cleaned_data)
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
            form.focus_first_error()
            return self.form_invalid(form)
        messages.success(self.request, _("Changes saved."))
        return redirect("club_server")

    def form_invalid(self, form):
        form.focus_first_error()
        return super().form_invalid(form)


class PushView(DirectorRequiredMixin, View):
    """The button "Send to the club's server": one push, then back to the tournament's page, which says how it
    went."""

    http_method_names = ["post"]

    def post(self, request, slug):
        try:
            pushed = push_tournament(self.tournament, by=request.user)
        except PushFailed as error:
            messages.error(request, error.message)
        else:
            messages.success(request, pushed_message(pushed))
            for note in pushed.notes:
                messages.info(request, note)
        return redirect(self.tournament)
