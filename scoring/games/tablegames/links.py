"""The director's page of a round's table links (the table games): as Schafkopf's, on the shared rows."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.views.generic import TemplateView

from scoring.link_pages import link_action, round_links
from scoring.models import TableLink
from scoring.services.tablelinks import issue_links
from tournament.models import Round, Stage

from .queries import rounds_of
from .views import DirectorPage, url


class LinksView(DirectorPage, TemplateView):
    template_name = "tablegames/links.html"
    nav = "sheets"

    def get(self, request, *args, **kwargs):
        if self.settings.patience:  # the field enters its results at the referee table: its round's page
            return redirect(url(self.tournament, "round", self.kwargs["round"]))
        return super().get(request, *args, **kwargs)

    def round(self) -> Round:
        if self.settings.patience:
            raise Http404  # a patience's field enters its results at the referee table
        round_ = Round.objects.filter(stage__tournament=self.tournament, stage__kind=Stage.Kind.ROUNDS,
                                      number=self.kwargs["round"]).first()
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
