"""Table-game printouts and exports, as documents for the shared renderers (`documents` package).

The seating lists and the ranking are the shared ones (`scoring.seated.documents`), shaped by
`TableGamePrintouts`; here are the game's own: the long list of every hand (a `TableDocument`, so the web
page, the PDF and the Excel sheet show the same rows); the score sheets are `PrintDocument`s with one page per
table (patiences: the field's result list, a page per 24 players). Titles and column names are lazy:
the screen shows them in the screen's language, the renderers in the tournament's.
"""

from __future__ import annotations

from functools import partial

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from documents import Column, MultiSheetDocument, PrintDocument, TableDocument
from scoring.rules.domino import FINISH_TIME, TILES_LEFT
from scoring.rules.tablegames import FIELD_BOOL, FIELD_INT, FIELD_PLAYER, FIELD_SIGNED_INT, TOURNAMENT_POINTS
from scoring.seated.documents import (
    NO_RESULT,
    SeatedPrintouts,
    first_page_marked,
    lazy_format,
    lot_notes,
    printed_table_links,
    seed_note,
    unranked_notes,
)
from scoring.seated.queries import seated_tables, sheets_by_table
from scoring.withdrawals import eligibility_remark, is_withdrawn, remark, seat_remarks
from tournament.addresses import published_page

from .config import settings_of
from .sheets import follow, shown_fields
from .standings import half

NUMBER_FIELDS = (FIELD_INT, FIELD_SIGNED_INT)
#: players per page of a patience's result list
FIELD_ROWS_PER_PAGE = 24


class TableGamePrintouts(SeatedPrintouts):
    """A table game's documents: the shared seating lists and ranking, and its own score sheets (a patience's
    result lists) and every hand."""

    prize_tick = True

    def seating_rounds(self, tournament, tables):
        # a patience's whole field plays every deal: the list of the field has no places
        return [] if settings_of(tournament).patience else sorted(tables)

    def seating_title(self, tournament):
        return _("The field") if settings_of(tournament).patience else _("Seating by name")

    def seating_qr(self, tournament):
        # a patience has no seating page (the whole field plays every deal), so its list of the field has no QR code
        return None if settings_of(tournament).patience else super().seating_qr(tournament)

    def own_documents(self, tournament):
        return {"results": partial(results_document, tournament)}

    def round_documents(self, tournament, number):
        return {f"score-sheets-{number}": partial(score_sheets, tournament, number)}

    def printout_items(self, tournament):
        settings = settings_of(tournament)
        if settings.patience:
            items = [("seating-by-name", _("The field: every player with participant number"), ("pdf", "xlsx"))]
            sheet_label = gettext_noop("Result list of deal %(number)s (tiles left, finish time)")
        else:
            items = [
                ("seating-by-name", _("Seating by name (for the wall)"), ("pdf", "xlsx")),
                ("seating-by-table", _("Seating by table"), ("pdf", "xlsx")),
            ]
            sheet_label = gettext_noop("Score sheets of round %(number)s (one page per table, one row per hand)")
        items += [(f"score-sheets-{r}", lazy_format(sheet_label, {"number": r}), ("pdf",))
                  for r in range(1, settings.rounds + 1)]
        items += [
            ("standings", _("Standings"), ("pdf", "xlsx")),
            ("results", _("All results, one row per hand and player (long format)"), ("xlsx",)),
        ]
        return items

    def standings_extra(self, tournament, result):
        return {**super().standings_extra(tournament, result), "unfinished": list(result.unfinished),
                "patience": result.settings.patience}

    # --- the ranking ---------------------------------------------------------------------------------------

    def round_column(self, result, number):
        if result.settings.patience:
            return Column(f"round{number}", lazy_format(gettext_noop("R%(round)s tiles"), {"round": number}), "int")
        return Column(f"round{number}", lazy_format(gettext_noop("R%(round)s TP"), {"round": number}), "decimal")

    def metric_column(self, result, metric):
        if metric.key == FINISH_TIME:
            return Column(metric.key, _(metric.name), align="right")
        return Column(metric.key, _(metric.name), "decimal" if metric.key == TOURNAMENT_POINTS else "int")

    def round_value(self, result, value):
        return value if result.settings.patience else half(value)

    def metric_value(self, result, metric, row):
        value = row.values.get(metric.key)
        if metric.key == TOURNAMENT_POINTS:
            return half(value)
        if metric.key == FINISH_TIME:
            return format_seconds(value)
        return value if metric.key == TILES_LEFT else result.settings.shown(value)

    def remark(self, result, row):
        """No result yet, withdrawn, who played whose seat and whether he may win a prize (scoring.withdrawals),
        sheet corrected: whichever apply, in that order."""
        parts = [] if row.has_result or row.substitute_only else [NO_RESULT]
        parts += seat_remarks(row)
        eligibility = eligibility_remark(row.participant, row.missed, prizes=True)
        if eligibility is not None:
            parts.append(eligibility)
        if row.corrected:
            parts.append(SHEET_CORRECTED)
        return remark(parts)

    def ranking_notes(self, result):
        return ranking_notes(result)


