"""Schafkopf printouts and exports, as documents for the shared renderers (`documents` package).

The seating lists and the ranking are the shared ones (`scoring.seated.documents`), shaped by
`SchafkopfPrintouts`; here are Schafkopf's own: round results and every game (`TableDocument`s, so the web
page, the PDF and the Excel sheet show the same rows), the table cards, participant cards and score lists
(`PrintDocument`s with one template per page). Titles and column names are lazy: the screen shows them in
the screen's language, the renderers in the tournament's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from documents import Column, MultiSheetDocument, PrintDocument, TableDocument
from documents.qr import qr_svg
from scoring.models import ScoreSheet
from scoring.progress import ResultProgress, lazy_round_heading
from scoring.rules.schafkopf import (
    EXCLUDED_LABEL,
    GAME_TYPES,
    POINTS,
    RANKING_CHAIN,
    SOLO_PLAYED,
    SOLO_WON,
    TOUT_PLAYED,
    TOUT_WON,
    score_list,
)
from scoring.seated.documents import (
    NO_RESULT,
    SeatedPrintouts,
    first_page_marked,
    lazy_format,
    lot_notes,
    player_name,
    printed_table_links,
    seed_note,
    unranked_notes,
)
from scoring.seated.queries import places_by_participant, seated_tables, sheets_by_table
from scoring.withdrawals import eligibility_remark, remark, replaced_by, seat_remarks
from tournament.models import Seat, Stage
from tournament.public.evening_links import evening_url

from .config import GAMES_MODE, settings_of
from .services import entry_from_json


class SchafkopfPrintouts(SeatedPrintouts):
    """Schafkopf's documents: the shared seating lists and ranking, and its own cards, score lists and games."""

    ranking_name = "ranking"
    dense_ranking = True
    # Widths (in characters) so that a row stays on one line: a wrapped row makes a page's chunk of rows spill
    # over onto the next page.
    seating_widths = {"name": 30, "number": 6, "club": 24, "status": 12}
    ranking_widths = {"rank": 4, "number": 4, "name": 20, "club": 15, "lot": 5, "points": 5, "round_spread": 4,
                      **{metric.key: 3 for metric in (TOUT_WON, TOUT_PLAYED, SOLO_WON, SOLO_PLAYED)}}
    seating_notes = (_("Seat 1 is the scribe and hands in the score list."),)
    seating_status = True
    draw_first = _("Draw the seating first: the seating lists, cards and score lists show it.")
    prize_tick = True
    prize_money = True

    def chain(self, result):
        return RANKING_CHAIN

    def place_columns(self, number):
        return [Column(f"table{number}", lazy_format(gettext_noop("R%(round)s table"), {"round": number}), "int"),
                Column(f"seat{number}", lazy_format(gettext_noop("R%(round)s seat"), {"round": number}), "int")]

    def place_values(self, number, table, seat):
        return {f"table{number}": table, f"seat{number}": seat}

    def own_documents(self, tournament):
        return {
            "table-cards": partial(table_cards, tournament),
            "participant-cards": partial(participant_cards, tournament),
            "standings": partial(standings_document, tournament),
            "results": partial(results_document, tournament),
        }

    def round_documents(self, tournament, number):
        return {f"score-lists-{number}": partial(score_lists, tournament, number)}

    def printout_items(self, tournament):
        rounds = settings_of(tournament).rounds
        score_lists = [(f"score-lists-{r}", lazy_format(gettext_noop("Score lists of round %(number)s (one page per "
                                                                     "table)"), {"number": r}), ("pdf",))
                       for r in range(1, rounds + 1)]
        return [*PRINTOUT_ITEMS[:4], *score_lists, *PRINTOUT_ITEMS[4:]]

    # --- the ranking ---------------------------------------------------------------------------------------

    def round_column(self, result, number):
        return Column(f"round{number}", lazy_format(gettext_noop("R%(round)s"), {"round": number}), "int", width=4)

    def metric_column(self, result, metric):
        # points by name, the tie-breaks by their abbreviations (a landscape page holds them all)
        title = _(metric.name) if metric is POINTS else _(metric.abbr)
        return Column(metric.key, title, "int", width=self.ranking_widths[metric.key])

    def lot_column(self, result):
        # the lot and remark columns only when some row has a lot or a remark (an empty column takes the width
        # a long name needs on a laptop screen)
        return result.any_lot

    def remark_column(self, result):
        return any(_has_remark(row) for row in result.rows)

    def extra_columns(self, result):
        return [Column("prize", _("Prize"), "decimal", width=7)] if result.prizes is not None else []

    def extra_values(self, result, row):
        return {"prize": row.prize}

    def remark(self, result, row):
        return _remark(row, prizes=result.prizes is not None)

    def ranking_notes(self, result):
        return ranking_notes(result)


