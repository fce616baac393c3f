"""Voms printouts and exports, built from the same services and standings the pages show.

Each document has a stable name (`CATALOGUE`); the game's `documents(tournament)` hook hands them to
`manage.py export` and the Printouts page. Tables (standings, results, knockout, schedule, pools,
ranking) are `TableDocument`s, so the PDF and the Excel file show the same rows; the sheets people
write on (slips, lus boards, cross-tables, bracket) are `PrintDocument`s with their own templates
under `templates/voms/print/`.

Every document is built inside `translation.override(tournament.language)`: titles formatted with
values ("Pool A", "Round 3") are plain strings by then, and must be in the printout's language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import prefetch_related_objects
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from documents import Column, MultiSheetDocument, PrintDocument, TableDocument, venue_locale
from scoring.progress import ResultProgress, lazy_heading, result_progress
from tournament.addresses import published_page
from tournament.models import Match, Round, Stage

from . import queries
from .standings import PoolTable, final_ranking, pool_tables
from .text import metric_name, with_note

#: Slips per A4 sheet: three leave each slip about 8 cm, room for big lus boxes and two signatures.
SLIPS_PER_PAGE = 3
#: Rows of a lus board beyond the target: a team can go over it (rule 45).
LUS_BOARD_SPARE_ROWS = 3


@dataclass(frozen=True)
class Entry:
    """One printout on the Printouts page: its stable name, what it is, and how it is built."""

    name: str
    label: str | Promise
    description: str | Promise
    build: Callable[..., object]
    #: True when the document is for one round of the pool stage (chosen on the Printouts page)
    per_round: bool = False
    #: True when the document is for one round of the knockout (semifinals, final, …)
    per_knockout_round: bool = False
    #: False for free-form sheets (PDF only)
    tabular: bool = True

    @property
    def formats(self) -> tuple[str, ...]:
        return ("pdf", "xlsx") if self.tabular else ("pdf",)


# --- Shared look-ups ------------------------------------------------------------------------


def points(value) -> Decimal:
    """Points as the pages show them: 2, 2.5, 12 (a Decimal, never 12.0 nor 1E+1)."""
    number = Decimal(str(value))
    return number.quantize(Decimal(1)) if number == number.to_integral_value() else number.normalize()


def players_of(team) -> str:
    return ", ".join(member.name for member in team.members.all()) if team else ""


def time_of_day(moment) -> str:
    """A moment as the venue's clock shows it, in the language's own time format (Django's TIME_FORMAT: "7 p.m."
    in English, "19:00" in German and Danish), as the director's pages show times; "" for none."""
    return time_format(timezone.localtime(moment), "TIME_FORMAT") if moment else ""


def start_time(rnd: Round | None) -> str:
    return time_of_day(rnd.starts_at) if rnd is not None else ""


def pool_label(pool) -> str:
    return _("Pool %(pool)s") % {"pool": pool.name}


def round_label(number: int) -> str:
    return _("Round %(number)s") % {"number": number}


def seed_note(tournament) -> str:
    seed = queries.lot_seed(tournament)
    return _("Pool draw seed: %(seed)s") % {"seed": seed} if seed is not None else ""


def pool_matches(stage: Stage, **filters):
    return (
        Match.objects.filter(stage=stage, **filters)
        .select_related("round", "pool", "team_a", "team_b", "sheet")
        .order_by("round__number", "table_number", "pool__index", "id")
    )


# --- Standings and final ranking --------------------------------------------------------------

STANDINGS_COLUMNS = (
    Column("rank", gettext_lazy("Rank"), "int"),
    Column("team", gettext_lazy("Team")),
    Column("played", gettext_lazy("Pl"), "int"),
    Column("points", gettext_lazy("Pts"), "decimal"),
    Column("wins", gettext_lazy("W"), "int"),
    Column("lus_for", gettext_lazy("Lus +"), "int"),
    Column("lus_against", gettext_lazy("Lus −"), "int"),
    Column("lus_diff", gettext_lazy("+/-"), "int"),
    Column("h2h_points", gettext_lazy("H2H Pts"), "decimal"),
    Column("h2h_diff", gettext_lazy("H2H +/-"), "int"),
    Column("decided_by", gettext_lazy("Decided by")),
)


