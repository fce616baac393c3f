"""Schafkopf printouts and exports, as documents for the shared renderers (`documents` package).

Tables (seating lists, round results, the ranking, every game) are `TableDocument`s, so the web page,
the PDF and the Excel sheet show the same rows; the table cards, participant cards and score lists are
`PrintDocument`s with one template per page. Titles and column names are lazy: the screen shows them in
the screen's language, the renderers in the tournament's.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import partial

from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from documents import Column, MultiSheetDocument, PrintDocument, TableDocument
from scoring.models import ScoreSheet
from scoring.progress import ResultProgress, lazy_heading, lazy_round_heading
from scoring.rules.schafkopf import (
    EXCLUDED_LABEL,
    GAME_TYPES,
    ROUND_SPREAD,
    SOLO_PLAYED,
    SOLO_WON,
    TOUT_PLAYED,
    TOUT_WON,
    score_list,
)
from scoring.rules.standings import LOT_NAME
from scoring.seated.queries import places_by_participant, seated_tables, sheets_by_table
from scoring.withdrawals import eligibility_remark, remark, replaced_by, seat_remarks
from tournament.models import Participant, Seat, Stage
from tournament.public.links import published_page
from tournament.services.seating import current_draw

from .config import GAMES_MODE, settings_of
from .services import entry_from_json
from .standings import standings


def _format(message: str, params: dict) -> str:
    """`message` translated, its numbers written as the language writes them ("555,00" in German and Danish)."""
    return gettext(message) % {key: number_format(value) if isinstance(value, Decimal | float) else value
                               for key, value in params.items()}


#: a translatable sentence with parameters, translated when it is shown (screen or printout language)
lazy_format = lazy(_format, str)


def documents(tournament) -> dict:
    """The game's documents by name, for the printouts page and `manage.py export`."""
    rounds = settings_of(tournament).rounds
    found = {
        "seating-by-name": partial(seating_by_name, tournament),
        "seating-by-table": partial(seating_by_table, tournament),
        "table-cards": partial(table_cards, tournament),
        "participant-cards": partial(participant_cards, tournament),
        "standings": partial(standings_document, tournament),
        "results": partial(results_document, tournament),
        "ranking": partial(ranking_document, tournament),
    }
    for number in range(1, rounds + 1):
        found[f"score-lists-{number}"] = partial(score_lists, tournament, number)
        if number < rounds:
            found[f"ranking-after-{number}"] = partial(ranking_document, tournament, after_round=number)
    return found


def _seed_note(tournament):
    draw = current_draw(tournament)
    return lazy_format(gettext_noop("Seating drawn with seed %(seed)s."), {"seed": draw.seed}) if draw else ""


def _round_title(number: int):
    return lazy_format(gettext_noop("Round %(number)s"), {"number": number})


# --- seating ---------------------------------------------------------------------------------------


def seating_by_name(tournament) -> TableDocument:
    """Everyone in alphabetical order with table and seat of every round: the list for the wall."""
    tables = seated_tables(tournament)
    places = places_by_participant(tables)
    rounds = sorted(tables)
    players = sorted(
        (p for p in tournament.participants.all() if p.pk in places),
        key=lambda p: (p.last_name.casefold(), p.first_name.casefold(), p.number),
    )
    # Widths keep each player on one line, so a page's chunk of rows never spills onto the next page.
    columns = [Column("name", _("Name"), width=30), Column("number", _("No."), "int", width=6),
               Column("club", _("Club"), width=24)]
    for number in rounds:
        columns += [
            Column(f"table{number}", lazy_format(gettext_noop("R%(round)s table"), {"round": number}), "int"),
            Column(f"seat{number}", lazy_format(gettext_noop("R%(round)s seat"), {"round": number}), "int"),
        ]
    if any(p.status != Participant.Status.ACTIVE for p in players):
        columns.append(Column("status", _("Remark"), width=12))
    rows = []
    for player in players:
        row = {"name": player.sort_name, "number": player.number, "club": player.club,
               "status": "" if player.status == Participant.Status.ACTIVE else player.get_status_display()}
        for number, (table, seat) in places[player.pk].items():
            row[f"table{number}"], row[f"seat{number}"] = table, seat
        rows.append(row)
    return TableDocument(
        _("Seating by name"), columns, rows, subtitle=_seed_note(tournament),
        notes=[_("Seat 1 is the scribe and hands in the score list.")], filename_stem="seating-by-name",
        qr_page=published_page(tournament, "schedule"),
    )


def seating_by_table(tournament) -> MultiSheetDocument:
    """Each round's tables with their players in seat order (one sheet or section per round)."""
    columns = [Column("table", _("Table"), "int"), Column("seat", _("Seat"), "int"), Column("number", _("No."), "int"),
               Column("name", _("Name")), Column("club", _("Club"))]
    sheets = []
    for number, tables in sorted(seated_tables(tournament).items()):
        rows = [
            {"table": table.number, "seat": seat.number, "number": seat.participant.number,
             "name": _player_name(seat), "club": seat.participant.club}
            for table in tables for seat in table.seats
        ]
        sheets.append(TableDocument(_round_title(number), columns, rows, subtitle=_seed_note(tournament),
                                    filename_stem=f"seating-round-{number}", keep_together="table"))
    return MultiSheetDocument(_("Seating by table"), sheets, filename_stem="seating-by-table",
                              qr_page=published_page(tournament, "schedule"))


