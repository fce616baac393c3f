"""Schafkopf result pages: the standings (after each round and final) and the printouts to download.

The standings page shows the same ranking document that the PDF and the Excel export are made of.
"""

from __future__ import annotations

from html import escape as html_escape

from django.http import Http404
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView, View

from documents import formats_for
from documents.base import format_value
from documents.response import document_response
from scoring.seated.views.base import DirectorPage
from scoring.withdrawal_views import PrizeEligibilityView as SharedPrizeEligibilityView
from tournament.public.cache import cached, load_tournament
from tournament.services.seating import current_draw

from .config import settings_of
from .documents import documents, ranking_document
from .standings import standings


class StandingsView(DirectorPage, TemplateView):
    """The ranking after a round or final. Computed once per change of the tournament: the page is cached
    under the newest audit entry's id, the version the public pages use (every service that changes
    results, players, seats or settings writes one), so a new list shows at once and a reload costs
    one query instead of ranking 2,000 players again."""

    template_name = "schafkopf/standings.html"
    nav = "standings"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = settings_of(self.tournament).rounds
        after = self.kwargs.get("round", rounds)
        if not 1 <= after <= rounds:
            raise Http404
        versioned = load_tournament(self.tournament.slug)
        page = cached(versioned, f"schafkopf-standings-{after}", lambda: standings_page(self.tournament, after))
        context.update(page=page, after_choices=range(1, rounds + 1))
        return context


def standings_page(tournament, after_round: int) -> dict:
    """What the standings page shows, as plain text and numbers (so it can be cached)."""
    result = standings(tournament, after_round=after_round)
    document = ranking_document(tournament, result=result)
    return {
        "title": str(document.title),
        "columns": [(str(column.title), CELL_CLASSES[column.alignment]) for column in document.columns],
        "rows": standings_rows_html(document, result),
        "notes": [str(note) for note in document.notes],
        "after_round": result.after_round,
        "final": result.last_round,
        "complete": result.complete,
        "entered": result.lists_entered,
        "total": result.lists_total,
        "document_name": "ranking" if result.last_round else f"ranking-after-{after_round}",
        "missed": missed_rows(result) if result.last_round else [],
    }


def missed_rows(result) -> list[dict]:
    """The ranked players who did not play every round, for the director's prize tick (plain values: cached)."""
    return [
        {"pk": row.participant.pk, "number": row.participant.number, "name": row.participant.name,
         "rank": row.rank, "rounds": ", ".join(str(number) for number in row.missed),
         "eligible": row.participant.prize_eligible, "prize": format_value(row.prize) if row.prize else ""}
        for row in result.rows if row.missed
    ]


class PrizeEligibilityView(SharedPrizeEligibilityView):
    """The tick on the standings page: a player who did not play every round may win a prize."""

    def back_url(self) -> str:
        return reverse("tournament:schafkopf:standings", args=[self.tournament.slug]) + "#prize-eligibility"


CELL_CLASSES = {"right": "num", "center": "center", "left": ""}


def standings_rows_html(document, result) -> SafeString:
    """The ranking's rows as HTML, cell by cell from the same document the PDF and Excel are made of.

    Built directly rather than through a template loop: 2,000 players times 15 columns is the page's
    whole cost. The cell of the step that put a player below the one above is marked, lot rows too.
    """
    columns = document.columns
    classes = [CELL_CLASSES[column.alignment] for column in columns]
    # each cell's opening tag, plain and marked, made once per column instead of once per cell
    opening = [f'<td class="{css}">' for css in classes]
    marked = [f'<td class="{css} sk-decided">' for css in classes]
    where: dict[str, list[int]] = {}
    for index, column in enumerate(columns):
        where.setdefault(column.key, []).append(index)
    lot_columns = where.get("lot", [])
    cell_text = CellText()
    # whole numbers (most cells) written as `str` writes them when the language does the same (CellText)
    plain = cell_text.plain_numbers
    html = []
    for standing, values in zip(result.rows, document.row_values(), strict=True):
        texts = [str(value) if plain and type(value) is int else cell_text(value) for value in values]
        # Mark the tiebreak that decided (points alone decide most places and need no mark).
        decided = standing.separated_by if standing.separated_by not in (None, "points") else None
        heads = opening
        if (decided is not None and decided in where) or (standing.by_lot and lot_columns):
            heads = opening.copy()
            for index in (*where.get(decided, ()), *(lot_columns if standing.by_lot else ())):
                heads[index] = marked[index]
        cells = "".join([f"{head}{text}</td>" for head, text in zip(heads, texts, strict=True)])
        html.append(f'<tr class="{"sk-excluded" if standing.excluded else ""}">{cells}</tr>')
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


PRINTOUTS = (
    ("seating-by-name", gettext_lazy("Seating by name (for the wall)"), ("pdf", "xlsx")),
    ("seating-by-table", gettext_lazy("Seating by table"), ("pdf", "xlsx")),
    ("table-cards", gettext_lazy("Table cards"), ("pdf",)),
    ("participant-cards", gettext_lazy("Participant cards (table and seat for every round)"), ("pdf",)),
    ("standings", gettext_lazy("Standings: every round and the final ranking with prizes"), ("pdf", "xlsx")),
    ("results", gettext_lazy("Results: every round, the ranking and every game"), ("xlsx",)),
)


class PrintoutsView(DirectorPage, TemplateView):
    template_name = "schafkopf/printouts.html"
    nav = "printouts"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = settings_of(self.tournament).rounds
        score_lists = [
            (f"score-lists-{r}", _("Score lists of round %(number)s (one page per table)") % {"number": r}, ("pdf",))
            for r in range(1, rounds + 1)
        ]
        context.update(
            items=[*PRINTOUTS[:4], *score_lists, *PRINTOUTS[4:]],
            drawn=current_draw(self.tournament) is not None,
        )
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