def standing_rows(table: PoolTable) -> list[dict]:
    rows = []
    for row in table.rows:
        values, h2h = row.values, row.values.get("h2h")
        rows.append(
            {
                "rank": row.rank,
                "team": with_note(table.teams[row.participant].name, table.marks, row.participant),
                "played": values["played"],
                "points": points(values["points"]),
                "wins": values["wins"],
                "lus_for": values["lus_for"],
                "lus_against": values["lus_against"],
                "lus_diff": values["lus_diff"],
                "h2h_points": points(h2h[0]) if h2h else None,
                "h2h_diff": h2h[1] if h2h else None,
                "decided_by": (_("no result yet") if row.rank is None else _("decided by lot") if row.by_lot
                               else metric_name(row.separated_by or "")),
            }
        )
    return rows


def standings_notes(table: PoolTable, seed: int | None) -> list[str]:
    notes = [
        _(
            "Pl = games played, Pts = points, W = wins, Lus + / Lus − = lus scored / conceded, "
            "+/- = lus difference, H2H = points and lus difference in the games among the tied."
        )
    ]
    if any(row.rank is None for row in table.rows):
        notes.append(_("“no result yet”: no game of the team has a result yet; listed last, without a rank."))
    if table.decided_by_lot:
        notes.append(
            _("“Decided by lot”: still tied after every other step, ordered by lot drawn with the seed %(seed)s.")
            % {"seed": f"{seed}:{table.pool.index}"}
        )
    elif seed is not None:
        notes.append(_("Teams still tied after every other step would be ordered by lot (seed %(seed)s).")
                     % {"seed": f"{seed}:{table.pool.index}"})
    return notes


def pool_progress(table: PoolTable) -> str:
    teams = len(table.teams)
    played, total = len(table.results) // 2, teams * (teams - 1) // 2
    if not table.complete:  # the label every game's provisional standings carry (scoring.progress)
        return ResultProgress(entered=played, expected=total, unit="slips").heading()
    return _("Standings after %(played)s of %(total)s games") % {"played": played, "total": total}


def pool_standings_sheet(table: PoolTable, seed: int | None) -> TableDocument:
    return TableDocument(
        pool_label(table.pool),
        STANDINGS_COLUMNS,
        standing_rows(table),
        subtitle=pool_progress(table),
        notes=standings_notes(table, seed),
        filename_stem=f"standings-pool-{table.pool.name}",
    )


RANKING_COLUMNS = (
    Column("place", gettext_lazy("Place"), "int"),
    Column("team", gettext_lazy("Team")),
    Column("players", gettext_lazy("Players")),
    Column("decided_in", gettext_lazy("Decided in")),
)


def ranking_table(tournament, tables: list[PoolTable]) -> TableDocument:
    pool_place = {row.participant: (table.pool, row.rank) for table in tables for row in table.rows}
    marks = {team: mark for table in tables for team, mark in table.marks.items()}
    how_labels = {"final": _("Final"), "third_place": _("Match for third place"), "semifinal": _("Semifinal"),
                  "quarterfinal": _("Quarterfinal")}
    with_members = {team.pk: team for team in tournament.teams.prefetch_related("members")}
    rows = []
    for place, team, how in final_ranking(tournament, tables):
        if how == "pool":
            pool, rank = pool_place[team.pk]
            decided_in = _("Pool %(pool)s, rank %(rank)s") % {"pool": pool.name, "rank": rank}
        elif how.startswith("round_of_"):
            decided_in = _("Round of %(teams)s") % {"teams": how.removeprefix("round_of_")}
        else:
            decided_in = how_labels[how]
        rows.append({"place": place, "team": with_note(team.name, marks, team.pk),
                     "players": team_card(with_members[team.pk])["players"],
                     "decided_in": decided_in})
    decided = bool(rows) and rows[0]["decided_in"] == how_labels["final"]
    # Teams named after their players (the default) need no players column.
    columns = RANKING_COLUMNS if any(row["players"] for row in rows) else [
        column for column in RANKING_COLUMNS if column.key != "players"
    ]
    progress = result_progress(tournament)
    return TableDocument(
        # "Final ranking" only once every slip is in, the knockout's too (scoring.progress: one not built yet
        # counts as missing), else "Provisional — after 40 of 47 slips"
        lazy_heading(progress, None),
        columns,
        rows,
        # complete without a final: pools that qualify fewer than two teams make no knockout
        subtitle="" if decided or progress.complete else _("Provisional: the final has not been played yet."),
        notes=[_("Below the knockout, teams follow their pool rank, then points, wins and lus difference.")]
        + ([_("Teams out of the tournament (withdrawn from a round, or disqualified) do not qualify for the knockout: "
              "the next team of the pool takes the place.")] if marks else []),
        filename_stem="ranking",
        qr_page=published_page(tournament, "standings"),
    )