def _player_name(seat):
    if seat.substitute_id:
        # Lazy, as every text of a document: it is built in the screen's language, printed in the tournament's.
        return lazy_format(gettext_noop("%(player)s, played by %(substitute)s"),
                           {"player": seat.participant.name, "substitute": seat.substitute.name})
    return seat.participant.name


def table_cards(tournament) -> PrintDocument:
    """One page per table number: the number, large, and who sits there in each round."""
    by_number: dict[int, list] = {}
    for _number, tables in sorted(seated_tables(tournament).items()):
        for table in tables:
            by_number.setdefault(table.number, []).append(table)
    pages = [{"number": number, "tables": tables} for number, tables in sorted(by_number.items())]
    return PrintDocument("schafkopf/print/table_card.html", {"seed_note": _seed_note(tournament)},
                         _("Table cards"), "table-cards", pages=_first_page_marked(pages), landscape=True)


def participant_cards(tournament, per_page: int = 8) -> PrintDocument:
    """A card per player with the table and seat of every round, eight to a page, to cut apart."""
    tables = seated_tables(tournament)
    places = places_by_participant(tables)
    players = [p for p in tournament.participants.all() if p.pk in places]
    # a round whose seat a substitute plays for the card's player: his card names the substitute, not the seat
    replaced = replaced_by(tables)
    cards = [{"player": p, "places": [(number, place, replaced.get((number, p.pk)))
                                      for number, place in sorted(places[p.pk].items())]} for p in players]
    pages = [{"cards": cards[start:start + per_page]} for start in range(0, len(cards), per_page)]
    return PrintDocument("schafkopf/print/participant_cards.html", {}, _("Participant cards"), "participant-cards",
                         pages=_first_page_marked(pages))


def _first_page_marked(pages: list[dict]) -> list[dict]:
    # The first page carries the printout's stylesheet: once per PDF, not once per page.
    if pages:
        pages[0] = {**pages[0], "first": True}
    return pages


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

    @property
    def row(self) -> float:
        return round(min(LIST_ROW_MAX, LIST_GRID_HEIGHT / self.games), 2)

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
        return LIST_TITLE_HEIGHT + LIST_HEAD_HEIGHT + self.row * self.games + LIST_FOOT_HEIGHT + LIST_SIGNATURE_GAP

    @property
    def signatures(self) -> list[dict]:
        """A line for each seat's player, then one for the supervision: left and width (mm)."""
        count = self.size + 1
        width = (LIST_WIDTH - (count - 1) * LIST_SIGNATURE_SPACING) / count
        return [{"left": round(index * (width + LIST_SIGNATURE_SPACING), 2), "width": round(width, 2)}
                for index in range(count)]


#: the table's link as a QR code: right of the legend, between the grid and the signature lines
LIST_QR_SIZE = 22


def table_links(tournament, round_number: int) -> dict[int, dict]:
    """{table id: its link's address, QR code and where the code goes} for the tables with an open link.

    Only links the director issued (the round's links page): a printout never issues one itself.
    """
    from scoring.link_pages import link_url
    from scoring.models import TableLink
    from scoring.results.links import current_token
    from tournament.public.qr import qr_svg

    found = {}
    for link in TableLink.objects.filter(tournament=tournament, table__round__number=round_number,
                                         table__round__stage__tournament=tournament, revoked_at=None):
        token = current_token(link)
        if token:
            address = link_url(token)
            top = LIST_TITLE_HEIGHT + LIST_HEAD_HEIGHT + LIST_GRID_HEIGHT + LIST_FOOT_HEIGHT + 0.5
            found[link.table_id] = {"url": address, "qr": qr_svg(address), "top": top, "size": LIST_QR_SIZE,
                                    "left": LIST_WIDTH - LIST_QR_SIZE, "text_top": top + LIST_QR_SIZE - 7,
                                    "text_width": LIST_WIDTH - LIST_QR_SIZE - 3}
    return found


def score_lists(tournament, round_number: int) -> PrintDocument:
    """The pre-filled score list of every table of a round, one A4 page each, in one PDF."""
    settings = settings_of(tournament)
    tables = seated_tables(tournament, round_number=round_number).get(round_number, [])
    grids = {size: ListGrid(size, settings.games_at(size)) for size in sorted({t.size for t in tables})}
    links = table_links(tournament, round_number)
    pages = [
        {"table": table, "grid": grids[table.size], "underlay": table.size, "link": links.get(table.table_id),
         "places": list(zip(table.seats, grids[table.size].heads, grids[table.size].signatures, strict=False))}
        for table in tables
    ]
    context = {"round": round_number, "seed_note": _seed_note(tournament), "title_height": LIST_TITLE_HEIGHT,
               "head_height": LIST_HEAD_HEIGHT, "foot_height": LIST_FOOT_HEIGHT, "columns": LIST_COLUMNS}
    return PrintDocument("schafkopf/print/score_list.html", context, _("Score lists"),
                         f"score-lists-round-{round_number}", pages=_first_page_marked(pages),
                         underlay_template="schafkopf/print/score_list_grid.html",
                         underlays={size: {"grid": grid} for size, grid in grids.items()})