#: the printouts page's list around the score lists of every round (which go after the first four)
PRINTOUT_ITEMS = (
    ("seating-by-name", _("Seating by name (for the wall)"), ("pdf", "xlsx")),
    ("seating-by-table", _("Seating by table"), ("pdf", "xlsx")),
    ("table-cards", _("Table cards"), ("pdf",)),
    ("participant-cards", _("Participant cards (table and seat for every round)"), ("pdf",)),
    ("standings", _("Standings: every round and the final ranking with prizes"), ("pdf", "xlsx")),
    ("results", _("Results: every round, the ranking and every game"), ("xlsx",)),
)




def table_cards(tournament) -> PrintDocument:
    """One page per table number: the number, large, and who sits there in each round."""
    by_number: dict[int, list] = {}
    for _number, tables in sorted(seated_tables(tournament).items()):
        for table in tables:
            by_number.setdefault(table.number, []).append(table)
    pages = [{"number": number, "tables": tables} for number, tables in sorted(by_number.items())]
    return PrintDocument("schafkopf/print/table_card.html", {"seed_note": seed_note(tournament)},
                         _("Table cards"), "table-cards", pages=first_page_marked(pages), landscape=True)


def evening_qr(tournament, player) -> str:
    url = evening_url(tournament, player)
    return qr_svg(url, title=url)


def participant_cards(tournament, per_page: int = 8) -> PrintDocument:
    """A card per player with the table and seat of every round, eight to a page, to cut apart; and the QR code of
    the player's personal page ("my evening": tournament/public/evening_links.py), which opens once the
    tournament's pages are published."""
    tables = seated_tables(tournament)
    places = places_by_participant(tables)
    players = [p for p in tournament.participants.all() if p.pk in places]
    # a round whose seat a substitute plays for the card's player: his card names the substitute, not the seat
    replaced = replaced_by(tables)
    cards = [{"player": p, "places": [(number, place, replaced.get((number, p.pk)))
                                      for number, place in sorted(places[p.pk].items())],
              "evening": evening_qr(tournament, p)} for p in players]
    pages = [{"cards": cards[start:start + per_page]} for start in range(0, len(cards), per_page)]
    return PrintDocument("schafkopf/print/participant_cards.html", {}, _("Participant cards"), "participant-cards",
                         pages=first_page_marked(pages))


# --- score lists -----------------------------------------------------------------------------------


#: A score list's page, in mm from the top left of the page's text area (A4 portrait less the margins of
#: print.css: 178 x 255). The grid, titles and legend (the underlay) and each table's own title and names
#: (the page) are laid out separately and lie on each other: both take their places from here.
LIST_WIDTH = 178
LIST_TITLE_HEIGHT = 10
LIST_HEAD_HEIGHT = 15
LIST_NAME_TOP = 4  # the player's number and name under "Seat N", within the head
LIST_GRID_HEIGHT = 186  # the game rows share it; a row takes at most LIST_ROW_MAX
LIST_ROW_MAX = 6.2
LIST_FOOT_HEIGHT = 7
LIST_SIGNATURE_GAP = 24  # from the foot of the grid down to the signature lines (the legend sits between)
LIST_SIGNATURE_SPACING = 2.5
#: two agreeing reports count: each seat's QR code above its signature line, in a band the grid gives up; the
#: code (label above it) reaches this much further up, into the room under the legend
LIST_SEAT_CODES_HEIGHT = 21
LIST_SEAT_CODES_REACH = 6
#: Game, game type, declarer, partner, outcome, tout: the seats share the rest of the width
LIST_COLUMNS = (9, 13, 14, 14, 15, 15)


