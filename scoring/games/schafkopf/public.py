"""Schafkopf on the public pages: the seating of every round, the standings, the lists entered, and
"where do I sit" (table and seat in every round).

Reads through `queries` and `standings`, which take a constant number of queries whatever the number of
players, and turns everything into plain values: names, participant numbers, clubs, tables, seats, points.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring.seated.public import SeatedPublic, seat_person
from scoring.seated.queries import places_by_participant, seated_tables, sheets_by_table
from scoring.withdrawals import eligibility_remark, remark, seat_remarks
from tournament.public.content import Section, Slide, person

from .grid_html import number_html
from .standings import standings


def _number(value) -> str:
    """A number as the template's `{{ value|default_if_none:"–" }}` shows it."""
    return number_html(value, "–")


def seat_note(row) -> str:
    """What the public ranking says of a player who left, or played another's seat (scoring.withdrawals)."""
    parts = seat_remarks(row)
    missed = None if row.excluded else eligibility_remark(row.participant, row.missed, prizes=False)
    if missed is not None:
        parts.append(missed)
    return str(remark(parts)) if parts else ""


def standings_rows_html(rows: list[dict]) -> SafeString:
    """The standings' table rows, built in Python: a template loop over 2,000 players is most of the page's
    rendering (docs/performance.md, "Load"). Every name and club is escaped; the same HTML as the loop was."""
    excluded_note = f" · {escape(_('excluded'))}"
    excluded_class = ' class="excluded"'
    lot = f' <span class="lot" title="{escape(_("decided by lot"))}">{escape(_("lot"))}</span>'
    html = []
    for row in rows:
        excluded = row["excluded"]
        club = f" · {escape(row['club'])}" if row["club"] else ""
        rounds = "".join(f'<td class="num">{_number(points)}</td>' for points in row["rounds"])
        note = excluded_note if excluded else f" · {escape(row['note'])}" if row["note"] else ""
        html.append(
            f'<tr{excluded_class if excluded else ""}><td class="num rank">'
            f'{"" if excluded else _number(row["rank"])}</td>'
            f'<td class="name">{escape(row["name"])} <small>{_number(row["number"])}{club}'
            f'{note}</small>{lot if row["by_lot"] else ""}</td>'
            f'{rounds}<td class="num strong">{_number(row["points"])}</td></tr>'
        )
    return SafeString("\n".join(html))


class SchafkopfPublic(SeatedPublic):
    templates = "public/schafkopf"

    def standings_rows(self) -> tuple[list[dict], object]:
        result = standings(self.tournament)
        rows = [
            {"rank": row.rank, **person(row.participant), "rounds": row.rounds, "points": row.values.get("points", 0),
             "by_lot": row.by_lot, "excluded": row.excluded, "note": seat_note(row),
             "substitute_only": row.substitute_only}
            for row in result.rows
        ]
        return rows, result

    def row_points(self, row: dict):
        return row["points"]

    def row_note(self, row: dict) -> str:
        return row["note"]

    def standings_section(self, rows: list[dict], result) -> Section:
        return Section("public/schafkopf/standings.html", {
            "rows": rows, "rows_html": standings_rows_html(rows), "rounds": list(range(1, result.after_round + 1)),
            "complete": result.complete,
            "waiting": any(row["rank"] is None and not row["substitute_only"] for row in rows),
            "substitutes": any(row["substitute_only"] for row in rows),
            "entered": result.lists_entered, "total": result.lists_total,
        }, result.progress.heading())

    def results(self) -> list[Section]:
        tables_by_round = seated_tables(self.tournament)
        sheets = sheets_by_table(self.tournament)
        sections = []
        for number, tables in sorted(tables_by_round.items(), reverse=True):
            entered = [
                {"number": t.number, "seats": [{**seat_person(s), "total": sheets[t.table_id].derived["totals"].get(
                    str(s.number))} for s in t.seats], "corrected": sheets[t.table_id].corrected}
                for t in tables if t.table_id in sheets
            ]
            if entered:
                sections.append(Section("public/schafkopf/results.html", {"tables": entered},
                                        _("Round %(number)s") % {"number": number}))
        return sections

    def schedule_slides(self) -> list[Slide]:
        """The wall list: every player by name with table and seat in each round."""
        tables_by_round = seated_tables(self.tournament)
        places = places_by_participant(tables_by_round)
        players = sorted(self.tournament.participants.filter(pk__in=places.keys()),
                         key=lambda p: (p.last_name.casefold(), p.first_name.casefold(), p.number))
        rows = [{**person(p), "places": [places[p.pk].get(r) for r in sorted(tables_by_round)]} for p in players]
        data = {"rounds": sorted(tables_by_round)}
        return [
            Slide("schedule", Section("public/schafkopf/by_name.html", {**data, "rows": chunk}, _("Seating by name")))
            for chunk in self.paged(rows)
        ]


def public(tournament) -> SchafkopfPublic:
    return SchafkopfPublic(tournament)
