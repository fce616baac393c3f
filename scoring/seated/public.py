"""A seated game on the public pages: the seating of every round, "where do I sit" (table and seat in every round,
with the others at the table), the beamer's pages. Each game adds its standings and results.

Reads through `queries`, which take a constant number of queries whatever the number of players, and turns
everything into plain values: names, participant numbers, clubs, tables, seats.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from documents.charts import chart_html
from scoring.withdrawals import is_withdrawn, played_by, played_tables
from tournament.public.cache import cached
from tournament.public.content import Found, PublicContent, Section, Slide, find_participants, pages, person
from tournament.services.publishing import published_kinds

from .progression import Ranked, progression_chart
from .queries import places_by_participant, seated_tables, sheets_by_table

#: rows per beamer page (what 1080 pixels hold in type readable from 10 metres), and the most pages of
#: one kind the beamer cycles through (the full lists are on the phones)
BEAMER_ROWS = 10
BEAMER_PAGES = 8


def ranked_of(rows: list[dict]) -> list[Ranked]:
    """The public ranking's rows as the progression picture reads them; an excluded player is not drawn."""
    return [Ranked(None if row.get("excluded") else row["rank"], row["number"], row["name"], row["rounds"])
            for row in rows]


def seat_person(seat) -> dict:
    """Who sits on a seat; a substitute plays it for the seat's player after a drop-out."""
    player = seat.substitute or seat.participant
    return {"seat": seat.number, **person(player), "for": seat.participant.name if seat.substitute_id else ""}


class SeatedPublic(PublicContent):
    """`templates`: the folder of the game's public templates (seating.html, found.html, standings.html)."""

    kinds = ("schedule", "standings", "results")
    templates = ""

    def schedule(self) -> list[Section]:
        return [
            Section(f"{self.templates}/seating.html",
                    {"tables": [{"number": t.number, "seats": [seat_person(s) for s in t.seats]} for t in tables]},
                    _("Round %(number)s") % {"number": number})
            for number, tables in sorted(seated_tables(self.tournament).items())
        ]

    def find(self, query: str) -> Found:
        people, total = find_participants(self.tournament, query)
        if not people or "schedule" not in self.kinds:
            return Found([], total)
        tables_by_round = seated_tables(self.tournament)
        places = places_by_participant(tables_by_round)
        mates = {(t.round, t.number): [seat_person(s) for s in t.seats] for tables in tables_by_round.values()
                 for t in tables}
        # A player who dropped out does not sit where a substitute plays for him.
        replaced = {(t.round, s.participant_id) for tables in tables_by_round.values() for t in tables
                    for s in t.seats if s.substitute_id}
        # Who played a withdrawn player's seat, and where he did play (his tables whose sheet is in).
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
            sections.append(Section(f"{self.templates}/found.html", {"person": person(p), "rounds": rounds,
                                                                       "withdrawn": withdrawn, "notes": notes}))
        if len(people) == 1 and "standings" in published_kinds(self.tournament):
            sections += self.progression_sections(me=people[0].number)
        return Found(sections, total)

    def standings_rows(self) -> tuple[list[dict], object]:
        """The ranking's rows as plain values, and what the game's standings section needs besides."""
        raise NotImplementedError

    def standings_section(self, rows: list[dict], data) -> Section:
        raise NotImplementedError

    def progression_metric(self, data) -> str:
        """The name of what the ranking adds up round by round (its first value), from what `standings_rows`
        gives besides the rows."""
        return _(data.chain[0].name)

    def standings(self) -> list[Section]:
        rows, data = self.standings_rows()
        if not rows:
            return []
        return [*self.chart_sections(ranked_of(rows), self.progression_metric(data)),
                self.standings_section(rows, data)]

    def chart_sections(self, ranked: list[Ranked], metric: str, *, me: int | None = None,
                       beamer: bool = False) -> list[Section]:
        """The top of the ranking round by round as a picture (`scoring.seated.progression`), and `me`; none
        before any result. The beamer's has no table of the numbers: nobody opens it there."""
        chart = progression_chart(ranked, metric=metric, me=me)
        if chart is None:
            return []
        return [Section("public/_chart.html", {"chart": chart_html(chart, table=not beamer)},
                        _("Standings round by round") if beamer else "")]

    def progression_sections(self, *, me: int) -> list[Section]:
        """The picture with the player numbered `me` (find my seat): the ranking's rows are read once per version
        of the tournament, whoever looks himself up."""
        ranked, metric = cached(self.tournament, "progression", self.progression_rows)
        return self.chart_sections(ranked, metric, me=me)

    def progression_rows(self) -> tuple[list[Ranked], str]:
        rows, data = self.standings_rows()
        return ranked_of(rows), self.progression_metric(data)

    def slides(self, kinds) -> list[Slide]:
        slides = []
        if "standings" in kinds:
            # the standings a page of `BEAMER_ROWS` rows each, then their picture
            rows, data = self.standings_rows()
            slides += [Slide("standings", self.standings_section(chunk, data)) for chunk in self.paged(rows)]
            slides += [Slide("standings", section) for section in self.chart_sections(
                ranked_of(rows), self.progression_metric(data), beamer=True)]
        if "schedule" in kinds and "schedule" in self.kinds:
            slides += self.schedule_slides()
        return slides

    def schedule_slides(self) -> list[Slide]:
        return [Slide("schedule", section) for section in self.schedule()]

    def slot_minutes(self, round_) -> int | None:
        return None  # a seated game's round has no time limit: the clock shows the time played

    @staticmethod
    def paged(rows: list) -> list[list]:
        return pages(rows, BEAMER_ROWS, BEAMER_PAGES) if rows else []
