"""The director's page of the Voms table links: a link per pool game (its slip) of a round, and per knockout
series; each with its address and QR code (also printed on the slip), withdraw and reissue."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from scoring.link_pages import closed_note, finished_places, holders_shown, link_action, link_row, withdrawn_links
from scoring.models import ScoreSheet, TableLink
from scoring.models.links import team_side
from scoring.results.links import issue_match_links
from tournament.models import Match
from tournament.permissions import DirectorRequiredMixin

from .. import queries
from ..documents import team_card
from .common import url
from .printouts import document_url

KNOCKOUT = "knockout"


class CurrentLinksView(DirectorRequiredMixin, View):
    """The menu's entry: the links of the current round."""

    http_method_names = ["get"]

    def get(self, request, *args, **kwargs):
        stage = queries.pools_stage(self.tournament)
        current = queries.current_round(stage) if stage else None
        return redirect(url(self.tournament, "links_part", str(current.number) if current else "1"))


class LinksView(DirectorRequiredMixin, TemplateView):
    template_name = "voms/links.html"

    def parts(self) -> list[tuple[str, str]]:
        stage = queries.pools_stage(self.tournament)
        parts = [(str(r.number), _("Round %(number)s") % {"number": r.number})
                 for r in (stage.rounds.order_by("number") if stage else [])]
        if queries.knockout_stage(self.tournament) is not None:
            parts.append((KNOCKOUT, _("Knockout")))
        return parts

    def groups(self) -> list[tuple[str, list[Match]]]:
        """The part's matches, grouped as the page shows them: a round's games, or the knockout's rounds."""
        part = self.kwargs["part"]
        parts = self.parts()
        if not parts:  # nothing drawn yet: the page says to draw the pools first
            return []
        if part not in {key for key, _label in parts}:
            raise Http404
        if part == KNOCKOUT:
            return [(str(name), matches) for name, matches in queries.knockout_rounds(self.tournament)]
        games = list(Match.objects.filter(stage=queries.pools_stage(self.tournament), round__number=int(part),
                                          team_b__isnull=False)
                     .select_related("team_a", "team_b", "pool", "round").order_by("table_number"))
        return [("", games)]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        groups = self.groups()
        matches = [m for _name, ms in groups for m in ms]
        links = {(link.match_id, link.holder): link
                 for link in TableLink.objects.filter(match__in=matches, revoked_at=None)}
        withdrawn = withdrawn_links(TableLink.objects.filter(match__in=matches, revoked_at__isnull=False))
        finished = finished_places(ScoreSheet.objects.filter(match__in=matches))
        # two agreeing reports count: a link (a row) per team of each game
        expected = [1, 2] if self.tournament.agreeing_reports_count else [None]
        shown, missing = [], 0
        for name, ms in groups:
            rows = []
            for match in ms:
                place = (_("Table %(number)s") % {"number": match.table_number} if match.table_number
                         else str(match))
                for holder in holders_shown(expected, links, match.pk):
                    title, label = place, match  # the QR code's title, the place the buttons name
                    if holder is not None:
                        title, label = (_("%(place)s, team %(team)s") % {"place": text, "team": team_side(holder)}
                                        for text in (place, str(match)))
                    row = {"match": match, "holder": holder, "label": label,
                           **link_row(links.get((match.pk, holder)), self.request, title=title,
                                      closed=closed_note(self.tournament, match.pk in finished),
                                      withdrawn=withdrawn.get((match.pk, holder))),
                           "a": team_card(match.team_a) if match.team_a else None,
                           "b": team_card(match.team_b) if match.team_b else None}
                    missing += row["link"] is None
                    rows.append(row)
            shown.append((name, rows))
        part = self.kwargs["part"]
        context.update(groups=shown, missing=missing, per_team=expected != [None], part=part, parts=self.parts(),
                       knockout=part == KNOCKOUT, print_url=self.print_url(part))
        return context

    def print_url(self, part: str) -> str:
        if part == KNOCKOUT:
            return document_url(self.tournament, "seriesslips", "pdf")
        return document_url(self.tournament, "slips", "pdf", int(part))

    def post(self, request, *args, **kwargs):
        matches = [m for _name, ms in self.groups() for m in ms]
        link_action(request, TableLink.objects.filter(match__in=matches, revoked_at=None),
                    lambda: issue_match_links(self.tournament, matches, by=request.user))
        return redirect(url(self.tournament, "links_part", self.kwargs["part"]))