# --- score sheets --------------------------------------------------------------------------------------


def sheet_rows(settings) -> int:
    """Rows of a printed sheet: the fixed number of hands, else the game's usual length."""
    return settings.fixed_hands or settings.game.sheet_rows


#: A score sheet's page (A4 landscape less the margins of tablegames/print.css), in mm: its text area's height,
#: what the title, the players' table (head and margin, then one row per player), the head of the hands, the
#: legend and the signatures take, and the height of a hand's row (at most the roomy one, at least one to
#: write a number in; below that a sheet of many hands runs onto a second page, head repeated).
SHEET_HEIGHT = 210 - 2 * 14
SHEET_FIXED = 10 + 9 + 22 + 8 + 19 + 4  # title, players' head and margin, hands' head (field names of up to three
#                                       lines), legend (up to two lines), signatures, spare
SHEET_PLAYER_ROW = 6
HAND_ROW_MAX, HAND_ROW_MIN = 7.2, 4.0


def hand_row_height(players: int, hands: int) -> float:
    """The height of a hand's row so that a sheet for `players` with `hands` rows fits on its page."""
    room = SHEET_HEIGHT - SHEET_FIXED - SHEET_PLAYER_ROW * players
    return round(max(HAND_ROW_MIN, min(HAND_ROW_MAX, room / hands)), 2)


#: two agreeing reports count: the seats' QR codes beside the players, each as large as the table's code on a
#: Schafkopf list (a phone in a dim hall reads a smaller one badly), side by side up to five, else in two rows;
#: right of them the public page's code; the players' table gives up the width they take (mm)
SEAT_QR_SIZE, SEAT_QR_GAP, SEAT_QRS_PER_ROW = 22, 3, 5
SHEET_WIDTH, SEAT_QRS_RIGHT, PLAYERS_WIDTH_MAX = 297 - 2 * 12, 24, 164


def seat_links(seats, holders: dict) -> list[dict]:
    """Each seat's own link (two agreeing reports count) with the size of its QR code, in seat order; [] when
    the table's seats have none."""
    return [{"seat": seat.number, "size": SEAT_QR_SIZE, **holders[seat.number]}
            for seat in seats if seat.number in holders]


