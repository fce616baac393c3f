"""The director's page of a round's table links: each table's address and QR code, withdraw and reissue."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring.models import TableLink
from scoring.services.tablelinks import current_token, issue_links, reissue_link, revoke_link
from tournament.models import Round
from tournament.public.links import base_url
from tournament.public.qr import qr_svg
from tournament.services.errors import DomainError

from .queries import rounds_of
from .views import DirectorPage, url


def link_url(token: str, request=None) -> str:
    """The absolute address a table's phone opens (PUBLIC_BASE_URL in the hall, like the public pages)."""
    return base_url(request) + reverse("table:entry", args=[token])


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
        round_ = self.round()
        links = {link.table_id: link for link in TableLink.objects.filter(table__round=round_, revoked_at=None)}
        rows = []
        for table in round_.tables.order_by("number").prefetch_related("seats__participant"):
            link = links.get(table.pk)
            token = current_token(link) if link else None
            address = link_url(token, self.request) if token else None
            rows.append({"table": table, "link": link, "url": address, "stale": link is not None and token is None,
                         "qr": qr_svg(address, title=_("Table %(number)s") % {"number": table.number})
                         if address else None})
        context.update(round_number=round_.number, rounds=rounds_of(self.tournament), rows=rows,
                       missing=sum(row["link"] is None for row in rows))
        return context

    def post(self, request, *args, **kwargs):
        round_ = self.round()
        action = request.POST.get("action")
        try:
            if action == "issue":
                made = issue_links(round_, by=request.user)
                messages.success(request, _("%(count)s links issued.") % {"count": len(made)})
            elif action in ("revoke", "reissue"):
                link = get_object_or_404(TableLink, pk=request.POST.get("link") if str(
                    request.POST.get("link", "")).isdigit() else None, table__round=round_, revoked_at=None)
                if action == "revoke":
                    revoke_link(link, by=request.user)
                    messages.success(request, _("The link of table %(number)s is withdrawn.")
                                     % {"number": link.table.number})
                else:
                    reissue_link(link, by=request.user)
                    messages.success(request, _("Table %(number)s has a new link; the old one opens nothing any "
                                                "more.") % {"number": link.table.number})
            else:
                raise Http404
        except DomainError as error:
            messages.error(request, error.message)
        return redirect(url(self.tournament, "links", round_.number))
