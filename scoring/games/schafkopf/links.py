"""The director's page of a round's table links: each table's address and QR code, withdraw and reissue."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.views.generic import TemplateView

from scoring.link_pages import link_action, link_url, round_links
from scoring.models import TableLink
from scoring.services.tablelinks import issue_links
from tournament.models import Round

from .queries import rounds_of
from .views import DirectorPage, url

__all__ = ["LinksView", "link_url"]


class LinksView(DirectorPage, TemplateView):
    template_name = "schafkopf/links.html"
    nav = "lists"

    def round(self) -> Round:
        round_ = Round.objects.filter(stage__tournament=self.tournament, number=self.kwargs["round"]).first()
        if round_ is None:
            raise Http404
        return round_

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(round_links(self.round(), self.request), rounds=rounds_of(self.tournament))
        return context

    def post(self, request, *args, **kwargs):
        round_ = self.round()
        link_action(request, TableLink.objects.filter(table__round=round_, revoked_at=None),
                    lambda: issue_links(round_, by=request.user))
        return redirect(url(self.tournament, "links", round_.number))