def standings_document(tournament) -> MultiSheetDocument:
    """One sheet per pool, every tiebreak column, and the final ranking first once there is a knockout."""
    tables = pool_tables(tournament)
    seed = queries.lot_seed(tournament)
    sheets = [pool_standings_sheet(table, seed) for table in tables]
    if queries.knockout_stage(tournament):
        sheets.insert(0, ranking_table(tournament, tables))
    return MultiSheetDocument(_("Standings"), sheets or [empty_table(_("Standings"))], filename_stem="standings",
                              qr_page=published_page(tournament, "standings"))


def ranking_document(tournament) -> TableDocument:
    return ranking_table(tournament, pool_tables(tournament))


def empty_table(title) -> TableDocument:
    return TableDocument(title, [Column("note", "")], [], notes=[_("Draw the pools first.")], filename_stem="empty")


# --- Results, schedule, pool lists --------------------------------------------------------------

RESULTS_COLUMNS = (
    Column("round", gettext_lazy("Round"), "int"),
    Column("table", gettext_lazy("Table"), "int"),
    Column("pool", gettext_lazy("Pool")),
    Column("team_a", gettext_lazy("Team A")),
    Column("team_b", gettext_lazy("Team B")),
    Column("lus_a", gettext_lazy("Lus A"), "int"),
    Column("lus_b", gettext_lazy("Lus B"), "int"),
    Column("points_a", gettext_lazy("Pts A"), "decimal"),
    Column("points_b", gettext_lazy("Pts B"), "decimal"),
    Column("note", gettext_lazy("Note")),
)


def game_note(game: dict, match: Match, target: int) -> str:
    """What the lus alone do not say: a kam, a win over the target, a forfeit and who was absent."""
    if game["kind"] == "forfeit":
        absent = match.team_b if game["winner"] == "a" else match.team_a
        return _("forfeit: %(team)s absent") % {"team": absent}
    if game["kind"] == "kam":
        return _("kam")
    if game["kind"] == "over":
        return _("over %(target)s") % {"target": target}
    return ""


def result_row(match: Match, state: queries.PoolState, settings) -> dict:
    row = {"round": match.round.number, "table": match.table_number, "pool": match.pool.name,
           "team_a": with_note(match.team_a.name, state.marks, match.team_a_id),
           "team_b": with_note(match.team_b.name, state.marks, match.team_b_id)}
    sheet = getattr(match, "sheet", None)
    result = state.result(match.pk)
    if result is not None and result.disqualified:
        # What the standings count, whatever the slip says: a forfeit of the disqualified team, or void.
        teams = {"a": match.team_a, "b": match.team_b}
        left = state.derivation.withdrawn
        out = " · ".join((_("forfeit: %(team)s withdrawn") if teams[side].pk in left
                          else _("forfeit: %(team)s disqualified")) % {"team": teams[side]}
                         for side in result.disqualified)
        if result.outcome == "void":
            absent = [_("%(team)s absent") % {"team": teams[side]} for side in result.absent]
            return {**row, "note": " · ".join([out, *absent, _("void")])}
        game = result.game
        return {**row, "lus_a": game.lus_a, "lus_b": game.lus_b, "points_a": points(game.points_a),
                "points_b": points(game.points_b), "note": out}
    if sheet is None:
        return row
    game = sheet.derived["games"][0]
    note = game_note(game, match, settings.target)
    if sheet.corrected:
        note = ", ".join(filter(None, [note, _("corrected")]))
    return {**row, "lus_a": game["lus_a"], "lus_b": game["lus_b"], "points_a": points(game["points_a"]),
            "points_b": points(game["points_b"]), "note": note}