# --- results and ranking ---------------------------------------------------------------------------

COUNT_COLUMNS = (
    ("tout_won", TOUT_WON), ("tout_played", TOUT_PLAYED), ("solo_won", SOLO_WON), ("solo_played", SOLO_PLAYED),
)


def ranking_columns(rounds: int, *, with_prize: bool, with_remark: bool, with_lot: bool = True) -> list[Column]:
    # Widths (in characters) so that a row stays on one line on a landscape page: a wrapped row makes a
    # page's chunk of rows spill over onto the next page. The lot and remark columns only when some row has
    # a lot or a remark (an empty column takes the width a long name needs on a laptop screen).
    columns = [
        Column("rank", _("Rank"), "int", width=4), Column("number", _("No."), "int", width=4),
        Column("name", _("Name"), width=20), Column("club", _("Club"), width=15),
    ]
    columns += [Column(f"round{r}", lazy_format(gettext_noop("R%(round)s"), {"round": r}), "int", width=4)
                for r in range(1, rounds + 1)]
    columns.append(Column("points", _("Points"), "int", width=5))
    columns += [Column(key, _(metric.abbr), "int", width=3) for key, metric in COUNT_COLUMNS]
    columns.append(Column("round_spread", _(ROUND_SPREAD.abbr), "int", width=4))
    if with_lot:
        columns.append(Column("lot", _(LOT_NAME), align="center", width=5))
    if with_prize:
        columns.append(Column("prize", _("Prize"), "decimal", width=7))
    if with_remark:
        columns.append(Column("remark", _("Remark")))
    return columns


# Shared lazy texts: a ranking of 2,000 rows holds the same few objects, formatted once per page.
BY_LOT = _("by lot")
EXCLUDED = _(EXCLUDED_LABEL)
LIST_CORRECTED = _("list corrected")
LIST_MISSING = _("list missing")
NO_RESULT = _("no result yet")


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


def ranking_rows(result) -> list[dict]:
    rows = []
    prizes = result.prizes is not None
    for row in result.rows:
        values = row.values
        item = {
            "rank": row.rank, "number": row.participant.number, "name": row.participant.name,
            "club": row.participant.club, "points": values["points"], "round_spread": values["round_spread"],
            "lot": BY_LOT if row.by_lot else "", "prize": row.prize,
            "remark": _remark(row, prizes=prizes),
        }
        item.update({f"round{r}": points for r, points in enumerate(row.rounds, start=1)})
        item.update({key: values[key] for key, _metric in COUNT_COLUMNS})
        rows.append(item)
    return rows


def ranking_notes(result) -> list:
    notes = [_("Ranking: points, then won and played touts, won and played solo games (Farbsolo, Wenz, Farbwenz), "
               "then the smaller difference between the rounds, then the lot.")]
    if result.any_lot:
        notes.append(lazy_format(gettext_noop("“by lot”: tied on every step, decided by lot (seed %(seed)s)."),
                                 {"seed": result.lot_seed}))
    if any(not row.has_result and not row.substitute_only for row in result.rows):
        notes.append(_("“no result yet”: none of the player's lists is entered; listed last, without a rank."))
    if any(row.substitute_only for row in result.rows):
        notes.append(_("A substitute whose seats' points stay with the players he replaced has no result of his "
                       "own: listed last, without a rank."))
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


def ranking_document(tournament, *, after_round: int | None = None, result=None) -> TableDocument:
    """The ranking after a round (default: the final ranking, with the prize money)."""
    result = result or standings(tournament, after_round=after_round)
    # "Final ranking" only once every list is in; before that "Provisional — after 8 of 18 score lists"
    title = lazy_heading(result.progress, None if result.last_round else result.after_round)
    with_remark = any(_has_remark(row) for row in result.rows)
    columns = ranking_columns(result.after_round, with_prize=result.prizes is not None, with_remark=with_remark,
                              with_lot=result.any_lot)
    return TableDocument(
        title, columns, ranking_rows(result),
        notes=ranking_notes(result),
        filename_stem="ranking" if result.last_round else f"ranking-after-{result.after_round}",
        landscape=True, dense=True, one_page=True,
    )


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
                   "name": _player_name(seat), "club": seat.participant.club}
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
        _("Standings"), [ranking_document(tournament), *_round_sheets(tournament)], filename_stem="standings",
        landscape=True, dense=True,
    )


def results_document(tournament) -> MultiSheetDocument:
    """The Excel export: every round, the final ranking, and every game in long format."""
    return MultiSheetDocument(
        _("Results"), [*_round_sheets(tournament), ranking_document(tournament), games_document(tournament)],
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