def seat_links_width(count: int) -> int:
    """The width of `count` seats' codes, in as few rows as hold them, each row as full as the others."""
    if not count:
        return 0
    per_row = -(-count // -(-count // SEAT_QRS_PER_ROW))
    return per_row * SEAT_QR_SIZE + (per_row - 1) * SEAT_QR_GAP


def score_sheets(tournament, round_number: int) -> PrintDocument:
    """The pre-filled sheet of every table of a round, one A4 page each, in one PDF."""
    settings = settings_of(tournament)
    tables = seated_tables(tournament, round_number=round_number).get(round_number, [])
    if settings.patience:
        return _result_lists(tournament, settings, round_number, tables)
    row_fields, player_fields = shown_fields(settings.spec)
    links = printed_table_links(tournament, round_number)
    sheets = sheets_by_table(tournament, round_number=round_number)
    pages = []
    for table in tables:
        empty = empty_seats(table, sheets.get(table.table_id))
        seats = [seat for seat in table.seats if seat not in empty]
        link = links.get(table.table_id) or {}
        codes = seat_links(seats, link.get("holders", {}))
        codes_width = seat_links_width(len(codes))
        pages.append({"table": table, "link": link if link.get("qr") else None, "empty": empty, "seats": seats,
                      "seat_links": codes, "seat_links_width": codes_width,
                      "players_width": min(PLAYERS_WIDTH_MAX, SHEET_WIDTH - SEAT_QRS_RIGHT - codes_width - 4)
                      if codes else None})
    hands = sheet_rows(settings)
    context = {
        "round": round_number,
        "row_heights": [(size, hand_row_height(size, hands)) for size in sorted({table.size for table in tables})],
        "spec_name": _(settings.spec.name),
        "row_fields": [{"name": _(f.name), "abbr": _(f.abbr), "player": f.kind == FIELD_PLAYER,
                        "bool": f.kind == FIELD_BOOL} for f in row_fields],
        "player_fields": [{"name": _(f.name), "abbr": _(f.abbr)} for f in player_fields],
        "hands": range(1, hands + 1),
        "goal": _goal(settings),
        "seed_note": seed_note(tournament),
    }
    return PrintDocument("tablegames/print/score_sheet.html", context, _("Score sheets"),
                         f"score-sheets-round-{round_number}", pages=first_page_marked(pages), landscape=True,
                         qr_page=published_page(tournament, "standings"))  # as the Voms slips


def empty_seats(table, sheet) -> list:
    """The table's seats left empty: a withdrawn player nobody plays for, with no value on the table's sheet (he
    did not play a hand there). The score sheet leaves them out and names them (a smaller table)."""
    played = set(sheet.derived.get("totals", {})) if sheet is not None else set()
    return [seat for seat in table.seats if is_withdrawn(seat.participant) and not seat.substitute_id
            and str(seat.number) not in played]


def _goal(settings):
    """One line on the sheet saying when the game ends and who wins. A fixed number of hands ends the game at the
    latest: the target (or penalty limit) still ends it earlier (`rules.tablegames.follow_game`)."""
    rules = settings.rules
    hands = settings.fixed_hands
    target = getattr(rules, "target", None)
    limit = getattr(rules, "limit", None)
    if hands and target:
        return lazy_format(gettext_noop("The game ends after %(hands)s hands, or earlier when a player reaches "
                                        "%(target)s points; the highest total wins."),
                           {"hands": hands, "target": target})
    if hands and limit:
        return lazy_format(gettext_noop("The game ends after %(hands)s hands, or earlier when a player's penalty "
                                        "total reaches %(limit)s; the lowest total wins."),
                           {"hands": hands, "limit": limit})
    if hands and hands > 1:  # one hand (blind domino) is said below
        return lazy_format(gettext_noop("The game ends after %(hands)s hands."), {"hands": hands})
    if target:
        return lazy_format(gettext_noop("The game ends when a player reaches %(target)s points; the highest total "
                                        "wins."), {"target": target})
    if limit:
        return lazy_format(gettext_noop("The game ends when a player's penalty total reaches %(limit)s; the lowest "
                                        "total wins."), {"limit": limit})
    return _("One hand decides: the finishing order is the result.")


def _result_lists(tournament, settings, round_number: int, tables) -> PrintDocument:
    seats = [seat for table in tables for seat in table.seats]
    chunks = [seats[start:start + FIELD_ROWS_PER_PAGE] for start in range(0, len(seats), FIELD_ROWS_PER_PAGE)]
    pages = [{"seats": chunk, "page": index, "pages": len(chunks)} for index, chunk in enumerate(chunks, start=1)]
    context = {"round": round_number, "spec_name": _(settings.spec.name), "with_time": settings.finish_time}
    return PrintDocument("tablegames/print/result_list.html", context, _("Result lists"),
                         f"result-list-round-{round_number}", pages=first_page_marked(pages),
                         qr_page=published_page(tournament, "standings"))  # as the Voms slips


# --- standings -----------------------------------------------------------------------------------------


def format_seconds(seconds: int | None) -> str:
    if seconds is None:
        return ""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


SHEET_CORRECTED = _("sheet corrected")


def ranking_notes(result) -> list:
    settings = result.settings
    if settings.patience:
        explain = _("Ranking: fewest tiles left over all deals, then the earliest finish times (when recorded), "
                    "then the lot.")
    elif settings.lower_is_better:
        explain = _("Ranking: tournament points (1 for every opponent at the table finished ahead of, ½ for an "
                    "equal finish), then the fewest penalty points over all rounds, then the lot.")
    else:
        explain = _("Ranking: tournament points (1 for every opponent at the table finished ahead of, ½ for an "
                    "equal finish), then the highest sum of game scores over all rounds, then the lot.")
    notes = [explain]
    if settings.count_down:
        notes.append(_("Penalty points are shown counting down from 0."))
    notes += lot_notes(result)
    notes += unranked_notes(result, _("“no result yet”: none of the player's games is finished; listed last, "
                                      "without a rank."))
    if result.corrected:
        places = ", ".join(f"{r}/{t}" for r, t in result.corrected)
        notes.append(lazy_format(gettext_noop("Corrected after entry (round/table): %(places)s."), {"places": places}))
    return notes


# --- every hand ----------------------------------------------------------------------------------------


def results_document(tournament) -> MultiSheetDocument:
    """The Excel export: the final ranking, then every hand of every table, one row per hand and player."""
    return MultiSheetDocument(_("Results"), [PRINTOUTS.ranking_document(tournament), hands_document(tournament)],
                              filename_stem="results", landscape=True)


def hands_document(tournament) -> TableDocument:
    settings = settings_of(tournament)
    columns = [Column("round", _("Round"), "int"), Column("table", _("Table"), "int"),
               Column("hand", _("Result") if settings.patience else _("Hand"), "int"),
               Column("seat", _("Seat"), "int"), Column("number", _("No."), "int"), Column("name", _("Name"))]
    if settings.patience:
        columns += [Column("tiles", _("Tiles left"), "int"), Column("time", _("Finish time"))]
    else:
        row_fields, player_fields = shown_fields(settings.spec)
        columns += [Column(f.key, _(f.name), "int" if f.kind in NUMBER_FIELDS else "text")
                    for f in row_fields + player_fields]
        columns += [Column("points", _("Points of the hand"), "int"), Column("running", _("Running total"), "int")]
    return TableDocument(_("Every hand"), columns, _hand_rows(tournament, settings), filename_stem="hands")


def _hand_rows(tournament, settings):
    """One row per hand and player, as typed and as scored (a generator: read once by the renderer)."""
    tables = {table.table_id: table for tables in seated_tables(tournament).values() for table in tables}
    sheets = sorted(sheets_by_table(tournament, with_entries=True).values(),
                    key=lambda sheet: (sheet.table.round.number, sheet.table.number))
    for sheet in sheets:
        table = tables.get(sheet.table_id)
        if table is None:
            continue
        seats = {seat.number: seat.participant for seat in table.seats}
        where = {"round": table.round, "table": table.number}
        if settings.patience:
            for index, row in enumerate(sheet.entries, start=1):
                player = seats.get(row.get("seat"))
                if player is not None:
                    yield {**where, "hand": index, "seat": row["seat"], "number": player.number, "name": player.name,
                           "tiles": row.get(TILES_LEFT), "time": row.get(FINISH_TIME, "")}
            continue
        yield from _table_hand_rows(settings, sheet, seats, where)


def _table_hand_rows(settings, sheet, seats, where):
    row_fields, player_fields = shown_fields(settings.spec)
    withdrawn = {number for number, player in seats.items() if is_withdrawn(player)}
    followed = follow(settings, {number: p.name for number, p in seats.items()}, sheet.entries, withdrawn=withdrawn)
    yes = gettext("yes")
    for hand in followed.hands:
        for number, player in seats.items():
            if number not in followed.totals or followed.left.get(number, hand.number) < hand.number:
                continue  # an empty seat, or a player after he left: no entry
            item = {**where, "hand": hand.number, "seat": number, "number": player.number, "name": player.name,
                    "points": hand.points.get(number) if hand.points else None,
                    "running": settings.shown(hand.running[number]) if hand.running else None}
            for f in row_fields:
                value = hand.row.get(f.key)
                if f.kind == FIELD_PLAYER:
                    item[f.key] = yes if value == number else ""
                else:
                    item[f.key] = yes if value is True else "" if value in (False, None) else str(value)
            for f in player_fields:
                value = (hand.row.get(f.key) or {}).get(str(number))
                item[f.key] = value if f.kind in NUMBER_FIELDS or value is None else str(value)
            yield item


PRINTOUTS = TableGamePrintouts()