@dataclass(frozen=True)
class ListGrid:
    """Where everything on a score list for one table size goes.

    The grid (a row per game, two columns per seat), the column titles and the legend are the same on every
    list of a size: they are the printout's underlay, laid out once (WeasyPrint's time goes into laying out
    boxes and text, about 100 ms for a whole list). Each list's own page holds only its title, the players'
    numbers and names in the head and by the signature lines, placed at the same coordinates.
    """

    size: int
    games: int
    #: each seat's link printed above its signature line (two agreeing reports count): the rows make room
    seat_codes: bool = False

    @property
    def row(self) -> float:
        height = LIST_GRID_HEIGHT - (LIST_SEAT_CODES_HEIGHT if self.seat_codes else 0)
        return round(min(LIST_ROW_MAX, height / self.games), 2)

    @property
    def game_rows(self) -> list[dict]:
        """Each game's row: its number, whether it closes a block of five (a heavier line), which seat's
        points are shaded (at a 5-table the dealer sits out: seat s in game s, s + 5, ...) and whether the
        tout column is (no tout in game 1)."""
        return [
            {"number": game, "fifth": game % 5 == 0 and game < self.games,
             "dealer": (game - 1) % 5 + 1 if self.size == 5 else None, "no_tout": game == 1}
            for game in range(1, self.games + 1)
        ]

    @property
    def seat_width(self) -> float:
        return (LIST_WIDTH - sum(LIST_COLUMNS)) / self.size

    @property
    def heads(self) -> list[dict]:
        """Each seat's place in the head: seat number, left and width (mm), and the width of each of its two
        columns (the game's points, the running total)."""
        start = sum(LIST_COLUMNS)
        return [{"seat": seat, "left": round(start + (seat - 1) * self.seat_width, 2),
                 "width": round(self.seat_width, 2), "half": round(self.seat_width / 2, 2)}
                for seat in range(1, self.size + 1)]

    @property
    def name_top(self) -> float:
        return LIST_TITLE_HEIGHT + LIST_NAME_TOP

    @property
    def name_height(self) -> float:
        return LIST_HEAD_HEIGHT - LIST_NAME_TOP - 1

    @property
    def signature_top(self) -> float:
        band = LIST_SEAT_CODES_HEIGHT if self.seat_codes else 0
        return (LIST_TITLE_HEIGHT + LIST_HEAD_HEIGHT + self.row * self.games + LIST_FOOT_HEIGHT + LIST_SIGNATURE_GAP
                + band)

    @property
    def codes_top(self) -> float:
        """The top of the seats' QR codes' band, between the legend and the signature lines."""
        return round(self.signature_top - LIST_SEAT_CODES_HEIGHT - LIST_SEAT_CODES_REACH, 2)

    @property
    def signatures(self) -> list[dict]:
        """A line for each seat's player, then one for the supervision: left and width (mm)."""
        count = self.size + 1
        width = (LIST_WIDTH - (count - 1) * LIST_SIGNATURE_SPACING) / count
        return [{"left": round(index * (width + LIST_SIGNATURE_SPACING), 2), "width": round(width, 2)}
                for index in range(count)]


#: the table's link as a QR code: right of the legend, between the grid and the signature lines; a seat's own
#: code (two agreeing reports count) is as large: a phone in a dim hall reads a smaller one badly
LIST_QR_SIZE = 22


def table_links(tournament, round_number: int) -> dict[int, dict]:
    """{table id: its link's address, QR code and where the code goes} for the tables with an open link."""
    top = LIST_TITLE_HEIGHT + LIST_HEAD_HEIGHT + LIST_GRID_HEIGHT + LIST_FOOT_HEIGHT + 0.5
    place = {"top": top, "size": LIST_QR_SIZE, "left": LIST_WIDTH - LIST_QR_SIZE, "text_top": top + LIST_QR_SIZE - 7,
             "text_width": LIST_WIDTH - LIST_QR_SIZE - 3}
    return {table: {**link, **place} for table, link in printed_table_links(tournament, round_number).items()}


def seat_codes(grid: ListGrid, table, link) -> list[dict | None]:
    """Each seat's link (two agreeing reports count) where its QR code goes: above the seat's signature line;
    None for a seat without one (and for every seat of a list printed without seats' links)."""
    holders = (link or {}).get("holders", {}) if grid.seat_codes else {}
    return [{**holders[seat.number], "top": grid.codes_top, "left": signature["left"], "size": LIST_QR_SIZE,
             "width": signature["width"]} if seat.number in holders else None
            for seat, signature in zip(table.seats, grid.signatures, strict=False)]


