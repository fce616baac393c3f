"""Table-game printouts and exports, as documents for the shared renderers (`documents` package).

Seating lists, standings and the long list of every hand are `TableDocument`s, so the web page, the
PDF and the Excel sheet show the same rows; the score sheets are `PrintDocument`s with one page per
table (patiences: the field's result list, a page per 24 players). Titles and column names are lazy:
the screen shows them in the screen's language, the renderers in the tournament's.
"""

from __future__ import annotations

from functools import partial

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from documents import Column, MultiSheetDocument, PrintDocument, TableDocument
from scoring.progress import lazy_heading
from scoring.rules.domino import FINISH_TIME, TILES_LEFT
from scoring.rules.standings import LOT_NAME
from scoring.rules.tablegames import FIELD_BOOL, FIELD_INT, FIELD_PLAYER, FIELD_SIGNED_INT, TOURNAMENT_POINTS
from scoring.seated.queries import places_by_participant, seated_tables, sheets_by_table
from scoring.withdrawals import WITHDRAWN, eligibility_remark, is_withdrawn, remark
from tournament.public.links import published_page
from tournament.services.seating import current_draw

from .config import settings_of
from .sheets import follow, shown_fields
from .standings import half, standings

NUMBER_FIELDS = (FIELD_INT, FIELD_SIGNED_INT)
#: players per page of a patience's result list
FIELD_ROWS_PER_PAGE = 24


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
        "standings": partial(ranking_document, tournament),
        "results": partial(results_document, tournament),
    }
    for number in range(1, rounds + 1):
        found[f"score-sheets-{number}"] = partial(score_sheets, tournament, number)
        if number < rounds:
            found[f"standings-after-{number}"] = partial(ranking_document, tournament, after_round=number)
    return found


def printout_items(tournament) -> list[tuple[str, object, tuple[str, ...]]]:
    """(document name, label, formats) for the printouts page, in the order a director needs them."""
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


def _round_title(number: int):
    return lazy_format(gettext_noop("Round %(number)s"), {"number": number})


def _seed_note(tournament):
    draw = current_draw(tournament)
    if draw is None or draw.params.get("field"):
        return ""
    return lazy_format(gettext_noop("Seating drawn with seed %(seed)s."), {"seed": draw.seed})


# --- seating -------------------------------------------------------------------------------------------


def seating_by_name(tournament) -> TableDocument:
    """Everyone in alphabetical order with the table of every round: the list for the wall."""
    settings = settings_of(tournament)
    tables = seated_tables(tournament)
    places = places_by_participant(tables)
    rounds = [] if settings.patience else sorted(tables)
    players = sorted(
        (p for p in tournament.participants.all() if p.pk in places),
        key=lambda p: (p.last_name.casefold(), p.first_name.casefold(), p.number),
    )
    columns = [Column("name", _("Name")), Column("number", _("No."), "int"), Column("club", _("Club"))]
    columns += [Column(f"table{r}", lazy_format(gettext_noop("Round %(round)s: table"), {"round": r}), "int")
                for r in rounds]
    rows = []
    for player in players:
        row = {"name": player.sort_name, "number": player.number, "club": player.club}
        row.update({f"table{r}": places[player.pk][r][0] for r in rounds if r in places[player.pk]})
        rows.append(row)
    title = _("The field") if settings.patience else _("Seating by name")
    return TableDocument(title, columns, rows, subtitle=_seed_note(tournament), filename_stem="seating-by-name",
                         qr_page=seating_qr(tournament))


def seating_by_table(tournament) -> MultiSheetDocument:
    """Each round's tables with their players in seat order (one sheet or section per round)."""
    columns = [Column("table", _("Table"), "int"), Column("seat", _("Seat"), "int"),
               Column("number", _("No."), "int"), Column("name", _("Name")), Column("club", _("Club"))]
    sheets = []
    for number, tables in sorted(seated_tables(tournament).items()):
        rows = [
            {"table": table.number, "seat": seat.number, "number": seat.participant.number,
             "name": seat.participant.name, "club": seat.participant.club}
            for table in tables for seat in table.seats
        ]
        sheets.append(TableDocument(_round_title(number), columns, rows, subtitle=_seed_note(tournament),
                                    filename_stem=f"seating-round-{number}", keep_together="table"))
    return MultiSheetDocument(_("Seating by table"), sheets, filename_stem="seating-by-table",
                              qr_page=seating_qr(tournament))


def seating_qr(tournament) -> str | None:
    """The seating lists point to the public seating page (with "find my seat") once it is published.

    A patience has no seating page (the whole field plays every deal), so its list of the field has no QR code.
    """
    return None if settings_of(tournament).patience else published_page(tournament, "schedule")


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


def score_sheets(tournament, round_number: int) -> PrintDocument:
    """The pre-filled sheet of every table of a round, one A4 page each, in one PDF."""
    settings = settings_of(tournament)
    tables = seated_tables(tournament, round_number=round_number).get(round_number, [])
    if settings.patience:
        return _result_lists(tournament, settings, round_number, tables)
    row_fields, player_fields = shown_fields(settings.spec)
    links = table_links(tournament, round_number)
    sheets = sheets_by_table(tournament, round_number=round_number)
    pages = []
    for table in tables:
        empty = empty_seats(table, sheets.get(table.table_id))
        pages.append({"table": table, "link": links.get(table.table_id), "empty": empty,
                      "seats": [seat for seat in table.seats if seat not in empty]})
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
        "seed_note": _seed_note(tournament),
    }
    return PrintDocument("tablegames/print/score_sheet.html", context, _("Score sheets"),
                         f"score-sheets-round-{round_number}", pages=_first_page_marked(pages), landscape=True,
                         qr_page=published_page(tournament, "standings"))  # as the Voms slips


