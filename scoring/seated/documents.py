"""The printouts and exports every seated game shares (Schafkopf, the table games), as documents for the
shared renderers (`documents` package): the seating lists, the ranking (a column per metric of the game's
chain), the catalogue naming every document for the printouts page, the download view and `manage.py export`.

A seated game supplies only what is its own by subclassing `SeatedPrintouts`: how it ranks (its standings and
the columns of its metrics), what a place at a table shows, and its own printouts (Schafkopf: table and
participant cards, score lists, every game; the table games: score sheets or a patience's result lists, every
hand). Titles and column names are lazy: the screen shows them in the screen's language, the renderers in the
tournament's.
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from documents import Column, MultiSheetDocument, TableDocument
from documents.base import format_value
from scoring.link_pages import printed_links
from scoring.models import TableLink
from scoring.progress import lazy_heading
from scoring.rules.standings import LOT_NAME
from tournament.addresses import published_page
from tournament.models import Participant
from tournament.services.seating import current_draw

from .game import seated_game
from .queries import places_by_participant, seated_tables


def _format(message: str, params: dict) -> str:
    """`message` translated, its numbers written as the language writes them ("555,00" in German and Danish)."""
    return gettext(message) % {key: number_format(value) if isinstance(value, Decimal | float) else value
                               for key, value in params.items()}


#: a translatable sentence with parameters, translated when it is shown (screen or printout language)
lazy_format = lazy(_format, str)

# Shared lazy texts: a ranking of 2,000 rows holds the same few objects, formatted once per page.
BY_LOT = _("by lot")
NO_RESULT = _("no result yet")


def seed_note(tournament):
    """"Seating drawn with seed …" under a seating list; nothing for a patience's field, which is not drawn."""
    draw = current_draw(tournament)
    if draw is None or draw.params.get("field"):
        return ""
    return lazy_format(gettext_noop("Seating drawn with seed %(seed)s."), {"seed": draw.seed})


def round_title(number: int):
    return lazy_format(gettext_noop("Round %(number)s"), {"number": number})


def first_page_marked(pages: list[dict]) -> list[dict]:
    """The first page carries the printout's stylesheet: once per PDF, not once per page."""
    if pages:
        pages[0] = {**pages[0], "first": True}
    return pages


def player_name(seat):
    """The seat's player, and who plays the seat for him when a substitute does."""
    if seat.substitute_id:
        # Lazy, as every text of a document: it is built in the screen's language, printed in the tournament's.
        return lazy_format(gettext_noop("%(player)s, played by %(substitute)s"),
                           {"player": seat.participant.name, "substitute": seat.substitute.name})
    return seat.participant.name


def printed_table_links(tournament, round_number: int) -> dict[int, dict]:
    """{table id: its link's address and QR code} for the round's tables whose link the director issued (a
    printout never issues one itself)."""
    return printed_links(TableLink.objects.filter(tournament=tournament, table__round__number=round_number,
                                                  table__round__stage__tournament=tournament, revoked_at=None))


#: the ranking's note on a substitute listed without a rank (`Row.substitute_only`)
SUBSTITUTE_ONLY = _("A substitute whose seats' points stay with the players he replaced has no result of his own: "
                    "listed last, without a rank.")


def unranked_notes(result, no_result) -> list:
    """The ranking's notes on the rows without a rank: `no_result` (the game's words for "none of his games is in
    yet") when a player has no result, and the substitutes whose seats' points stay with the players they
    replaced."""
    notes = []
    if any(not row.has_result and not row.substitute_only for row in result.rows):
        notes.append(no_result)
    if any(row.substitute_only for row in result.rows):
        notes.append(SUBSTITUTE_ONLY)
    return notes


def lot_notes(result) -> list:
    """The ranking's note on a place decided by lot, with the seed, when one was."""
    if not result.any_lot:
        return []
    return [lazy_format(gettext_noop("“by lot”: tied on every step, decided by lot (seed %(seed)s)."),
                        {"seed": result.lot_seed})]