def results_document(tournament) -> TableDocument:
    """Every pool game, in round and table order; a game without a slip yet has empty lus."""
    stage = queries.pools_stage(tournament)
    if stage is None:
        return empty_table(_("Results"))
    settings = queries.rules_settings(tournament)
    state = queries.pool_state(tournament, stage)
    rows = [result_row(match, state, settings) for match in pool_matches(stage, team_b__isnull=False)]
    return TableDocument(_("Results"), RESULTS_COLUMNS, rows, subtitle=_("Preliminary round"),
                         filename_stem="results", landscape=True, qr_page=published_page(tournament, "results"))


SCHEDULE_COLUMNS = (
    Column("round", gettext_lazy("Round"), "int"),
    Column("time", gettext_lazy("Time"), align="center"),
    Column("table", gettext_lazy("Table"), "int"),
    Column("pool", gettext_lazy("Pool")),
    Column("team_a", gettext_lazy("Team A")),
    Column("team_b", gettext_lazy("Team B")),
)


def schedule_document(tournament) -> TableDocument:
    """Round by round: time slot, table, pool, team against team; a bye is listed without a table."""
    stage = queries.pools_stage(tournament)
    if stage is None:
        return empty_table(_("Schedule"))
    dq = queries.pool_state(tournament, stage).marks
    rows = [
        {"round": m.round.number, "time": start_time(m.round), "table": m.table_number, "pool": m.pool.name,
         "team_a": with_note(m.team_a.name, dq, m.team_a_id),
         "team_b": with_note(m.team_b.name, dq, m.team_b_id) if m.team_b else _("bye")}
        for m in pool_matches(stage)
    ]
    slot = queries.settings_of(tournament)["slot_minutes"]
    subtitle = " · ".join(filter(None, [seed_note(tournament), _("%(minutes)s minutes a round") % {"minutes": slot}]))
    return TableDocument(_("Schedule"), SCHEDULE_COLUMNS, rows, subtitle=subtitle, filename_stem="schedule",
                         qr_page=published_page(tournament, "schedule"))


POOLS_COLUMNS = (
    Column("pool", gettext_lazy("Pool")),
    Column("position", gettext_lazy("No."), "int"),
    Column("team", gettext_lazy("Team")),
    Column("players", gettext_lazy("Players")),
)


def pools_document(tournament) -> TableDocument:
    stage = queries.pools_stage(tournament)
    if stage is None:
        return empty_table(_("Pool lists"))
    dq = queries.pool_state(tournament, stage).marks
    rows = [
        {"pool": pool.name, "position": entry.position, "team": with_note(entry.team.name, dq, entry.team_id),
         "players": players_of(entry.team)}
        for pool in stage.pools.prefetch_related("entries__team__members")
        for entry in pool.entries.all()
    ]
    return TableDocument(_("Pool lists"), POOLS_COLUMNS, rows, subtitle=seed_note(tournament), filename_stem="pools")


# --- Knockout -------------------------------------------------------------------------------------

KNOCKOUT_COLUMNS = (
    Column("round", gettext_lazy("Round")),
    Column("match", gettext_lazy("Match")),
    Column("game", gettext_lazy("Game"), "int"),
    Column("team_a", gettext_lazy("Team A")),
    Column("team_b", gettext_lazy("Team B")),
    Column("lus_a", gettext_lazy("Lus A"), "int"),
    Column("lus_b", gettext_lazy("Lus B"), "int"),
    Column("winner", gettext_lazy("Winner")),
    Column("series", gettext_lazy("Series"), align="center"),
)


