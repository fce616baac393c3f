"""Schafkopf printouts and exports, as documents for the shared renderers (`documents` package).

Tables (seating lists, round results, the ranking, every game) are `TableDocument`s, so the web page,
the PDF and the Excel sheet show the same rows; the table cards, participant cards and score lists are
`PrintDocument`s with one template per page. Titles and column names are lazy: the screen shows them in
the screen's language, the renderers in the tournament's.
"""

from __future__ import annotations

from functools import partial

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from documents import Column, MultiSheetDocument, PrintDocument, TableDocument
from scoring.rules.schafkopf import (
    EXCLUDED_LABEL,
    GAME_TYPES,
    ROUND_SPREAD,
    SOLO_PLAYED,
    SOLO_WON,
    TOUT_PLAYED,
    TOUT_WON,
    dealer_of,
    score_list,
    sitting_out,
)
from scoring.rules.standings import LOT_NAME

from .config import GAMES_MODE, settings_of
from .queries import places_by_participant, seated_tables, sheets_by_table
from .services import current_draw, entry_from_json
from .standings import standings


def _format(message: str, params: dict) -> str:
    return gettext(message) % params


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
    columns = [Column("name", _("Name")), Column("number", _("No."), "int"), Column("club", _("Club"))]
    for number in rounds:
        columns += [
            Column(f"table{number}", lazy_format(gettext_noop("R%(round)s table"), {"round": number}), "int"),
            Column(f"seat{number}", lazy_format(gettext_noop("R%(round)s seat"), {"round": number}), "int"),
        ]
    rows = []
    for player in players:
        row = {"name": player.sort_name, "number": player.number, "club": player.club}
        for number, (table, seat) in places[player.pk].items():
            row[f"table{number}"], row[f"seat{number}"] = table, seat
        rows.append(row)
    return TableDocument(
        _("Seating by name"), columns, rows, subtitle=_seed_note(tournament),
        notes=[_("Seat 1 is the scribe and hands in the score list.")], filename_stem="seating-by-name",
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
                                    filename_stem=f"seating-round-{number}"))
    return MultiSheetDocument(_("Seating by table"), sheets, filename_stem="seating-by-table")