def score_lists(tournament, round_number: int) -> PrintDocument:
    """The pre-filled score list of every table of a round, one A4 page each, in one PDF."""
    settings = settings_of(tournament)
    tables = seated_tables(tournament, round_number=round_number).get(round_number, [])
    per_seat = tournament.agreeing_reports_count
    grids = {size: ListGrid(size, settings.games_at(size), seat_codes=per_seat)
             for size in sorted({t.size for t in tables})}
    links = table_links(tournament, round_number)
    pages = [
        {"table": table, "grid": grids[table.size], "underlay": table.size,
         "link": None if per_seat else links.get(table.table_id),
         "places": list(zip(table.seats, grids[table.size].heads, grids[table.size].signatures,
                            seat_codes(grids[table.size], table, links.get(table.table_id)), strict=False))}
        for table in tables
    ]
    context = {"round": round_number, "seed_note": seed_note(tournament), "title_height": LIST_TITLE_HEIGHT,
               "head_height": LIST_HEAD_HEIGHT, "foot_height": LIST_FOOT_HEIGHT, "columns": LIST_COLUMNS}
    return PrintDocument("schafkopf/print/score_list.html", context, _("Score lists"),
                         f"score-lists-round-{round_number}", pages=first_page_marked(pages),
                         underlay_template="schafkopf/print/score_list_grid.html",
                         underlays={size: {"grid": grid} for size, grid in grids.items()})


# --- results and ranking ---------------------------------------------------------------------------

COUNT_COLUMNS = (
    ("tout_won", TOUT_WON), ("tout_played", TOUT_PLAYED), ("solo_won", SOLO_WON), ("solo_played", SOLO_PLAYED),
)


# Shared lazy texts: a ranking of 2,000 rows holds the same few objects, formatted once per page.
EXCLUDED = _(EXCLUDED_LABEL)
LIST_CORRECTED = _("list corrected")
LIST_MISSING = _("list missing")
NO_RESULT_NOTE = _("“no result yet”: none of the player's lists is entered; listed last, without a rank.")


def _remark(row, *, prizes: bool = False):
    parts = []
    if not row.has_result and not row.substitute_only:
        parts.append(NO_RESULT)
    if row.excluded:
        parts.append(EXCLUDED)
    parts += seat_remarks(row, mark_withdrawn=not row.excluded)
    eligibility = None if row.excluded else eligibility_remark(row.participant, row.missed, prizes=prizes)
    if eligibility is not None:
        parts.append(eligibility)
    if row.corrected:
        parts.append(LIST_CORRECTED)
    return remark(parts)


def _has_remark(row) -> bool:
    return bool(row.excluded or row.corrected or not row.has_result or row.withdrawn or row.played_by
                or row.played_for or row.missed)


def ranking_notes(result) -> list:
    notes = [_("Ranking: points, then won and played touts, won and played solo games (Farbsolo, Wenz, Farbwenz), "
               "then the smaller difference between the rounds, then the lot.")]
    notes += lot_notes(result)
    notes += unranked_notes(result, NO_RESULT_NOTE)
    if result.corrected_lists:
        places = ", ".join(f"{r}/{t}" for r, t in result.corrected_lists)
        notes.append(lazy_format(gettext_noop("Corrected after hand-in (round/table): %(places)s."),
                                 {"places": places}))
    if result.prizes is not None:
        notes.append(lazy_format(
            gettext_noop("Takings %(takings)s, prizes %(total)s."),
            {"takings": result.prizes.takings, "total": result.prizes.total},
        ))
        if result.not_eligible:
            notes.append(lazy_format(
                gettext_noop("No prize for %(players)s: not eligible, did not play every round (the director "
                             "did not tick them eligible). Each prize went to the next eligible player."),
                {"players": ", ".join(f"{row.participant.number} {row.participant.name}"
                                      for row in result.not_eligible)},
            ))
    return notes


def round_results(tournament, round_number: int, tables, sheets) -> TableDocument:
    """One round as entered: every seat with its points and counts, in table and seat order."""
    columns = [
        Column("table", _("Table"), "int"), Column("seat", _("Seat"), "int"), Column("number", _("No."), "int"),
        Column("name", _("Name"), width=24), Column("club", _("Club"), width=20),
        Column("points", _("Points"), "int", width=6),
        *[Column(key, _(metric.abbr), "int", width=4) for key, metric in COUNT_COLUMNS],
        Column("remark", _("Remark")),
    ]
    rows = []
    for table in tables:
        sheet = sheets.get(table.table_id)
        for seat in table.seats:
            row = {"table": table.number, "seat": seat.number, "number": seat.participant.number,
                   "name": player_name(seat), "club": seat.participant.club}
            if sheet is None:
                row["remark"] = LIST_MISSING
            else:
                key = str(seat.number)
                row["points"] = sheet.derived["totals"][key]
                row.update({name: sheet.derived["counts"][key][name] for name, _metric in COUNT_COLUMNS})
                row["remark"] = LIST_CORRECTED if sheet.corrected else ""
            rows.append(row)
    # provisional while lists of the round are missing, as the ranking says it
    progress = ResultProgress(entered=sum(table.table_id in sheets for table in tables), expected=len(tables),
                              unit="lists")
    return TableDocument(lazy_round_heading(progress, round_number), columns, rows,
                         filename_stem=f"round-{round_number}", keep_together="table")