def series_rows(round_name: str, match: Match) -> list[dict]:
    """One row per game of the series, with the series score after it; one empty row before the first game."""
    base = {"round": round_name, "match": match.key or str(match.pk), "team_a": match.team_a.name if match.team_a
            else "?", "team_b": match.team_b.name if match.team_b else "?"}
    sheet = getattr(match, "sheet", None)
    games = sheet.derived["games"] if sheet else []
    if not games:
        return [base]
    rows, wins = [], {"a": 0, "b": 0}
    for number, game in enumerate(games, 1):
        wins[game["winner"]] += 1
        rows.append({**base, "game": number, "lus_a": game["lus_a"], "lus_b": game["lus_b"],
                     "winner": base["team_a"] if game["winner"] == "a" else base["team_b"],
                     "series": f"{wins['a']}:{wins['b']}"})
    return rows


def knockout_document(tournament) -> TableDocument:
    rows = [row for name, matches in queries.knockout_rounds(tournament) for match in matches
            for row in series_rows(name, match)]
    best_of = queries.rules_settings(tournament).best_of
    return TableDocument(_("Knockout"), KNOCKOUT_COLUMNS, rows,
                         subtitle=_("Best of %(games)s games") % {"games": best_of},
                         notes=[] if rows else [_("The knockout has not been built yet.")],
                         filename_stem="knockout", landscape=True, qr_page=published_page(tournament, "bracket"))


def bracket_document(tournament) -> PrintDocument:
    """The bracket as boxes, a column per round, with a cell for every game's lus (filled in once played)."""
    best_of = queries.rules_settings(tournament).best_of
    columns, third_place = [], None
    for name, matches in queries.knockout_rounds(tournament):
        group = {"name": name, "matches": [bracket_match(match, best_of) for match in matches]}
        # The match for third place comes before the final in the list; on paper it sits below the final.
        if any(match.key == "3P" for match in matches):
            third_place = group
        else:
            columns.append(group)
    if columns and third_place:
        columns[-1]["below"] = third_place
    podium = []
    if queries.knockout_stage(tournament):
        podium = [(place, team.name) for place, team, how in final_ranking(tournament) if how != "pool"]
    # From a round of 16 on, the bracket is set smaller with one line per name, to fit one landscape page.
    context = {"columns": columns, "podium": podium, "best_of": best_of, "compact": len(columns) > 3}
    return PrintDocument("voms/print/bracket.html", context, _("Bracket"), "bracket", landscape=True,
                         qr_page=published_page(tournament, "bracket"))


def bracket_match(match: Match, best_of: int) -> dict:
    sheet = getattr(match, "sheet", None)
    derived = sheet.derived if sheet else {}
    games = derived.get("games", [])
    winner = derived.get("winner") if derived.get("finished") else None
    sides = []
    for side, team in (("a", match.team_a), ("b", match.team_b)):
        lus = [game[f"lus_{side}"] for game in games]
        sides.append({"name": team.name if team else "", "lus": lus + [""] * (best_of - len(lus)),
                      "wins": sum(1 for game in games if game["winner"] == side) if games else "",
                      "won": winner == side})
    return {"key": match.key, "sides": sides}


# --- Cross-tables ---------------------------------------------------------------------------------


