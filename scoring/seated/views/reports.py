"""A seated game's result pages for the director: the standings (after each round and final), the printouts
to download, the download itself and the prize-eligibility tick. One set of views for every seated game: the
seated URLconf (`scoring.seated.urls`) mounts them with the game's `SeatedPrintouts` (`printouts=`), which names
its documents; the menu, settings and URL names are the `SeatedGame`'s (`SeatedPage`).

The standings page shows the same ranking document that the PDF and the Excel export are made of.
"""

from __future__ import annotations

from html import escape as html_escape

from django.http import Http404
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from documents import formats_for
from documents.base import format_value
from documents.charts import chart_html
from scoring.withdrawal_views import PrizeEligibilityView as SharedPrizeEligibilityView
from tournament.public.cache import cached, load_tournament
from tournament.services.seating import current_draw
from tournament.views.printjobs import printout_response

from ..game import seated_game
from ..progression import Ranked, progression_chart
from .base import DirectorPage

CELL_CLASSES = {"right": "num", "center": "center", "left": ""}


class ReportPage(DirectorPage):
    """A director's result page of a seated game: `printouts` (given by the seated URLconf) is the game's
    catalogue; `namespace` names the game's pages in the templates."""

    printouts = None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(printouts=self.printouts, namespace=f"tournament:{self.game.namespace}")
        return context


class StandingsView(ReportPage, TemplateView):
    """The ranking after a round or final. Computed once per change of the tournament: the page is cached
    under the newest audit entry's id, the version the public pages use (every service that changes
    results, players, seats or settings writes one), so a new result shows at once and a reload costs
    one query instead of ranking 2,000 players again."""

    template_name = "seated/standings.html"
    nav = "standings"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = self.settings.rounds
        after = self.kwargs.get("round", rounds)
        if not 1 <= after <= rounds:
            raise Http404
        versioned = load_tournament(self.tournament.slug, self.tournament.organisation_id)
        page = cached(versioned, f"{self.game.namespace}-standings-{after}",
                      lambda: standings_page(self.printouts, self.tournament, after))
        context.update(page=page, after_choices=range(1, rounds + 1))
        return context


def standings_page(printouts, tournament, after_round: int) -> dict:
    """What the standings page shows, as plain text and numbers (so it can be cached)."""
    result = printouts.standings(tournament, after_round=after_round)
    document = printouts.ranking_document(tournament, result=result)
    first_metric = printouts.chain(result)[0].key
    return {
        "title": str(document.title),
        "columns": [(str(column.title), CELL_CLASSES[column.alignment]) for column in document.columns],
        "rows": standings_rows_html(document, result, first_metric=first_metric),
        "notes": [str(note) for note in document.notes],
        "after_round": result.after_round,
        "final": result.last_round,
        "complete": result.complete,
        "document_name": printouts.ranking_stem(None if result.last_round else after_round),
        "prize_money": printouts.prize_money,
        "chart": standings_chart(result, metric=_(printouts.chain(result)[0].name)),
        **printouts.standings_extra(tournament, result),
    }


def ranked_rows(result) -> list[Ranked]:
    """The ranking's rows as the progression picture reads them; an excluded player (Schafkopf) is not drawn."""
    return [Ranked(None if getattr(row, "excluded", False) else row.rank, row.participant.number,
                   row.participant.name, row.rounds) for row in result.rows]


def standings_chart(result, *, metric: str) -> SafeString | None:
    """The top of the ranking round by round (`scoring.seated.progression`), drawn; None before any result."""
    chart = progression_chart(ranked_rows(result), metric=metric)
    return chart_html(chart) if chart else None


def standings_rows_html(document, result, *, first_metric: str) -> SafeString:
    """The ranking's rows as HTML, cell by cell from the same document the PDF and Excel are made of.

    Built directly rather than through a template loop: 2,000 players times 15 columns is the page's
    whole cost. The cell of the step that put a player below the one above is marked (`first_metric` alone
    decides most places and needs no mark), lot rows too; so is an excluded player's row (Schafkopf's
    rows say whether one is, `excluded`).
    """
    columns = document.columns
    classes = [CELL_CLASSES[column.alignment] for column in columns]
    # each cell's opening tag, plain and marked, made once per column instead of once per cell
    opening = [f'<td class="{css_class}">' for css_class in classes]
    marked = [f'<td class="{css_class} seated-decided">' for css_class in classes]
    where: dict[str, list[int]] = {}
    for index, column in enumerate(columns):
        where.setdefault(column.key, []).append(index)
    lot_columns = where.get("lot", [])
    cell_text = CellText()
    # whole numbers (most cells) written as `str` writes them when the language does the same (CellText)
    plain = cell_text.plain_numbers
    rows = ('<tr class="">', '<tr class="seated-excluded">')
    html = []
    for standing, values in zip(result.rows, document.row_values(), strict=True):
        texts = [str(value) if plain and type(value) is int else cell_text(value) for value in values]
        decided = standing.separated_by if standing.separated_by not in (None, first_metric) else None
        heads = opening
        if (decided is not None and decided in where) or (standing.by_lot and lot_columns):
            heads = opening.copy()
            for index in (*where.get(decided, ()), *(lot_columns if standing.by_lot else ())):
                heads[index] = marked[index]
        cells = "".join([f"{head}{text}</td>" for head, text in zip(heads, texts, strict=True)])
        # only Schafkopf excludes a player (its rows say so); a table game's rows have no such mark
        html.append(f'{rows[bool(getattr(standing, "excluded", False))]}{cells}</tr>')
    return SafeString("\n".join(html))


class CellText:
    """`format_value`, escaped, for 30,000 cells: each distinct value is formatted once, and whole numbers
    not at all when the language writes them as Python does (then `str` gives the very same text)."""

    def __init__(self):
        self.plain_numbers = format_value(-1234) == "-1234"
        self.known: dict = {}

    def __call__(self, value) -> str:
        kind = type(value)
        if kind is int and self.plain_numbers:
            return str(value)
        if kind is str:
            # the text of django's `escape`, without its lazy-string wrapper (4,000 names and clubs)
            return html_escape(value)
        key = (kind, value) if kind is int else id(value)
        if key not in self.known:
            self.known[key] = escape(format_value(value))
        return self.known[key]


class PrintoutsView(ReportPage, TemplateView):
    template_name = "seated/printouts.html"
    nav = "printouts"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(items=self.printouts.printout_items(self.tournament),
                       drawn=current_draw(self.tournament) is not None)
        return context


class DownloadView(ReportPage, View):
    def get(self, request, *args, name, file_format, **kwargs):
        available = self.printouts.documents(self.tournament)
        if name not in available:
            raise Http404
        document = available[name]()
        if file_format not in formats_for(document):
            raise Http404
        return printout_response(request, document, file_format, tournament=self.tournament, name=name)


class PrizeEligibilityView(SharedPrizeEligibilityView):
    """The tick on the standings page: a player who did not play every round may win a prize."""

    printouts = None

    def back_url(self) -> str:
        return reverse(f"tournament:{seated_game(self.tournament).namespace}:standings",
                       args=[self.tournament.slug]) + "#prize-eligibility"
