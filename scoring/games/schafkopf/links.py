"""The director's page of a round's table links: each table's address and QR code, withdraw and reissue."""

from __future__ import annotations

from django.views.generic import TemplateView

from scoring.link_pages import SeatedLinksPage, link_url

from .queries import rounds_of
from .views import DirectorPage, url

__all__ = ["LinksView", "link_url"]


class LinksView(DirectorPage, SeatedLinksPage, TemplateView):
    template_name = "schafkopf/links.html"
    nav = "lists"

    def round_page(self, name: str, number) -> str:
        return url(self.tournament, name, number)

    def rounds(self):
        return rounds_of(self.tournament)
