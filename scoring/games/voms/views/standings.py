"""The standings page."""

from __future__ import annotations

from django.views.generic import TemplateView

from tournament.permissions import ScoreEntryMixin

from ..standings import cached_standings_page


class StandingsView(ScoreEntryMixin, TemplateView):
    template_name = "voms/standings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["page"] = cached_standings_page(self.tournament)
        return context