def empty_seats(table, sheet) -> list:
    """The table's seats left empty: a withdrawn player nobody plays for, with no value on the table's sheet (he
    did not play a hand there). The score sheet leaves them out and names them (a smaller table)."""
    played = set(sheet.derived.get("totals", {})) if sheet is not None else set()
    return [seat for seat in table.seats if is_withdrawn(seat.participant) and not seat.substitute_id
            and str(seat.number) not in played]


def table_links(tournament, round_number: int) -> dict[int, dict]:
    """{table id: its link's address and QR code} for the round's tables whose link the director issued."""
    from scoring.link_pages import printed_links
    from scoring.models import TableLink

    return printed_links(TableLink.objects.filter(tournament=tournament, table__round__number=round_number,
                                                  table__round__stage__tournament=tournament, revoked_at=None))


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
                         f"result-list-round-{round_number}", pages=_first_page_marked(pages),
                         qr_page=published_page(tournament, "standings"))  # as the Voms slips


def _first_page_marked(pages: list[dict]) -> list[dict]:
    # The first page carries the printout's stylesheet: once per PDF, not once per page.
    if pages:
        pages[0] = {**pages[0], "first": True}
    return pages


# --- standings -----------------------------------------------------------------------------------------


def format_seconds(seconds: int | None) -> str:
    if seconds is None:
        return ""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def ranking_columns(result) -> list[Column]:
    settings = result.settings
    columns = [Column("rank", _("Rank"), "int"), Column("number", _("No."), "int"), Column("name", _("Name")),
               Column("club", _("Club"))]
    per_round = gettext_noop("R%(round)s tiles") if settings.patience else gettext_noop("R%(round)s TP")
    kind = "int" if settings.patience else "decimal"
    columns += [Column(f"round{r}", lazy_format(per_round, {"round": r}), kind)
                for r in range(1, result.after_round + 1)]
    for metric in result.chain:
        if metric.key == FINISH_TIME:
            columns.append(Column(metric.key, _(metric.name), align="right"))
        else:
            columns.append(Column(metric.key, _(metric.name), "decimal" if metric.key == TOURNAMENT_POINTS else "int"))
    columns += [Column("lot", _(LOT_NAME), align="center"), Column("remark", _("Remark"))]
    return columns


NO_RESULT = _("no result yet")
SHEET_CORRECTED = _("sheet corrected")


def _remark(row):
    """No result yet, withdrawn (scoring.withdrawals), sheet corrected: whichever apply, in that order."""
    parts = [] if row.has_result else [NO_RESULT]
    if row.withdrawn:
        parts.append(WITHDRAWN)
    eligibility = eligibility_remark(row.participant, row.missed, prizes=True)
    if eligibility is not None:
        parts.append(eligibility)
    if row.corrected:
        parts.append(SHEET_CORRECTED)
    return remark(parts)


def ranking_rows(result) -> list[dict]:
    settings = result.settings
    rows = []
    for row in result.rows:
        item = {"rank": row.rank, "number": row.participant.number, "name": row.participant.name,
                "club": row.participant.club, "lot": _("by lot") if row.by_lot else "",
                "remark": _remark(row)}
        for r, value in enumerate(row.rounds, start=1):
            item[f"round{r}"] = half(value) if not settings.patience else value
        for metric in result.chain:
            value = row.values.get(metric.key)
            if metric.key == TOURNAMENT_POINTS:
                value = half(value)
            elif metric.key == FINISH_TIME:
                value = format_seconds(value)
            elif metric.key != TILES_LEFT:
                value = settings.shown(value)
            item[metric.key] = value
        rows.append(item)
    return rows


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
    if result.any_lot:
        notes.append(lazy_format(gettext_noop("“by lot”: tied on every step, decided by lot (seed %(seed)s)."),
                                 {"seed": result.lot_seed}))
    if any(not row.has_result for row in result.rows):
        notes.append(_("“no result yet”: none of the player's games is finished; listed last, without a rank."))
    if result.corrected:
        places = ", ".join(f"{r}/{t}" for r, t in result.corrected)
        notes.append(lazy_format(gettext_noop("Corrected after entry (round/table): %(places)s."), {"places": places}))
    return notes


def ranking_document(tournament, *, after_round: int | None = None, result=None) -> TableDocument:
    """The ranking after a round (default: the final ranking)."""
    result = result or standings(tournament, after_round=after_round)
    # "Final ranking" only once every game is finished; before that "Provisional — after 8 of 18 sheets"
    title = lazy_heading(result.progress, None if result.last_round else result.after_round)
    stem = "standings" if result.last_round else f"standings-after-{result.after_round}"
    return TableDocument(title, ranking_columns(result), ranking_rows(result), notes=ranking_notes(result),
                         filename_stem=stem, landscape=True, one_page=True)


# --- every hand ----------------------------------------------------------------------------------------


def results_document(tournament) -> MultiSheetDocument:
    """The Excel export: the final ranking, then every hand of every table, one row per hand and player."""
    return MultiSheetDocument(_("Results"), [ranking_document(tournament), hands_document(tournament)],
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
