"""The director's page of a round's table links (the table games): as Schafkopf's, on the shared rows."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.views.generic import TemplateView

from scoring.link_pages import SeatedLinksPage

from .queries import rounds_of
from .views import DirectorPage, url


class LinksView(DirectorPage, SeatedLinksPage, TemplateView):
    template_name = "tablegames/links.html"
    nav = "sheets"

    def get(self, request, *args, **kwargs):
        if self.settings.patience:  # the field enters its results at the referee table: its round's page
            return redirect(url(self.tournament, "round", self.kwargs["round"]))
        return super().get(request, *args, **kwargs)

    def round(self):
        if self.settings.patience:
            raise Http404  # a patience's field enters its results at the referee table
        return super().round()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # the round's score sheets, which carry the links' QR codes (the printouts page's document of that name)
        context["print_url"] = url(self.tournament, "download", f"score-sheets-{self.kwargs['round']}", "pdf")
        return context

    def round_page(self, name: str, number) -> str:
        return url(self.tournament, name, number)

    def rounds(self):
        return rounds_of(self.tournament)
