"""The standings page: the pool tables and, once there is a knockout, the final ranking, written out as HTML
once per version of the tournament and language and cached (`cached_standings_page`). The ranking itself is
computed in `scoring.games.voms.standings`; the rows are the standings document's (`documents.standing_rows`),
the same the PDF and the Excel file are made of."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.views.generic import TemplateView

from documents.base import format_value
from scoring.rules import voms as rules
from scoring.rules.standings import Standing
from tournament.models import Stage
from tournament.permissions import ScoreEntryMixin
from tournament.public.cache import cached, load_tournament

from ..documents import standing_rows
from ..queries import PoolState, knockout_stage, pool_state
from ..services.progress import standings_progress
from ..standings import final_ranking, pool_tables
from ..text import with_note


def cached_standings_page(tournament) -> dict:
    """`standings_page`, computed once per version of the tournament.

    The cache key is the tournament's newest audit entry (tournament/public/cache.py): every slip, correction,
    series game, disqualification, draw and settings change writes one in the same transaction, so a change
    shows at the next request; the language is part of the key too.
    """
    versioned = load_tournament(tournament.slug, tournament.organisation_id)
    return cached(versioned, "voms-standings", lambda: standings_page(tournament))


def standings_page(tournament) -> dict:
    """What the standings page shows, as HTML in the active language (so it can be cached).

    The rows are the standings document's rows (`documents.standing_rows`, the same the PDF and the Excel
    file are made of), written out as HTML in Python: a template loop over 200 teams × 11 cells was most of
    the page's time.
    """
    # The pool games are read once, for the tables and for the heading.
    stage = Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).first()
    state = pool_state(tournament, stage) if stage is not None else PoolState([], rules.derive_pool([]))
    tables = pool_tables(tournament, stage, state=state) if stage is not None else []
    final = None
    text = CellText()
    # "Final ranking" only once every result is in, the final's too; until then "Provisional — after …"
    progress = standings_progress(tournament, state, [len(table.teams) for table in tables])
    heading = progress.heading()
    knockout = knockout_stage(tournament)
    if knockout is not None:
        marks = {team: mark for table in tables for team, mark in table.marks.items()}
        final = SafeString("\n".join(
            f'<tr><td class="num">{text(place)}</td><td>{escape(with_note(team.name, marks, team.pk))}</td></tr>'
            for place, team, _how in final_ranking(tournament, tables, knockout=knockout)))
    pools = [
        {"name": table.pool.name, "complete": table.complete,
         "rows": SafeString("\n".join(row_html(row, standing, text)
                                      for row, standing in zip(standing_rows(table), table.rows, strict=True)))}
        for table in tables
    ]
    # The tables are rendered here, once per version and language, not on every request.
    return {"html": render_to_string("voms/_standings_tables.html",
                                     {"final": final, "heading": heading, "provisional": progress.provisional,
                                      "pools": pools})}


def row_html(row: dict, standing: Standing, text: CellText) -> str:
    h2h = f"{text(row['h2h_points'])} / {text(row['h2h_diff'])}" if row["h2h_points"] is not None else ""
    decided = (f'<strong class="lot">{escape(row["decided_by"])}</strong>' if standing.by_lot
               else escape(row["decided_by"]))
    numbers = "".join(f'<td class="num">{text(row[key])}</td>'
                      for key in ("played", "points", "wins", "lus_for", "lus_against", "lus_diff"))
    return (f'<tr><td class="num">{text(row["rank"])}</td><td>{escape(row["team"])}</td>{numbers}'
            f'<td class="num">{h2h}</td><td>{decided}</td></tr>')


class CellText:
    """`documents.base.format_value` (the PDF's and Excel's formatting), escaped, each distinct value once."""

    def __init__(self):
        self.format = format_value
        self.known: dict = {}

    def __call__(self, value) -> str:
        key = (type(value), value)
        if key not in self.known:
            self.known[key] = escape(self.format(value))
        return self.known[key]


class StandingsView(ScoreEntryMixin, TemplateView):
    template_name = "voms/standings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["page"] = cached_standings_page(self.tournament)
        return context
