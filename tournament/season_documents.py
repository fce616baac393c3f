"""The season ranking and statistics as documents: one source for the screen table, the PDF and the Excel sheet.

Cells are written in the language in force (the screen's, or the season's for the PDF and Excel: `render_season`).
Each evening is a column: what it brought ("25 · 1." = 25 season points for 1st place), in brackets when it was
discarded (best N of M), "3. (provisional)" while the evening is not final (shown, not counted). The Excel sheet
gives each evening two number columns instead, its points and the place: a discarded evening's points are a
number in brackets by their cell format (`documents.Bracketed`), a provisional evening has a place and no points.
"""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

from django.utils import translation
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from documents import Bracketed, Column, MultiSheetDocument, TableDocument, render
from documents.charts import LineChart, Series, chart_html

from .models import FederationSeason
from .services.seasons import Cell, SeasonTable, season_table

#: the member number column of a federation season's line that has none (a club's entry not linked to a member)
NO_MEMBER_NUMBER = "–"


def _number(value) -> str:
    return number_format(value) if value is not None else ""


def cell_text(cell: Cell | None) -> str:
    if cell is None:
        return ""
    if cell.provisional:
        return _("%(place)s. (provisional)") % {"place": cell.place}
    text = f"{_number(cell.worth)} · {cell.place}."
    return text if cell.counted else f"({text})"


def evening_title(evening) -> str:
    return _("%(number)s: %(date)s") % {"number": evening.number,
                                        "date": date_format(evening.tournament.date, "SHORT_DATE_FORMAT")}


def cell_points(cell: Cell | None):
    """An evening's season points as a number (a spreadsheet's cell): in brackets when discarded, none while the
    evening is provisional."""
    if cell is None or cell.provisional or cell.worth is None:
        return None
    return cell.worth if cell.counted else Bracketed(cell.worth)


def ranking_document(table: SeasonTable, *, spreadsheet: bool = False) -> TableDocument:
    """The ranking; `spreadsheet`: each evening as two number columns (points, place) rather than one text."""
    season = table.season
    by_member = isinstance(season, FederationSeason)
    columns = [Column("rank", _("Rank"), "int", width=6)]
    if by_member:  # a federation's season: one line per member number across its clubs
        columns.append(Column("member", _("Member no."), width=9, align="right"))
    columns += [Column("name", _("Name"), width=24), Column("club", _("Club"), width=18)]
    # the total before the evenings: a phone shows it without scrolling sideways
    columns += [Column("total", _("Total"), "decimal", width=9), Column("evenings", _("Evenings"), "int", width=9)]
    for e in table.evenings:
        if not spreadsheet:
            columns.append(Column(f"e{e.number}", evening_title(e), width=14, align="right"))
            continue
        title = evening_title(e) if e.final else _("%(evening)s (provisional)") % {"evening": evening_title(e)}
        columns += [Column(f"e{e.number}", title, "decimal", width=14),
                    Column(f"p{e.number}", _("%(number)s: place") % {"number": e.number}, "int", width=9)]
    rows = []
    for row in table.rows:
        values = {"rank": row.rank, "name": row.person.name, "club": row.person.club, "total": row.total,
                  "evenings": row.evenings}
        if by_member:
            values["member"] = str(row.person.number) if row.person.number else NO_MEMBER_NUMBER
        for e in table.evenings:
            cell = row.cells.get(e.number)
            if spreadsheet:
                values[f"e{e.number}"] = cell_points(cell)
                values[f"p{e.number}"] = cell.place if cell else None
            else:
                values[f"e{e.number}"] = cell_text(cell)
        rows.append(values)
    return TableDocument(
        _("Season ranking"), columns, rows, subtitle=season.name, notes=ranking_notes(table),
        filename_stem="season-ranking", landscape=len(table.evenings) > 4,
    )


def ranking_notes(table: SeasonTable) -> list[str]:
    rules = table.rules
    if rules.place_points is None:
        notes = [_("Each evening counts with the game's own points.")]
    else:
        notes = [_("Points per place: %(points)s; further places 0.")
                 % {"points": ", ".join(_number(p) for p in rules.place_points)}]
    if rules.best_of is not None:
        notes.append(_("The best %(best)s of %(count)s evenings count; in brackets: discarded.")
                     % {"best": rules.best_of, "count": len(table.evenings)})
    if rules.min_evenings > 1:
        notes.append(_("Ranked from %(count)s evenings on; without a rank: fewer evenings so far.")
                     % {"count": rules.min_evenings})
    notes.append(_("Ties: the game's own ranking chain over the counted evenings, then more evenings played."))
    if table.provisional:
        notes.append(_("Provisional: evenings whose results are not all in count once they are final."))
    if isinstance(table.season, FederationSeason):
        notes.append(_("Each member once, by member number, whichever club they played for; “%(mark)s”: a club's "
                       "register entry without a member number, counted alone.") % {"mark": NO_MEMBER_NUMBER})
    return notes