class SeatedPrintouts:
    """A seated game's documents: the shared ones built here, the game's own from the hooks it overrides.

    `documents(tournament)` is the catalogue ({name: callable returning a document}, the game's
    `SeatedGame.documents`); `printout_items` the printouts page's list. The director's result pages
    (`scoring.seated.views.reports`) are mounted with it; the game's settings, standings, menu and URL names
    are its `SeatedGame`'s.
    """

    #: the ranking's document name: this over every round, "<name>-after-<n>" after round n
    ranking_name = "standings"
    #: the ranking's printout in small type, about 40 rows a page (a field of 2,000 players)
    dense_ranking = False
    #: column widths in characters by column key (None: sized by content), in the seating by name and the ranking
    seating_widths: dict[str, int] = {}
    ranking_widths: dict[str, int] = {}
    #: notes under the seating by name
    seating_notes: tuple = ()
    #: the printouts page's advice before the seating is drawn
    draw_first = _("Draw the seating first: the seating lists and score sheets show it.")
    #: a "Remark" column in the seating by name for players no longer active (withdrawn, excluded)
    seating_status = False
    #: the standings page's prize tick for players who missed a round (`standings_extra`'s "missed")
    prize_tick = False
    #: whether the evening plays for prize money: the prize tick then shows each player's prize
    prize_money = False

    # --- what the game supplies ----------------------------------------------------------------------------

    def settings(self, tournament):
        """The game's settings of `tournament` (at least `rounds`)."""
        return seated_game(tournament).settings_of(tournament)

    def standings(self, tournament, *, after_round: int | None = None):
        """The ranking over rounds 1..after_round (default: every round)."""
        return seated_game(tournament).standings(tournament, after_round=after_round)

    def chain(self, result) -> tuple:
        """The metrics the ranking orders by, first to last: a column each."""
        return result.chain

    def round_column(self, result, number: int) -> Column:
        raise NotImplementedError

    def metric_column(self, result, metric) -> Column:
        return Column(metric.key, _(metric.name), "int", width=self.ranking_widths.get(metric.key))

    def round_value(self, result, value):
        return value

    def metric_value(self, result, metric, row):
        return row.values.get(metric.key)

    def remark(self, result, row):
        raise NotImplementedError

    def ranking_notes(self, result) -> list:
        raise NotImplementedError

    def lot_column(self, result) -> bool:
        """Whether the ranking has its lot column (always, unless the game leaves an empty one out)."""
        return True

    def remark_column(self, result) -> bool:
        return True

    def extra_columns(self, result) -> list[Column]:
        """The game's own columns between the lot and the remark (Schafkopf: the prize money)."""
        return []

    def extra_values(self, result, row) -> dict:
        return {}

    def place_columns(self, number: int) -> list[Column]:
        """The seating by name's columns of round `number`."""
        return [Column(f"table{number}", lazy_format(gettext_noop("Round %(round)s: table"), {"round": number}),
                       "int")]

    def place_values(self, number: int, table: int, seat: int) -> dict:
        return {f"table{number}": table}

    def seating_rounds(self, tournament, tables) -> list[int]:
        """The rounds the seating by name lists a place for."""
        return sorted(tables)

    def seating_title(self, tournament):
        return _("Seating by name")

    def seating_qr(self, tournament) -> str | None:
        """The seating lists point to the public seating page (with "find my seat") once it is published."""
        return published_page(tournament, "schedule")

    def own_documents(self, tournament) -> dict:
        """The game's own documents over the whole tournament, by name."""
        return {}

    def round_documents(self, tournament, number: int) -> dict:
        """The game's own documents of round `number` (its score sheets), by name."""
        return {}

    def printout_items(self, tournament) -> list[tuple[str, object, tuple[str, ...]]]:
        """(document name, label, formats) for the printouts page, in the order a director needs them."""
        raise NotImplementedError

    def standings_extra(self, tournament, result) -> dict:
        """What the game's standings page shows besides the ranking, as plain values (the page is cached): the
        players who missed a round, for the prize tick, once the last round is in."""
        return {"missed": missed_rows(result) if result.last_round else []}

    # --- the catalogue -------------------------------------------------------------------------------------

    def documents(self, tournament) -> dict:
        """Every document by name, for the printouts page and `manage.py export`."""
        rounds = self.settings(tournament).rounds
        found = {
            "seating-by-name": partial(self.seating_by_name, tournament),
            "seating-by-table": partial(self.seating_by_table, tournament),
            **self.own_documents(tournament),
            self.ranking_name: partial(self.ranking_document, tournament),
        }
        for number in range(1, rounds + 1):
            found.update(self.round_documents(tournament, number))
            if number < rounds:
                found[self.ranking_stem(number)] = partial(self.ranking_document, tournament, after_round=number)
        return found

    def ranking_stem(self, after_round: int | None) -> str:
        """The ranking's document name (and file name): over every round (None), or after a round."""
        return self.ranking_name if after_round is None else f"{self.ranking_name}-after-{after_round}"

    # --- seating -------------------------------------------------------------------------------------------

    def seating_by_name(self, tournament) -> TableDocument:
        """Everyone in alphabetical order with the place of every round: the list for the wall."""
        tables = seated_tables(tournament)
        places = places_by_participant(tables)
        rounds = self.seating_rounds(tournament, tables)
        players = sorted(
            (p for p in tournament.participants.all() if p.pk in places),
            key=lambda p: (p.last_name.casefold(), p.first_name.casefold(), p.number),
        )
        # Widths (where the game gives them) keep each player on one line, so a page's chunk of rows never
        # spills onto the next page.
        width = self.seating_widths.get
        columns = [Column("name", _("Name"), width=width("name")),
                   Column("number", _("No."), "int", width=width("number")),
                   Column("club", _("Club"), width=width("club"))]
        for number in rounds:
            columns += self.place_columns(number)
        if self.seating_status and any(p.status != Participant.Status.ACTIVE for p in players):
            columns.append(Column("status", _("Remark"), width=width("status")))
        rows = []
        for player in players:
            row = {"name": player.sort_name, "number": player.number, "club": player.club,
                   "status": "" if player.status == Participant.Status.ACTIVE else player.get_status_display()}
            for number in rounds:
                if number in places[player.pk]:
                    row.update(self.place_values(number, *places[player.pk][number]))
            rows.append(row)
        return TableDocument(self.seating_title(tournament), columns, rows, subtitle=seed_note(tournament),
                             notes=list(self.seating_notes), filename_stem="seating-by-name",
                             qr_page=self.seating_qr(tournament))

    def seating_by_table(self, tournament) -> MultiSheetDocument:
        """Each round's tables with their players in seat order (one sheet or section per round)."""
        columns = [Column("table", _("Table"), "int"), Column("seat", _("Seat"), "int"),
                   Column("number", _("No."), "int"), Column("name", _("Name")), Column("club", _("Club"))]
        sheets = []
        for number, tables in sorted(seated_tables(tournament).items()):
            rows = [
                {"table": table.number, "seat": seat.number, "number": seat.participant.number,
                 "name": player_name(seat), "club": seat.participant.club}
                for table in tables for seat in table.seats
            ]
            sheets.append(TableDocument(round_title(number), columns, rows, subtitle=seed_note(tournament),
                                        filename_stem=f"seating-round-{number}", keep_together="table"))
        return MultiSheetDocument(_("Seating by table"), sheets, filename_stem="seating-by-table",
                                  qr_page=self.seating_qr(tournament))

    # --- ranking -------------------------------------------------------------------------------------------

    def ranking_document(self, tournament, *, after_round: int | None = None, result=None) -> TableDocument:
        """The ranking after a round (default: the final ranking)."""
        result = result or self.standings(tournament, after_round=after_round)
        # "Final ranking" only once every result is in; before that "Provisional — after 8 of 18 …"
        title = lazy_heading(result.progress, None if result.last_round else result.after_round)
        return TableDocument(
            title, self.ranking_columns(result), self.ranking_rows(result), notes=self.ranking_notes(result),
            filename_stem=self.ranking_stem(None if result.last_round else result.after_round),
            landscape=True, dense=self.dense_ranking, one_page=True,
        )

    def ranking_columns(self, result) -> list[Column]:
        """Rank and player, a column per round, a column per metric of the chain, the lot, the remark."""
        width = self.ranking_widths.get
        columns = [
            Column("rank", _("Rank"), "int", width=width("rank")),
            Column("number", _("No."), "int", width=width("number")),
            Column("name", _("Name"), width=width("name")), Column("club", _("Club"), width=width("club")),
        ]
        columns += [self.round_column(result, number) for number in range(1, result.after_round + 1)]
        columns += [self.metric_column(result, metric) for metric in self.chain(result)]
        if self.lot_column(result):
            columns.append(Column("lot", _(LOT_NAME), align="center", width=width("lot")))
        columns += self.extra_columns(result)
        if self.remark_column(result):
            columns.append(Column("remark", _("Remark")))
        return columns

    def ranking_rows(self, result) -> list[dict]:
        chain = self.chain(result)
        rows = []
        for row in result.rows:
            item = {"rank": row.rank, "number": row.participant.number, "name": row.participant.name,
                    "club": row.participant.club, "lot": BY_LOT if row.by_lot else "",
                    "remark": self.remark(result, row)}
            item.update({f"round{number}": self.round_value(result, value)
                         for number, value in enumerate(row.rounds, start=1)})
            item.update({metric.key: self.metric_value(result, metric, row) for metric in chain})
            item.update(self.extra_values(result, row))
            rows.append(item)
        return rows


def missed_rows(result) -> list[dict]:
    """The ranked players who did not play every round, for the director's prize tick (plain values: cached)."""
    return [
        {"pk": row.participant.pk, "number": row.participant.number, "name": row.participant.name,
         "rank": row.rank, "rounds": ", ".join(str(number) for number in row.missed),
         "eligible": row.participant.prize_eligible, "prize": format_value(row.prize) if row.prize else ""}
        for row in result.rows if row.missed
    ]