def _player_name(seat) -> str:
    if seat.substitute_id:
        return _format(gettext_noop("%(player)s, played by %(substitute)s"),
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
    cards = [{"player": p, "places": sorted(places[p.pk].items())} for p in players]
    pages = [{"cards": cards[start:start + per_page]} for start in range(0, len(cards), per_page)]
    return PrintDocument("schafkopf/print/participant_cards.html", {}, _("Participant cards"), "participant-cards",
                         pages=_first_page_marked(pages))


def _first_page_marked(pages: list[dict]) -> list[dict]:
    # The first page carries the printout's stylesheet: once per PDF, not once per page.
    if pages:
        pages[0] = {**pages[0], "first": True}
    return pages


# --- score lists -----------------------------------------------------------------------------------


def score_lists(tournament, round_number: int) -> PrintDocument:
    """The pre-filled score list of every table of a round, one A4 page each, in one PDF."""
    settings = settings_of(tournament)
    tables = seated_tables(tournament, round_number=round_number).get(round_number, [])
    rows_by_size = {size: _list_rows(settings.games_at(size), size) for size in {t.size for t in tables}}
    pages = [
        {"table": table, "rows": rows_by_size[table.size], "seat_numbers": range(1, table.size + 1)}
        for table in tables
    ]
    context = {"round": round_number, "seed_note": _seed_note(tournament), "tariff": settings.tariff}
    return PrintDocument("schafkopf/print/score_list.html", context, _("Score lists"),
                         f"score-lists-round-{round_number}", pages=_first_page_marked(pages))


def _list_rows(games: int, table_size: int) -> list[dict]:
    """Each printed row: game number, dealer, and which seat's points cell is greyed (5-table: sits out)."""
    return [
        {"game": game, "dealer": dealer_of(game, table_size), "out": sitting_out(game, table_size),
         "no_tout": game == 1}
        for game in range(1, games + 1)
    ]


# --- results and ranking ---------------------------------------------------------------------------

COUNT_COLUMNS = (
    ("tout_won", TOUT_WON), ("tout_played", TOUT_PLAYED), ("solo_won", SOLO_WON), ("solo_played", SOLO_PLAYED),
)


def ranking_columns(rounds: int, *, with_prize: bool) -> list[Column]:
    columns = [
        Column("rank", _("Rank"), "int"), Column("number", _("No."), "int"), Column("name", _("Name")),
        Column("club", _("Club")),
    ]
    columns += [Column(f"round{r}", lazy_format(gettext_noop("R%(round)s"), {"round": r}), "int")
                for r in range(1, rounds + 1)]
    columns.append(Column("points", _("Points"), "int"))
    columns += [Column(key, _(metric.abbr), "int") for key, metric in COUNT_COLUMNS]
    columns.append(Column("round_spread", _(ROUND_SPREAD.abbr), "int"))
    columns.append(Column("lot", _(LOT_NAME), align="center"))
    if with_prize:
        columns.append(Column("prize", _("Prize"), "decimal"))
    columns.append(Column("remark", _("Remark")))
    return columns


def _remark(row) -> str:
    remarks = []
    if row.excluded:
        remarks.append(_(EXCLUDED_LABEL))
    if row.corrected:
        remarks.append(_("list corrected"))
    return _join(remarks) if remarks else ""


_join = lazy(lambda items: ", ".join(str(item) for item in items), str)


def ranking_rows(result) -> list[dict]:
    rows = []
    for row in result.rows:
        values = row.values
        item = {
            "rank": row.rank, "number": row.participant.number, "name": row.participant.name,
            "club": row.participant.club, "points": values["points"], "round_spread": values["round_spread"],
            "lot": _("by lot") if row.by_lot else "", "prize": row.prize, "remark": _remark(row),
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
    if not result.complete:
        notes.append(lazy_format(gettext_noop("Provisional: %(entered)s of %(total)s score lists entered."),
                                 {"entered": result.lists_entered, "total": result.lists_total}))
    if result.corrected_lists:
        places = ", ".join(f"{r}/{t}" for r, t in result.corrected_lists)
        notes.append(lazy_format(gettext_noop("Corrected after hand-in (round/table): %(places)s."),
                                 {"places": places}))
    if result.prizes is not None:
        notes.append(lazy_format(
            gettext_noop("Takings %(takings)s, prizes %(total)s."),
            {"takings": result.prizes.takings, "total": result.prizes.total},
        ))
    return notes


def ranking_document(tournament, *, after_round: int | None = None, result=None) -> TableDocument:
    """The ranking after a round (default: the final ranking, with the prize money)."""
    result = result or standings(tournament, after_round=after_round)
    title = _("Final ranking") if result.final else lazy_format(
        gettext_noop("Standings after round %(round)s"), {"round": result.after_round})
    return TableDocument(
        title, ranking_columns(result.after_round, with_prize=result.prizes is not None), ranking_rows(result),
        notes=ranking_notes(result), filename_stem="ranking" if result.final else f"ranking-after-{result.after_round}",
        landscape=True,
    )


def round_results(tournament, round_number: int, tables, sheets) -> TableDocument:
    """One round as entered: every seat with its points and counts, in table and seat order."""
    columns = [
        Column("table", _("Table"), "int"), Column("seat", _("Seat"), "int"), Column("number", _("No."), "int"),
        Column("name", _("Name")), Column("club", _("Club")), Column("points", _("Points"), "int"),
        *[Column(key, _(metric.abbr), "int") for key, metric in COUNT_COLUMNS],
        Column("remark", _("Remark")),
    ]
    rows = []
    for table in tables:
        sheet = sheets.get(table.table_id)
        for seat in table.seats:
            row = {"table": table.number, "seat": seat.number, "number": seat.participant.number,
                   "name": _player_name(seat), "club": seat.participant.club}
            if sheet is None:
                row["remark"] = _("list missing")
            else:
                key = str(seat.number)
                row["points"] = sheet.derived["totals"][key]
                row.update({name: sheet.derived["counts"][key][name] for name, _metric in COUNT_COLUMNS})
                row["remark"] = _("list corrected") if sheet.corrected else ""
            rows.append(row)
    return TableDocument(_round_title(round_number), columns, rows, filename_stem=f"round-{round_number}")


def _round_sheets(tournament) -> list[TableDocument]:
    tables = seated_tables(tournament)
    sheets = sheets_by_table(tournament)
    return [round_results(tournament, number, tables[number], sheets) for number in sorted(tables)]


def standings_document(tournament) -> MultiSheetDocument:
    """Every round's results, then the final ranking with the prizes."""
    return MultiSheetDocument(
        _("Standings"), [*_round_sheets(tournament), ranking_document(tournament)], filename_stem="standings",
        landscape=True,
    )


def results_document(tournament) -> MultiSheetDocument:
    """The Excel export: every round, the final ranking, and every game in long format."""
    return MultiSheetDocument(
        _("Results"), [*_round_sheets(tournament), ranking_document(tournament), games_document(tournament)],
        filename_stem="results", landscape=True,
    )


def games_document(tournament) -> TableDocument:
    """Every game entered game by game, one row each: who declared, the outcome and every seat's points."""
    settings = settings_of(tournament)
    numbers = {
        table.table_id: {seat.number: seat.participant.number for seat in table.seats}
        for tables in seated_tables(tournament).values() for table in tables
    }
    columns = [
        Column("round", _("Round"), "int"), Column("table", _("Table"), "int"), Column("game", _("Game"), "int"),
        Column("dealer", _("Dealer"), "int"), Column("type", _("Game type")),
        Column("declarer", _("Declarer (seat)"), "int"), Column("declarer_no", _("Declarer (no.)"), "int"),
        Column("partner", _("Partner (seat)"), "int"), Column("partner_no", _("Partner (no.)"), "int"),
        Column("won", _("Won")), Column("schneider", _("Schneider")), Column("schwarz", _("Schwarz")),
        Column("tout", _("Tout")), Column("initials", _("Initials")), Column("laufende", _("Laufende"), "int"),
        *[Column(f"seat{s}", lazy_format(gettext_noop("Seat %(seat)s"), {"seat": s}), "int") for s in range(1, 6)],
    ]
    # A generator: read once by the renderer, inside the printout's language.
    return TableDocument(_("Games"), columns, _game_rows(tournament, settings, numbers), filename_stem="games")


def _game_rows(tournament, settings, numbers):
    yes, no = gettext("yes"), ""
    type_names = {key: gettext(game.name) for key, game in GAME_TYPES.items()}
    sheets = sorted(
        sheets_by_table(tournament, with_entries=True).values(),
        key=lambda sheet: (sheet.table.round.number, sheet.table.number),
    )
    for sheet in sheets:
        if sheet.mode != GAMES_MODE:
            continue
        seat_numbers = numbers[sheet.table_id]
        size = len(seat_numbers)
        result = score_list([entry_from_json(e) for e in sheet.entries], table_size=size, tariff=settings.tariff)
        for row in result.rows:
            entry = row.entry
            yield (
                sheet.table.round.number, sheet.table.number, row.game_number, row.dealer,
                type_names[entry.game_type], entry.declarer, seat_numbers[entry.declarer], entry.partner,
                seat_numbers.get(entry.partner), yes if entry.won else no, yes if entry.schneider else no,
                yes if entry.schwarz else no, yes if entry.tout else no, entry.tout_initials, entry.laufende,
                *[row.points.get(s) for s in range(1, 6)],
            )
