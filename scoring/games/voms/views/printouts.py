"""The Printouts page and the download of one document as PDF or Excel.

Slips and lus boards are printed per round: the page lists every round with its own link,
so one click gives all slips of that round; the knockout slips likewise per knockout round.
Printouts and exports are the director's, as in every game (docs/directors-guide.md, "Accounts and roles"):
the slips carry the tables' link QR codes, which open each table's entry without an account.
"""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import Http404
from django.urls import reverse
from django.views import View
from django.views.generic import TemplateView

from documents.response import document_response
from tournament.permissions import DirectorRequiredMixin
from tournament.views.printjobs import printout_response

from .. import queries
from ..documents import CATALOGUE, build, knockout_round_choices, start_time

FORMAT_LABELS = {"pdf": "PDF", "xlsx": "Excel"}


def document_url(tournament, name: str, file_format: str, round_number: int | None = None) -> str:
    url = reverse("tournament:voms:print", args=[tournament.slug, name, file_format])
    return f"{url}?round={round_number}" if round_number is not None else url


def rounds_with_games(tournament) -> list[dict]:
    """Every round of the pool stage with its time and number of games (one query)."""
    stage = queries.pools_stage(tournament)
    if stage is None:
        return []
    current = queries.current_round(stage)
    rounds = stage.rounds.annotate(games=Count("matches", filter=Q(matches__team_b__isnull=False)))
    return [{"number": r.number, "time": start_time(r), "games": r.games, "current": r == current} for r in rounds]


class PrintoutsView(DirectorRequiredMixin, TemplateView):
    template_name = "voms/print/printouts.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        rounds = rounds_with_games(t)
        entries = []
        for entry in CATALOGUE.values():
            # a PDF opens in the browser; its "download" link saves it instead (documents/response.py)
            links = [(FORMAT_LABELS[f], document_url(t, entry.name, f),
                      document_url(t, entry.name, f) + "?download=1"
                      if f == "pdf" else "")
                     for f in entry.formats]
            item = {"entry": entry, "links": links}
            if entry.per_round:
                item["rounds"] = [{**r, "url": document_url(t, entry.name, "pdf", r["number"])} for r in rounds]
            if entry.per_knockout_round:
                item["knockout_rounds"] = [
                    {"number": number, "name": name, "games": len(matches),
                     "url": document_url(t, entry.name, "pdf", number)}
                    for number, name, matches in knockout_round_choices(t)
                ]
            entries.append(item)
        context.update(entries=entries, drawn=bool(rounds))
        return context


class DocumentView(DirectorRequiredMixin, View):
    """One document by name and format: a PDF opens in the browser (to print), an Excel file downloads."""

    def get(self, request, slug, name, file_format):
        entry = CATALOGUE.get(name)
        if entry is None or file_format not in entry.formats:
            raise Http404
        options = {}
        if entry.per_round:
            options["round_number"] = self.round_number()
        elif entry.per_knockout_round:
            options["round_number"] = self.knockout_round_number()
        document = build(self.tournament, name, **options)
        params = {"round": options["round_number"]} if entry.per_round and options["round_number"] else {}
        if entry.per_knockout_round and options["round_number"]:
            return document_response(request, document, file_format, tournament=self.tournament)  # a few series
        return printout_response(request, document, file_format, tournament=self.tournament, name=name,
                                 params=params)

    def round_number(self) -> int | None:
        value = self.request.GET.get("round")
        if not value:
            return None
        stage = queries.pools_stage(self.tournament)
        if not value.isdigit() or stage is None or not stage.rounds.filter(number=int(value)).exists():
            raise Http404
        return int(value)

    def knockout_round_number(self) -> int | None:
        """The knockout round asked for (1: the first, as the Printouts page numbers them), or None: every
        series still to be played."""
        value = self.request.GET.get("round")
        if not value:
            return None
        if not value.isdigit() or not 1 <= int(value) <= len(knockout_round_choices(self.tournament)):
            raise Http404
        return int(value)
