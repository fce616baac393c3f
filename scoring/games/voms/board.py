"""Voms on the round's board (`scoring.board`): a pool round's slips, or the knockout's series.

A pool game is counted once its slip counts, or once a disqualification decides it (it needs no slip then);
a knockout series is still playing while its sheet holds games but no winner yet.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.board import COUNTED, MISSING, Board, BoardItem, open_problems, place_state
from scoring.models import PendingSheet
from tournament.models import Match, Stage
from tournament.permissions import is_director

from . import queries

KNOCKOUT = "ko"


def _url(tournament, name: str, *args) -> str:
    return reverse(f"tournament:voms:{name}", args=[tournament.slug, *args])


def board(tournament, part: str | None, *, user=None) -> Board:
    pools = Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).first()
    knockout = queries.knockout_stage(tournament)
    started = dict(pools.rounds.order_by("number").values_list("number", "clock_started_at")) if pools else {}
    rounds = list(started)
    parts = [(str(n), str(_("Pool round %(number)s") % {"number": n})) for n in rounds]
    if knockout is not None:
        parts.append((KNOCKOUT, str(_("Knockout"))))
    if not parts:
        return Board(part="", title=_("Round board"), empty_text=_("The pools have not been drawn yet."))
    state = queries.pool_state(tournament, pools) if pools else None
    if part is None:
        open_round = state.derivation.first_open_round() if state else None
        part = str(open_round) if open_round is not None else KNOCKOUT if knockout is not None else str(rounds[-1])
    if part not in dict(parts):
        raise Http404
    pending = {p.match_id: p for p in PendingSheet.objects.filter(match__stage__tournament=tournament)
               .select_related("entered_by")}
    if part == KNOCKOUT:
        items, arrivals = _series(tournament, pending, user)
        title = _("Knockout")
    else:
        items, arrivals = _slips(tournament, pools, state, int(part), pending, user)
        title = _("Pool round %(number)s") % {"number": part}
    problems = open_problems(tournament, by="match_id", match__isnull=False)
    for item in items:
        item.problems = problems.get(int(item.key.removeprefix("match-")), [])
    return Board(part=part, title=str(title), items=items, parts=parts, arrivals=arrivals,
                 started_at=None if part == KNOCKOUT else started[int(part)])


def _slips(tournament, stage, state, number: int, pending: dict, user) -> tuple[list[BoardItem], list]:
    """The round's slips on the board, and when each slip counted."""
    director = user is not None and is_director(user, tournament)
    matches = (Match.objects.filter(stage=stage, round__number=number, team_b__isnull=False)
               .select_related("team_a", "team_b", "pool", "sheet").order_by("table_number", "pk"))
    enter = _url(tournament, "enter") + f"?round={number}"
    items, arrivals = [], []
    for match in matches:
        teams = f"{match.team_a} – {match.team_b}"
        sheet = getattr(match, "sheet", None)
        if sheet is not None:
            arrivals.append(sheet.entered_at)
        item = BoardItem(key=f"match-{match.pk}", label=str(_("Table %(number)s") % {"number": match.table_number}),
                         state=place_state(sheet.derived if sheet else None, pending.get(match.pk)), url=enter,
                         detail=teams)
        result = state.result(match.pk)
        if sheet is not None:
            if director:
                item.url = _url(tournament, "correct", match.pk)
        elif item.state == MISSING and result is not None and result.outcome != "missing":
            item.state = COUNTED
            left = [team for team in (match.team_a, match.team_b) if team.pk in state.derivation.withdrawn]
            item.detail = f"{teams} · " + (_("%(team)s withdrawn: counts 9:0 for the opponent") % {"team": left[0]}
                                           if left else _("decided by a disqualification"))
        if match.pk in pending:
            item.show_pending(pending[match.pk], user, before=teams)
            item.url = f"{enter}&match={match.pk}"  # the entry page puts the focus on this slip's Confirm
        items.append(item)
    return items, arrivals


def _series(tournament, pending: dict, user) -> tuple[list[BoardItem], list]:
    """The knockout's series on the board, and when each series' sheet first counted."""
    items, arrivals = [], []
    for round_label, matches in queries.knockout_rounds(tournament):
        for match in matches:
            known = match.team_a_id is not None and match.team_b_id is not None
            teams = f"{match.team_a} – {match.team_b}" if known else _("teams not known yet")
            sheet = getattr(match, "sheet", None)
            if sheet is not None:
                arrivals.append(sheet.entered_at)
            item = BoardItem(key=f"match-{match.pk}", label=str(round_label),
                             state=place_state(sheet.derived if sheet else None, pending.get(match.pk)), detail=teams,
                             url=_url(tournament, "series", match.pk) if known else _url(tournament, "knockout"))
            if match.pk in pending:
                item.show_pending(pending[match.pk], user, before=teams)
            items.append(item)
    return items, arrivals
