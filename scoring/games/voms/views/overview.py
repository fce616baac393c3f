"""The Voms overview, its settings page and the round's board."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from scoring.board_views import ProblemsBoardView
from tournament.permissions import DirectorRequiredMixin, ScoreEntryMixin
from tournament.services.errors import DomainError

from .. import queries
from ..forms import SettingsForm
from ..services.settings import update_settings
from .common import fail, pool_count, url


class OverviewView(ScoreEntryMixin, TemplateView):
    template_name = "voms/overview.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        context.update(
            teams=queries.active_teams(t).count(),
            stage=queries.pools_stage(t),
            knockout=queries.knockout_stage(t),
            settings=queries.settings_of(t),
        )
        return context


class SettingsView(DirectorRequiredMixin, FormView):
    template_name = "voms/form_page.html"
    form_class = SettingsForm

    def get_initial(self):
        s = queries.settings_of(self.tournament)
        return {**s, "start_time": s["start_time"]}

    def form_valid(self, form):
        data = dict(form.cleaned_data)
        data["start_time"] = data["start_time"].strftime("%H:%M")
        for key in ("win_points", "kam_points", "over_points"):
            data[key] = str(data[key].normalize())
        try:
            update_settings(self.tournament, by=self.request.user, changes=data)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Settings saved."))
        return redirect(url(self.tournament, "overview"))

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "pools": pool_count(self.tournament)}

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "title": _("Voms settings")}


class BoardView(ScoreEntryMixin, ProblemsBoardView):
    """The round's board (`scoring.board_views`) under the Voms menu."""

    nav_template = "voms/_nav.html"