def crosstable_page(table: PoolTable, seed: int | None) -> dict:
    """The pool's results matrix in draw order (the numbers across the top are the pool positions)."""
    order = list(table.teams)  # PoolEntry order: the pool position
    standing = {row.participant: row for row in table.rows}
    teams = []
    for team_id in order:
        row = standing[team_id]
        cells = []
        for other in order:
            lus = table.results.get((team_id, other))
            text = f"{lus[0]}:{lus[1]}" if lus else "–" if (team_id, other) in table.void else ""
            cells.append({"self": other == team_id, "text": text})
        teams.append({"number": len(teams) + 1,
                      "name": with_note(table.teams[team_id].name, table.marks, team_id),
                      "cells": cells,
                      "points": points(row.values["points"]), "wins": row.values["wins"],
                      "lus_diff": row.values["lus_diff"], "rank": row.rank, "by_lot": row.by_lot})
    return {"pool": pool_label(table.pool), "complete": table.complete, "teams": teams,
            "by_lot": table.decided_by_lot, "seed": f"{seed}:{table.pool.index}",
            "size": "large" if len(order) > 16 else "medium" if len(order) > 10 else "small"}


def crosstables_document(tournament) -> PrintDocument:
    seed = queries.lot_seed(tournament)
    pages = [crosstable_page(table, seed) for table in pool_tables(tournament)]
    return PrintDocument("voms/print/crosstables.html", {}, _("Cross-tables"), "crosstables",
                         pages=first_marked(pages or [{"empty": _("Draw the pools first.")}]), landscape=True,
                         qr_page=published_page(tournament, "standings"))


# --- Slips and lus boards of a round ----------------------------------------------------------------


def round_of(tournament, number: int | None) -> Round | None:
    """The asked round of the pool stage, or the current one (the first with a slip still missing)."""
    stage = queries.pools_stage(tournament)
    if stage is None:
        return None
    if number is None:
        return queries.current_round(stage)
    return stage.rounds.filter(number=number).first()


def round_games(rnd: Round) -> list[Match]:
    return list(
        Match.objects.filter(round=rnd, team_b__isnull=False)
        .select_related("pool", "team_a", "team_b")
        .prefetch_related("team_a__members", "team_b__members")
        .order_by("table_number", "id")
    )


def team_card(team) -> dict:
    """A team on paper: its name, and its players only when the name does not already list them."""
    players = [member.name for member in team.members.all()]
    shown = "" if team.name == " & ".join(players) else ", ".join(players)
    return {"name": team.name, "players": shown}


def slip(match: Match, rnd: Round) -> dict:
    a, b = team_card(match.team_a), team_card(match.team_b)
    return {"table": match.table_number, "pool": match.pool.name, "round": rnd.number, "time": start_time(rnd),
            "a": a, "b": b, "sides": [(_("Team A"), a), (_("Team B"), b)]}


def first_marked(pages: list[dict]) -> list[dict]:
    """The first page carries the printout's style sheet (a fragment has no <head> of its own)."""
    return [{**page, "first": index == 0} for index, page in enumerate(pages)]


def missing_round_page(tournament) -> list[dict]:
    message = _("Draw the pools first.") if queries.pools_stage(tournament) is None else _("There is no such round.")
    return [{"empty": message}]


def slips_document(tournament, round_number: int | None = None) -> PrintDocument:
    """All slips of a round, three to an A4 sheet with cut lines between them."""
    rnd = round_of(tournament, round_number)
    games = round_games(rnd) if rnd else []
    links = match_links(tournament, games)
    slips = []
    for match in games:
        made = {**slip(match, rnd), **slip_links(links.get(match.pk))}
        made["sides"] = [(side, team, code) for (side, team), code in zip(made["sides"], made["codes"], strict=True)]
        slips.append(made)
    # each sheet lies on the frames of as many slips as it has (the last sheet may have fewer)
    pages = [{"slips": slips[i:i + SLIPS_PER_PAGE], "underlay": len(slips[i:i + SLIPS_PER_PAGE])}
             for i in range(0, len(slips), SLIPS_PER_PAGE)]
    context = {"tournament_name": tournament.name, "stage": _("Preliminary round")}
    stem = f"slips-round-{rnd.number}" if rnd else "slips"
    title = _("Slips, round %(number)s") % {"number": rnd.number} if rnd else _("Slips")
    sides = [_("Team A"), _("Team B")]
    return PrintDocument("voms/print/slips.html", context, title, stem,
                         pages=first_marked(pages or missing_round_page(tournament)),
                         qr_page=published_page(tournament, "standings"),
                         underlay_template="voms/print/slips_grid.html",
                         underlays={count: {"slots": range(count), "sides": sides}
                                    for count in {page["underlay"] for page in pages}})


