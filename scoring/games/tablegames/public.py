"""Table games on the public pages: the seating of every round, the standings, the finished games, and
"where do I sit" (table and seat in every round, with the others at the table).

Reads through `queries` and `standings`, which take a constant number of queries whatever the number of
players, and turns everything into plain values: names, participant numbers, clubs, tables, seats, scores.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _

from scoring.seated.public import SeatedPublic
from scoring.seated.queries import seated_tables, sheets_by_table
from scoring.withdrawals import MISSED_ROUNDS, seat_remarks
from tournament.public.content import Section, person

from .config import settings_of
from .documents import format_seconds
from .standings import half, standings


class TableGamesPublic(SeatedPublic):
    templates = "public/tablegames"

    def __init__(self, tournament):
        super().__init__(tournament)
        self.settings = settings_of(tournament)
        # A patience has no tables to find: the whole field plays every deal.
        self.kinds = ("standings", "results") if self.settings.patience else ("schedule", "standings", "results")

    def standings_rows(self):
        result = standings(self.tournament)
        patience = self.settings.patience
        first, second = (metric.key for metric in result.chain[:2]) if len(result.chain) > 1 else (
            result.chain[0].key, None)
        rows = []
        for row in result.rows:
            main = row.values.get(first)
            other = row.values.get(second) if second else None
            rows.append({
                "rank": row.rank, **person(row.participant), "by_lot": row.by_lot, "withdrawn": row.withdrawn,
                "missed": MISSED_ROUNDS if row.missed else "", "substitute_only": row.substitute_only,
                # who played whose seat (the mark "withdrawn" is the template's)
                "seats": [str(note) for note in seat_remarks(row, mark_withdrawn=False)],
                "rounds": [value if patience else half(value) for value in row.rounds],
                "main": main if patience else half(main),
                "other": format_seconds(other) if patience and second else self.settings.shown(other),
            })
        data = {
            "rounds": list(range(1, result.after_round + 1)), "complete": result.complete,
            "heading": result.progress.heading(),
            "waiting": any(row["rank"] is None and not row["substitute_only"] for row in rows),
            "substitutes": any(row["substitute_only"] for row in rows),
            "finished": result.finished, "total": result.total, "patience": patience,
            "main_name": _(result.chain[0].abbr), "other_name": _(result.chain[1].abbr) if second else "",
            "metric": _(result.chain[0].name),
        }
        return rows, data

    def progression_metric(self, data) -> str:
        return data["metric"]

    def row_points(self, row: dict):
        return row["main"]

    def row_note(self, row: dict) -> str:
        marks = ([str(_("withdrawn"))] if row["withdrawn"] else []) + row["seats"] + (
            [str(row["missed"])] if row["missed"] else [])
        return " · ".join(marks)

    def standings_section(self, rows: list[dict], data) -> Section:
        return Section("public/tablegames/standings.html", {**data, "rows": rows}, data["heading"])

    def results(self) -> list[Section]:
        tables_by_round = seated_tables(self.tournament)
        sheets = sheets_by_table(self.tournament)
        sections = []
        for number, tables in sorted(tables_by_round.items(), reverse=True):
            finished = [(t, sheets[t.table_id].derived) for t in tables
                        if t.table_id in sheets and sheets[t.table_id].derived.get("finished")]
            if not finished:
                continue
            data = {"patience": self.settings.patience, "tables": [
                {"number": t.number, "seats": sorted(
                    ({"seat": s.number, **person(s.participant),
                      "total": self.settings.shown(derived["totals"].get(str(s.number))),
                      "points": half(_decimal(derived.get("table_points", {}).get(str(s.number))))}
                     for s in t.seats if str(s.number) in derived["totals"]),
                    key=lambda seat: _place_key(seat, self.settings))}
                for t, derived in finished]}
            sections.append(Section("public/tablegames/results.html", data,
                                    _("Round %(number)s") % {"number": number}))
        return sections


def _decimal(value):
    return Decimal(value) if value is not None else None


def _place_key(seat: dict, settings) -> tuple:
    """Best first: most tournament points, then the better game total."""
    points = seat["points"] or 0
    total = seat["total"] or 0
    return (-points, total if settings.lower_is_better and not settings.count_down else -total)


def public(tournament) -> TableGamesPublic:
    return TableGamesPublic(tournament)