def _round_sheets(tournament) -> list[TableDocument]:
    tables = seated_tables(tournament)
    sheets = sheets_by_table(tournament)
    return [round_results(tournament, number, tables[number], sheets) for number in sorted(tables)]


def standings_document(tournament) -> MultiSheetDocument:
    """The ranking with the prizes first (what a director hands over), then every round's results."""
    return MultiSheetDocument(
        _("Standings"), [PRINTOUTS.ranking_document(tournament), *_round_sheets(tournament)], filename_stem="standings",
        landscape=True, dense=True,
    )


def results_document(tournament) -> MultiSheetDocument:
    """The Excel export: every round, the final ranking, and every game in long format."""
    return MultiSheetDocument(
        _("Results"), [*_round_sheets(tournament), PRINTOUTS.ranking_document(tournament), games_document(tournament)],
        filename_stem="results", landscape=True,
    )


def games_document(tournament) -> TableDocument:
    """Every game entered game by game, one row each: who declared, the outcome and every seat's points.

    Kept to few columns on purpose: 30,000 games make this the largest sheet of the Excel export, and
    its time grows with the number of cells.
    """
    settings = settings_of(tournament)
    numbers: dict[int, dict[int, int]] = {}
    for table_id, seat, number in Seat.objects.filter(
        table__round__stage__tournament=tournament, table__round__stage__kind=Stage.Kind.ROUNDS
    ).values_list("table_id", "number", "participant__number"):
        numbers.setdefault(table_id, {})[seat] = number
    seats = max((len(table) for table in numbers.values()), default=4)
    columns = [
        Column("round", _("Round"), "int"), Column("table", _("Table"), "int"), Column("game", _("Game"), "int"),
        Column("type", _("Game type")), Column("declarer", _("Declarer (no.)"), "int"),
        Column("partner", _("Partner (no.)"), "int"), Column("outcome", _("Outcome")),
    ]
    if settings.tariff.laufende_from is not None:
        columns.append(Column("laufende", _("Laufende"), "int"))
    columns += [Column(f"seat{s}", lazy_format(gettext_noop("Seat %(seat)s"), {"seat": s}), "int")
                for s in range(1, seats + 1)]
    # A generator: read once by the renderer, inside the printout's language.
    rows = _game_rows(tournament, settings, numbers, seats)
    return TableDocument(_("Games"), columns, rows, filename_stem="games",
                         notes=[_("Seat n: the points of the player on seat n of that table (see the round sheets).")])


def _outcome_texts() -> dict:
    """Every outcome's text, in the language in force: won or lost, Schneider or Schwarz, tout."""
    texts = {}
    for won in (True, False):
        result = gettext("won") if won else gettext("lost")
        texts[won, False, False] = result
        texts[won, True, False] = f"{result} · {gettext('Schneider')}"
        texts[won, True, True] = texts[won, False, True] = f"{result} · {gettext('Schwarz')}"
    return texts


def _game_rows(tournament, settings, numbers, seats: int):
    outcomes = _outcome_texts()
    tout = gettext("tout")
    type_names = {key: gettext(game.name) for key, game in GAME_TYPES.items()}
    laufende = settings.tariff.laufende_from is not None
    sheets = ScoreSheet.objects.filter(
        tournament=tournament, table__isnull=False, mode=GAMES_MODE, table__round__stage__kind=Stage.Kind.ROUNDS
    ).order_by("table__round__number", "table__number").values_list(
        "table__round__number", "table__number", "table_id", "entries"
    )
    for round_number, table_number, table_id, entries in sheets:
        seat_numbers = numbers[table_id]
        size = len(seat_numbers)
        result = score_list([entry_from_json(e) for e in entries], table_size=size, tariff=settings.tariff)
        for row in result.rows:
            entry = row.entry
            outcome = outcomes[entry.won, entry.schneider, entry.schwarz]
            if entry.tout:
                outcome = f"{outcome} · {tout} ({entry.tout_initials})"
            points = row.points
            yield (
                round_number, table_number, row.game_number, type_names[entry.game_type],
                seat_numbers[entry.declarer], seat_numbers.get(entry.partner), outcome,
                *((entry.laufende or None,) if laufende else ()),
                *[points.get(s) for s in range(1, seats + 1)],
            )


PRINTOUTS = SchafkopfPrintouts()