def slip_links(link: dict | None) -> dict:
    """What a slip prints of its links: "link", the game's (beside the table number), or "codes", each team's
    own (two agreeing reports count: in the team's half of the slip), [team A's, team B's], None where a team
    has none."""
    link = link or {}
    holders = link.get("holders", {})
    return {"link": link if link.get("qr") else None, "codes": [holders.get(1), holders.get(2)]}


def match_links(tournament, matches) -> dict[int, dict]:
    """{match id: its table link's address and QR code} for the matches whose link the director issued."""
    from scoring.link_pages import printed_links
    from scoring.models import TableLink

    return printed_links(TableLink.objects.filter(tournament=tournament, match__in=[m.pk for m in matches],
                                                  revoked_at=None))


def lus_board(match: Match, rnd: Round, target: int) -> dict:
    numbers = [{"number": n, "target": n == target} for n in range(1, target + LUS_BOARD_SPARE_ROWS + 1)]
    return {**slip(match, rnd), "rows": numbers}


def lusboards_document(tournament, round_number: int | None = None) -> PrintDocument:
    """One lus board per table of a round ("Lus tavle"): per team a column for the lus and one for initials."""
    rnd = round_of(tournament, round_number)
    target = queries.rules_settings(tournament).target
    pages = [lus_board(match, rnd, target) for match in round_games(rnd)] if rnd else []
    stem = f"lusboards-round-{rnd.number}" if rnd else "lusboards"
    title = _("Lus boards, round %(number)s") % {"number": rnd.number} if rnd else _("Lus boards")
    context = {"tournament_name": tournament.name, "target": target}
    return PrintDocument("voms/print/lusboards.html", context, title, stem,
                         pages=first_marked(pages or missing_round_page(tournament)))


# --- Slips of the knockout: one per best-of-N series ------------------------------------------------

#: Knockout slips per A4 sheet: two leave each about 13 cm, a row per game of the series and the series score.
SERIES_SLIPS_PER_PAGE = 2


def series_slip(round_name: str, match: Match) -> dict:
    """A series on paper: both teams, a row per game (the lus of games already entered filled in), the score."""
    sheet = getattr(match, "sheet", None)
    derived = sheet.derived if sheet else {}
    games = derived.get("games", [])
    rows = []
    for number in range(1, max(match.best_of, len(games)) + 1):
        game = games[number - 1] if number <= len(games) else None
        rows.append({"number": number, "lus_a": game["lus_a"] if game else "", "lus_b": game["lus_b"] if game else "",
                     "winner": {"a": "A", "b": "B"}[game["winner"]] if game else ""})
    wins_a = sum(1 for game in games if game["winner"] == "a")
    wins_b = sum(1 for game in games if game["winner"] == "b")
    blank = {"name": "", "players": ""}
    return {
        "round": round_name, "key": match.key, "table": match.table_number or "", "games": rows,
        "a": team_card(match.team_a) if match.team_a else blank,
        "b": team_card(match.team_b) if match.team_b else blank,
        "wins_a": wins_a if games else "", "wins_b": wins_b if games else "",
        "winner": {"a": "A", "b": "B"}.get(derived.get("winner")) if derived.get("finished") else "",
        "to_win": match.best_of // 2 + 1, "best_of": match.best_of,
    }


def knockout_round_choices(tournament) -> list[tuple[int, str, list[Match]]]:
    """(number, name, matches) of each knockout round as the knockout page lists them: semifinals (or the
    semifinal round robin), match for third place, final. The number chooses a round's slips."""
    rounds = queries.knockout_rounds(tournament)
    return [(number, str(name), matches) for number, (name, matches) in enumerate(rounds, 1)]


