"""Table-game director pages: standings and printouts (overview, settings and seating are the seated layer's,
`scoring.seated.views.pages`).

Views parse input, call one service, render. The score sheet pages are in `entry.py`. Every page
serves every table game: the game comes from the tournament, never from the address.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.views.generic import TemplateView, View

from documents import formats_for
from documents.base import format_value
from documents.response import document_response
from scoring.seated.views.base import DirectorPage, url
from scoring.withdrawal_views import PrizeEligibilityView as SharedPrizeEligibilityView
from tournament.services import seating

from .documents import documents, printout_items, ranking_document
from .standings import standings

# --- standings and printouts ---------------------------------------------------------------------------


class StandingsView(DirectorPage, TemplateView):
    template_name = "tablegames/standings.html"
    nav = "standings"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = self.settings.rounds
        after = self.kwargs.get("round", rounds)
        if not 1 <= after <= rounds:
            raise Http404
        result = standings(self.tournament, after_round=after)
        document = ranking_document(self.tournament, result=result)
        context.update(
            result=result,
            document=document,
            table_rows=standings_rows_html(document, result),
            document_name="standings" if result.last_round else f"standings-after-{after}",
            after_choices=range(1, rounds + 1),
            missed=[row for row in result.rows if row.missed] if result.last_round else [],
        )
        return context


class PrizeEligibilityView(SharedPrizeEligibilityView):
    """The tick on the standings page: a player who did not play every round may win a prize."""

    def back_url(self) -> str:
        return url(self.tournament, "standings") + "#prize-eligibility"


CELL_CLASSES = {"right": "num", "center": "center", "left": ""}


def standings_rows_html(document, result) -> list[SafeString]:
    """The ranking's rows as HTML, from the same document the PDF and Excel are made of.

    The cell of the step that put a player below the one above is marked (tournament points alone
    decide most places and need no mark), and so is the lot.
    """
    columns = document.columns
    classes = [CELL_CLASSES[column.alignment] for column in columns]
    first_metric = result.chain[0].key
    html = []
    for standing, values in zip(result.rows, document.row_values(), strict=True):
        cells = []
        for column, css, value in zip(columns, classes, values, strict=True):
            decided = standing.separated_by not in (None, first_metric) and column.key == standing.separated_by
            if decided or (column.key == "lot" and standing.by_lot):
                css += " tg-decided"
            cells.append(f'<td class="{css}">{escape(format_value(value))}</td>')
        html.append(SafeString(f"<tr>{''.join(cells)}</tr>"))
    return html


class PrintoutsView(DirectorPage, TemplateView):
    template_name = "tablegames/printouts.html"
    nav = "printouts"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(items=printout_items(self.tournament),
                       drawn=seating.current_draw(self.tournament) is not None)
        return context


class DownloadView(DirectorPage, View):
    def get(self, request, *args, name, file_format, **kwargs):
        available = documents(self.tournament)
        if name not in available:
            raise Http404
        document = available[name]()
        if file_format not in formats_for(document):
            raise Http404
        return document_response(request, document, file_format, tournament=self.tournament)

