"""The director's page of a round's table links: each table's address and QR code, withdraw and reissue."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.views.generic import TemplateView

from scoring.link_pages import SeatedLinksPage

from .queries import rounds_of
from .views.base import DirectorPage, url


class LinksView(DirectorPage, SeatedLinksPage, TemplateView):
    template_name = "seated/links.html"

    @property
    def nav(self) -> str:
        return self.game.sheets_nav

    def get(self, request, *args, **kwargs):
        if self.game.patience:  # the field enters its results at the referee table: its round's page
            return redirect(url(self.tournament, "round", self.kwargs["round"]))
        return super().get(request, *args, **kwargs)

    def round(self):
        if self.game.patience:
            raise Http404  # a patience's field enters its results at the referee table
        return super().round()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.game.sheets_document:  # the round's score sheets carry the links' QR codes
            name = f"{self.game.sheets_document}-{self.kwargs['round']}"
            context["print_url"] = url(self.tournament, "download", name, "pdf")
        return context

    def round_page(self, name: str, number) -> str:
        return url(self.tournament, name, number)

    def rounds(self):
        return rounds_of(self.tournament)