def series_slips_document(tournament, round_number: int | None = None) -> PrintDocument:
    """The slips of a knockout round, or (without a number) of every series still to be played whose teams
    are known: two to an A4 sheet with a cut line between them, a row for each game of the series."""
    rounds = knockout_round_choices(tournament)
    if round_number is None:
        chosen = [(name, match) for _number, name, matches in rounds for match in matches
                  if match.team_a_id and match.team_b_id and not series_finished(match)]
        title, stem = _("Knockout slips"), "knockout-slips"
    else:
        names = {number: (name, matches) for number, name, matches in rounds}
        name, matches = names.get(round_number, ("", []))
        chosen = [(name, match) for match in matches]
        title, stem = _("Knockout slips: %(round)s") % {"round": name}, f"knockout-slips-{round_number}"
    prefetch_related_objects([match for _name, match in chosen], "team_a__members", "team_b__members")
    links = match_links(tournament, [match for _name, match in chosen])
    slips = [{**series_slip(name, match), **slip_links(links.get(match.pk))} for name, match in chosen]
    pages = [{"slips": slips[i:i + SERIES_SLIPS_PER_PAGE]} for i in range(0, len(slips), SERIES_SLIPS_PER_PAGE)]
    if not pages:
        empty = _("The knockout has not been built yet.") if not rounds else _("No knockout series to play.")
        pages = [{"empty": empty}]
    return PrintDocument("voms/print/seriesslips.html", {"tournament_name": tournament.name}, title, stem,
                         pages=first_marked(pages), qr_page=published_page(tournament, "bracket"))


def series_finished(match: Match) -> bool:
    sheet = getattr(match, "sheet", None)
    return bool(sheet and sheet.derived.get("finished"))


# --- The catalogue and the hook -------------------------------------------------------------------

CATALOGUE: dict[str, Entry] = {
    entry.name: entry
    for entry in (
        Entry("slips", gettext_lazy("Match slips"),
              gettext_lazy("Every game of a round, three slips to a sheet with cut lines."),
              slips_document, per_round=True, tabular=False),
        Entry("seriesslips", gettext_lazy("Knockout slips"),
              gettext_lazy("Every series of a knockout round, two slips to a sheet: a row for each game's lus and "
                           "the series score."),
              series_slips_document, per_knockout_round=True, tabular=False),
        Entry("lusboards", gettext_lazy("Lus boards"),
              gettext_lazy("One board per table of a round: lus and initials of both teams."),
              lusboards_document, per_round=True, tabular=False),
        Entry("schedule", gettext_lazy("Schedule"),
              gettext_lazy("Round, time, table, pool and teams of every game; with the draw seed."), schedule_document),
        Entry("pools", gettext_lazy("Pool lists"), gettext_lazy("The teams and players of each pool."),
              pools_document),
        Entry("standings", gettext_lazy("Standings"),
              gettext_lazy("Each pool with every tiebreak column, and the final ranking once there is one."),
              standings_document),
        Entry("crosstables", gettext_lazy("Cross-tables"),
              gettext_lazy("The results matrix of each pool with points, wins, lus difference and rank."),
              crosstables_document, tabular=False),
        Entry("results", gettext_lazy("Results"),
              gettext_lazy("Every pool game: lus, points, forfeits and corrections."), results_document),
        Entry("knockout", gettext_lazy("Knockout games"), gettext_lazy("Every game of every series with its lus."),
              knockout_document),
        Entry("bracket", gettext_lazy("Bracket"),
              gettext_lazy("Semifinals and final with a box for every game's lus."), bracket_document,
              tabular=False),
        Entry("ranking", gettext_lazy("Final ranking"), gettext_lazy("Every team's final place."),
              ranking_document),
    )
}


def build(tournament, name: str, **options):
    """The named document, in the tournament's language (see the module docstring for why here)."""
    with venue_locale(tournament):
        return CATALOGUE[name].build(tournament, **options)


def documents(tournament) -> dict[str, Callable[[], object]]:
    """The game's `documents` hook: every document by name; slips and lus boards for the current round."""
    return {name: (lambda name=name: build(tournament, name)) for name in CATALOGUE}