def statistics_document(table: SeasonTable) -> TableDocument:
    columns = [Column("name", _("Name"), width=24), Column("club", _("Club"), width=18),
               Column("evenings", _("Evenings played"), "int", width=10),
               Column("average", _("Average points"), "decimal", width=12),
               Column("best_place", _("Best place"), "int", width=10),
               Column("best_points", _("Best points"), "decimal", width=10)]
    rows = []
    for row in sorted(table.rows, key=lambda r: (r.person.last_name, r.person.first_name, r.person.pk)):
        stats = row.stats
        rows.append({"name": row.person.name, "club": row.person.club,
                     "evenings": stats.evenings if stats else 0,
                     "average": stats.average_points if stats else None,
                     "best_place": stats.best_place if stats else None,
                     "best_points": stats.best_points if stats else None})
    return TableDocument(_("Statistics"), columns, rows, subtitle=table.season.name,
                         notes=[_("Final evenings only.")], filename_stem="season-statistics")


#: how many of the top of the season ranking its picture shows
CHART_TOP = 8


def season_progression(table: SeasonTable, *, top: int = CHART_TOP) -> tuple[list, list[tuple[object, list]]]:
    """(the final evenings, [(row, running totals)]): the season points of the first `top` ranked rows added up
    evening by evening, counting what the ranking counts (a discarded evening adds nothing), so the last total is
    the row's total. A provisional evening is left out: it counts nothing yet."""
    evenings = [e for e in table.evenings if e.final]
    lines = []
    for row in [row for row in table.rows if row.rank is not None][:top]:
        total, totals = Decimal(0), []
        for evening in evenings:
            cell = row.cells.get(evening.number)
            if cell is not None and cell.counted and cell.worth is not None:
                total += cell.worth
            totals.append(total)
        lines.append((row, totals))
    return evenings, lines


def season_chart(table: SeasonTable, *, top: int = CHART_TOP) -> LineChart | None:
    """The season ranking as a picture: the top's season points evening by evening; None before a final one."""
    evenings, lines = season_progression(table, top=top)
    if not evenings or not lines:
        return None
    return LineChart(
        key="season-chart", title=_("Season points evening by evening"),
        description=_("The season points of the %(count)s best placed added up evening by evening, as the ranking "
                      "counts them.") % {"count": len(lines)},
        x_labels=[evening_title(e) for e in evenings], axis_labels=[str(e.number) for e in evenings],
        y_label=_("Season points"), row_header=_("Name"),
        series=[Series(f"{row.rank}. {row.person.name}", totals) for row, totals in lines])


def season_chart_html(season_table: SeasonTable, *, numbers: bool = True):
    """`season_chart` drawn (documents.charts), with its `numbers` on demand, or None."""
    chart = season_chart(season_table)
    return chart_html(chart, table=numbers) if chart else None


def season_document(table: SeasonTable, *, spreadsheet: bool = False) -> MultiSheetDocument:
    ranking = ranking_document(table, spreadsheet=spreadsheet)
    # the PDF's last page: the picture (the ranking before it has the numbers); a spreadsheet has none
    chart = None if spreadsheet else season_chart_html(table, numbers=False)
    return MultiSheetDocument(table.season.name, [ranking, statistics_document(table)],
                              filename_stem="season", landscape=ranking.landscape, dense=True,
                              figures=[chart] if chart else [])


def frame_of(season, table: SeasonTable | None = None) -> SimpleNamespace:
    """What the printouts' page frame reads from a tournament (name, date, venue, language, time zone), for a
    season: the clock of its latest evening's venue, else the installation's."""
    from .models.tournament import installation_time_zone

    last = table.evenings[-1].tournament if table and table.evenings else None
    return SimpleNamespace(name=season.name, date=last.date if last else season.created.date(), venue="",
                           language=season.language, slug=season.slug,
                           time_zone=last.time_zone if last else installation_time_zone())


def render_season(season, file_format: str) -> bytes:
    """The season's ranking and statistics as PDF or Excel, in the season's language."""
    with translation.override(season.language):
        table = season_table(season)
        return render(season_document(table, spreadsheet=file_format == "xlsx"), file_format,
                      tournament=frame_of(season, table))
