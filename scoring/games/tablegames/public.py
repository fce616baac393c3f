"""Table games on the public pages: the seating of every round, the standings, the finished games, and
"where do I sit" (table and seat in every round, with the others at the table).

Reads through `queries` and `standings`, which take a constant number of queries whatever the number of
players, and turns everything into plain values: names, participant numbers, clubs, tables, seats, scores.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _

from scoring.withdrawals import MISSED_ROUNDS, is_withdrawn, played_tables
from tournament.public.content import Found, PublicContent, Section, Slide, find_participants, pages, person

from .config import settings_of
from .documents import format_seconds
from .queries import places_by_participant, seated_tables, sheets_by_table
from .standings import half, standings

#: rows per beamer page (what 1080 pixels hold in type readable from 10 metres), and the most pages shown
BEAMER_ROWS = 10
BEAMER_PAGES = 8


class TableGamesPublic(PublicContent):
    def __init__(self, tournament):
        super().__init__(tournament)
        self.settings = settings_of(tournament)
        # A patience has no tables to find: the whole field plays every deal.
        self.kinds = ("standings", "results") if self.settings.patience else ("schedule", "standings", "results")

    def schedule(self) -> list[Section]:
        return [
            Section("public/tablegames/seating.html",
                    {"tables": [{"number": t.number, "seats": [{"seat": s.number, **person(s.participant)}
                                                                for s in t.seats]} for t in tables]},
                    _("Round %(number)s") % {"number": number})
            for number, tables in sorted(seated_tables(self.tournament).items())
        ]

    def _rows(self):
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
                "missed": MISSED_ROUNDS if row.missed else "",
                "rounds": [value if patience else half(value) for value in row.rounds],
                "main": main if patience else half(main),
                "other": format_seconds(other) if patience and second else self.settings.shown(other),
            })
        data = {
            "rounds": list(range(1, result.after_round + 1)), "complete": result.complete,
            "heading": result.progress.heading(), "waiting": any(row["rank"] is None for row in rows),
            "finished": result.finished, "total": result.total, "patience": patience,
            "main_name": _(result.chain[0].abbr), "other_name": _(result.chain[1].abbr) if second else "",
        }
        return rows, data

    def standings(self) -> list[Section]:
        rows, data = self._rows()
        if not rows:
            return []
        return [Section("public/tablegames/standings.html", {**data, "rows": rows}, data["heading"])]

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

    def find(self, query: str) -> Found:
        people, total = find_participants(self.tournament, query)
        if not people or self.settings.patience:
            return Found([], total)
        tables_by_round = seated_tables(self.tournament)
        places = places_by_participant(tables_by_round)
        mates = {(t.round, t.number): [s.participant for s in t.seats] for ts in tables_by_round.values() for t in ts}
        # A withdrawn player is shown where he did play (his tables whose sheet is in), not the seats he left.
        played = (played_tables(tables_by_round, set(sheets_by_table(self.tournament)))
                  if any(is_withdrawn(p) for p in people) else set())
        sections = []
        for p in people:
            withdrawn = is_withdrawn(p)
            rounds = [
                {"round": number, "table": table, "seat": seat, "scribe": seat == 1,
                 "mates": [m.name for m in mates[(number, table)] if m.pk != p.pk]}
                for number, (table, seat) in sorted(places.get(p.pk, {}).items())
                if not withdrawn or (number, table) in played
            ]
            sections.append(Section("public/tablegames/found.html", {"person": person(p), "rounds": rounds,
                                                                      "withdrawn": withdrawn}))
        return Found(sections, total)

    def slides(self, kinds) -> list[Slide]:
        slides = []
        if "standings" in kinds:
            rows, data = self._rows()
            for chunk in pages(rows, BEAMER_ROWS, BEAMER_PAGES) if rows else []:
                slides.append(Slide("standings", Section("public/tablegames/standings.html", {**data, "rows": chunk},
                                                         data["heading"])))
        if "schedule" in kinds and not self.settings.patience:
            slides += [Slide("schedule", section) for section in self.schedule()]
        return slides

    def slot_minutes(self, round_) -> int | None:
        return None  # a game is played to its end: the clock shows the time played


def _decimal(value):
    return Decimal(value) if value is not None else None


def _place_key(seat: dict, settings) -> tuple:
    """Best first: most tournament points, then the better game total."""
    points = seat["points"] or 0
    total = seat["total"] or 0
    return (-points, total if settings.lower_is_better and not settings.count_down else -total)


def public(tournament) -> TableGamesPublic:
    return TableGamesPublic(tournament)
