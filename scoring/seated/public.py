"""A seated game on the public pages: the seating of every round, "where do I sit" (table and seat in every round,
with the others at the table), the beamer's pages. Each game adds its standings and results.

Reads through `queries`, which take a constant number of queries whatever the number of players, and turns
everything into plain values: names, participant numbers, clubs, tables, seats.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from documents.charts import chart_html
from scoring.withdrawals import is_withdrawn, played_by
from tournament.public.cache import cached
from tournament.public.content import (
    Found,
    PublicContent,
    Section,
    Slide,
    evening_link,
    find_participants,
    pages,
    person,
)
from tournament.services.publishing import published_kinds

from .progression import Ranked, progression_chart
from .queries import entered_tables, pending_tables, places_by_participant, seated_tables, sheets_by_table

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


class Seating:
    """The seating of every round, read once, as find my seat and my evening show one player's places.

    `entered`: the ids of the tables whose sheet is in; a withdrawn player is shown those rounds only (where he
    played), not the seats he will no longer take."""

    def __init__(self, tournament, *, entered: set[int]):
        self.entered = entered
        tables_by_round = seated_tables(tournament)
        self.places = places_by_participant(tables_by_round)
        self.tables = {(t.round, t.number): t for tables in tables_by_round.values() for t in tables}
        # A player who dropped out does not sit where a substitute plays for him.
        self.replaced = {(t.round, s.participant_id) for t in self.tables.values() for s in t.seats
                         if s.substitute_id}
        # Who played a withdrawn player's seat.
        self.substitutes = {(t.round, s.participant_id): s.substitute for t in self.tables.values()
                            for s in t.seats if s.substitute_id}

    def of(self, player) -> dict:
        """The player's face, places (round, table, seat, the others at the table) and notes."""
        withdrawn = is_withdrawn(player)
        rounds = []
        for number, (table, seat) in sorted(self.places.get(player.pk, {}).items()):
            seated = self.tables[(number, table)]
            if (number, player.pk) in self.replaced or (withdrawn and seated.table_id not in self.entered):
                continue
            rounds.append({"round": number, "table": table, "seat": seat, "scribe": seat == 1,
                           "table_id": seated.table_id,
                           "mates": [seat_person(s)["name"] for s in seated.seats
                                     if (s.substitute or s.participant).number != player.number]})
        notes = [str(played_by(number, substitute))
                 for (number, pk), substitute in sorted(self.substitutes.items()) if pk == player.pk]
        return {"person": person(player), "rounds": rounds, "withdrawn": withdrawn, "notes": notes}


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
        seating = Seating(self.tournament, entered=(set(sheets_by_table(self.tournament))
                                                    if any(is_withdrawn(p) for p in people) else set()))
        sections = [Section(f"{self.templates}/found.html",
                            {**seating.of(p), "evening": evening_link(self.tournament, p)}) for p in people]
        if len(people) == 1 and "standings" in published_kinds(self.tournament):
            sections += self.progression_sections(me=people[0].number)
        return Found(sections, total)

    def evening(self, player) -> list[Section]:
        """My evening: my seat, my table's others and its sheet's state in every round; my place in the standings
        and the progression picture with me, once the standings are published."""
        sections = []
        if "schedule" in self.kinds:
            counted = entered_tables(self.tournament)
            pending = pending_tables(self.tournament)
            mine = Seating(self.tournament, entered=counted).of(player)
            for place in mine["rounds"]:
                place["sheet"] = ("counted" if place["table_id"] in counted
                                  else "pending" if place["table_id"] in pending else "missing")
            sections.append(Section(f"{self.templates}/found.html", mine))
        else:  # a patience: everybody plays every deal, nobody has a seat
            sections.append(Section("public/evening/person.html", {"person": person(player)}))
        if "standings" in published_kinds(self.tournament):
            standing = self.standing_of(player.number)
            sections.append(Section("public/evening/standing.html", {"standing": standing}))
            sections += self.progression_sections(me=player.number)
        return sections

    def standing_of(self, number: int) -> dict | None:
        """The standings' row of the player numbered `number` as plain values (None: not in the standings);
        the rows are read once per version of the tournament, however many players look."""
        table = cached(self.tournament, "evening-standing", self.standing_table)
        row = table["rows"].get(number)
        return ({**row, "metric": table["metric"], "ranked": table["ranked"], "waiting": table["waiting"]}
                if row is not None else None)

    def standing_table(self) -> dict:
        rows, data = self.standings_rows()
        return {
            "metric": str(self.progression_metric(data)),
            "ranked": sum(1 for row in rows if row["rank"] is not None and not row.get("excluded")),
            # as the public standings count them ("Players without a rank have no result yet")
            "waiting": sum(1 for row in rows if row["rank"] is None and not row["substitute_only"]
                           and not row.get("excluded")),
            "rows": {row["number"]: {"rank": None if row.get("excluded") else row["rank"],
                                     "points": self.row_points(row), "note": self.row_note(row),
                                     "excluded": bool(row.get("excluded")), "by_lot": row["by_lot"]}
                     for row in rows},
        }

    def row_points(self, row: dict):
        """What the player has in the ranking's first value (a standings row of `standings_rows`)."""
        raise NotImplementedError

    def row_note(self, row: dict) -> str:
        """What the ranking says of the player besides: withdrawn, who played whose seat."""
        return ""

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
