"""Schafkopf on the public pages: the seating of every round, the standings, the lists entered, and
"where do I sit" (table and seat in every round).

Reads through `queries` and `standings`, which take a constant number of queries whatever the number of
players, and turns everything into plain values: names, participant numbers, clubs, tables, seats, points.
"""

from __future__ import annotations

from django.utils.formats import localize
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring.withdrawals import eligibility_remark, is_withdrawn, played_by, played_tables, remark, seat_remarks
from tournament.public.content import Found, PublicContent, Section, Slide, find_participants, pages, person

from .queries import places_by_participant, seated_tables, sheets_by_table
from .standings import standings

#: rows per beamer page (what 1080 pixels hold in type readable from 10 metres), and the most pages of
#: one kind the beamer cycles through (the full lists are on the phones)
BEAMER_ROWS = 10
BEAMER_PAGES = 8


def _seat(seat) -> dict:
    """Who sits on a seat; a substitute plays it for the seat's player after a drop-out."""
    player = seat.substitute or seat.participant
    return {"seat": seat.number, **person(player),
            "for": seat.participant.name if seat.substitute_id else ""}


def _number(value) -> str:
    """A number as the template's `{{ value|default_if_none:"–" }}` shows it (whole numbers need no locale)."""
    if value is None:
        return "–"
    return str(value) if type(value) is int else escape(localize(value))


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


class SchafkopfPublic(PublicContent):
    kinds = ("schedule", "standings", "results")

    def schedule(self) -> list[Section]:
        return [
            Section("public/schafkopf/seating.html",
                    {"tables": [{"number": t.number, "seats": [_seat(s) for s in t.seats]} for t in tables]},
                    _("Round %(number)s") % {"number": number})
            for number, tables in sorted(seated_tables(self.tournament).items())
        ]

    def _rows(self) -> tuple[list[dict], object]:
        result = standings(self.tournament)
        rows = [
            {"rank": row.rank, **person(row.participant), "rounds": row.rounds, "points": row.values.get("points", 0),
             "by_lot": row.by_lot, "excluded": row.excluded, "note": seat_note(row),
             "substitute_only": row.substitute_only}
            for row in result.rows
        ]
        return rows, result

    def standings(self) -> list[Section]:
        rows, result = self._rows()
        if not rows:
            return []
        return [Section("public/schafkopf/standings.html", {
            "rows": rows, "rows_html": standings_rows_html(rows), "rounds": list(range(1, result.after_round + 1)),
            "complete": result.complete,
            "waiting": any(row["rank"] is None and not row["substitute_only"] for row in rows),
            "substitutes": any(row["substitute_only"] for row in rows),
            "entered": result.lists_entered, "total": result.lists_total,
        }, result.progress.heading())]

    def results(self) -> list[Section]:
        tables_by_round = seated_tables(self.tournament)
        sheets = sheets_by_table(self.tournament)
        sections = []
        for number, tables in sorted(tables_by_round.items(), reverse=True):
            entered = [
                {"number": t.number, "seats": [{**_seat(s), "total": sheets[t.table_id].derived["totals"].get(
                    str(s.number))} for s in t.seats], "corrected": sheets[t.table_id].corrected}
                for t in tables if t.table_id in sheets
            ]
            if entered:
                sections.append(Section("public/schafkopf/results.html", {"tables": entered},
                                        _("Round %(number)s") % {"number": number}))
        return sections

    def find(self, query: str) -> Found:
        people, total = find_participants(self.tournament, query)
        if not people:
            return Found([], total)
        tables_by_round = seated_tables(self.tournament)
        places = places_by_participant(tables_by_round)
        mates = {(t.round, t.number): [_seat(s) for s in t.seats] for tables in tables_by_round.values()
                 for t in tables}
        # A player who dropped out does not sit where a substitute plays for him.
        replaced = {(t.round, s.participant_id) for tables in tables_by_round.values() for t in tables
                    for s in t.seats if s.substitute_id}
        # Who played a withdrawn player's seat, and where he did play (his tables whose list is in).
        substitutes = {(t.round, s.participant_id): s.substitute for tables in tables_by_round.values()
                       for t in tables for s in t.seats if s.substitute_id}
        played = (played_tables(tables_by_round, set(sheets_by_table(self.tournament)))
                  if any(is_withdrawn(p) for p in people) else set())
        sections = []
        for p in people:
            withdrawn = is_withdrawn(p)
            rounds = [
                {"round": number, "table": table, "seat": seat, "scribe": seat == 1,
                 "mates": [m["name"] for m in mates[(number, table)] if m["number"] != p.number]}
                for number, (table, seat) in sorted(places.get(p.pk, {}).items())
                if (number, p.pk) not in replaced and (not withdrawn or (number, table) in played)
            ]
            notes = [str(played_by(number, substitute))
                     for (number, pk), substitute in sorted(substitutes.items()) if pk == p.pk]
            sections.append(Section("public/schafkopf/found.html", {"person": person(p), "rounds": rounds,
                                                                     "withdrawn": withdrawn, "notes": notes}))
        return Found(sections, total)

    def slides(self, kinds) -> list[Slide]:
        slides = []
        if "standings" in kinds:
            rows, result = self._rows()
            chunks = pages(rows, BEAMER_ROWS, BEAMER_PAGES) if rows else []
            for chunk in chunks:
                data = {"rows": chunk, "rows_html": standings_rows_html(chunk),
                        "rounds": list(range(1, result.after_round + 1)), "complete": result.complete,
                        "waiting": any(row["rank"] is None and not row["substitute_only"] for row in chunk),
                        "substitutes": any(row["substitute_only"] for row in chunk),
                        "entered": result.lists_entered, "total": result.lists_total}
                slides.append(Slide("standings", Section("public/schafkopf/standings.html", data,
                                                         result.progress.heading())))
        if "schedule" in kinds:
            slides += self._seating_by_name()
        return slides

    def _seating_by_name(self) -> list[Slide]:
        """The wall list: every player by name with table and seat in each round."""
        tables_by_round = seated_tables(self.tournament)
        places = places_by_participant(tables_by_round)
        players = sorted(self.tournament.participants.filter(pk__in=places.keys()),
                         key=lambda p: (p.last_name.casefold(), p.first_name.casefold(), p.number))
        rows = [{**person(p), "places": [places[p.pk].get(r) for r in sorted(tables_by_round)]} for p in players]
        data = {"rounds": sorted(tables_by_round)}
        return [
            Slide("schedule", Section("public/schafkopf/by_name.html", {**data, "rows": chunk}, _("Seating by name")))
            for chunk in (pages(rows, BEAMER_ROWS, BEAMER_PAGES) if rows else [])
        ]

    def slot_minutes(self, round_) -> int | None:
        return None  # Schafkopf rounds have no time limit: the clock shows the time played


def public(tournament) -> SchafkopfPublic:
    return SchafkopfPublic(tournament)
