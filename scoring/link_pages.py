"""What every game's director page of table links shares: a row per place (its address, its QR code, a
stale link), and the Issue / Withdraw / Reissue buttons. The games list their places (Schafkopf and the table
games: a round's tables; Voms: a round's slips, the knockout's series) and render their own template.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from documents.qr import qr_svg
from scoring.models import ScoreSheet, TableLink, TableProblem
from scoring.progress import is_finished
from scoring.results.links import current_token, issue_links, reissue_link, revoke_link
from scoring.results.problems import close_problem
from tournament.addresses import base_url
from tournament.models import Round, Seat, Stage, Tournament
from tournament.services.errors import DomainError


def link_url(token: str, request=None) -> str:
    """The absolute address a table's phone opens (PUBLIC_BASE_URL in the hall, like the public pages)."""
    return base_url(request) + reverse("table:entry", args=[token])


def link_row(link, request, *, title: str, closed: str = "", withdrawn=None) -> dict:
    """A place's link for the director's list: its address and QR code, or why it has none to show. `closed`: why
    the link records nothing any more (`closed_note`), "" while it does; `withdrawn`: the place's last withdrawn
    link when it has no open one (the row says so rather than "no link yet")."""
    token = current_token(link) if link else None
    address = link_url(token, request) if token else None
    return {"link": link, "url": address, "stale": link is not None and token is None,
            "qr": qr_svg(address, title=title) if address else None,
            "closed": closed if link else "", "withdrawn": withdrawn if link is None else None}


def finished_places(sheets) -> set[int]:
    """The table or match ids of `sheets` (counted results) whose game is over: their links show the result and
    take nothing more (a table game's or a Voms series' sheet still played stays open for the next hands)."""
    return {sheet.table_id if sheet.table_id is not None else sheet.match_id
            for sheet in sheets.only("table_id", "match_id", "derived") if is_finished(sheet.derived)}


def closed_note(tournament, finished: bool) -> str:
    """Why a place's link records nothing any more, for the links page; "" while it does."""
    if tournament.archived:
        return _("the tournament is archived")
    if tournament.status == Tournament.Status.FINISHED:
        return _("the tournament is finished")
    return _("the result counts") if finished else ""


def withdrawn_links(links) -> dict[tuple, TableLink]:
    """{(place's id, holder): its last withdrawn link} of `links` (withdrawn ones)."""
    found: dict[tuple, TableLink] = {}
    for link in links.order_by("revoked_at"):
        found[(link.table_id if link.table_id is not None else link.match_id, link.holder)] = link
    return found


def link_action(request, open_links, issue) -> None:
    """The links page's POST: issue the missing links (`issue()` returns the new ones), or withdraw or reissue
    one of `open_links` (a queryset of the page's open links). The outcome is a message; nothing else."""
    action = request.POST.get("action")
    try:
        if action == "issue":
            made = issue()
            messages.success(request, _("%(count)s links issued.") % {"count": len(made)})
        elif action in ("revoke", "reissue"):
            chosen = request.POST.get("link", "")
            link = get_object_or_404(open_links, pk=chosen if str(chosen).isdigit() else None)
            place = link_place(link)
            if action == "revoke":
                revoke_link(link, by=request.user)
                messages.success(request, _("The link of %(place)s is withdrawn.") % {"place": place})
            else:
                reissue_link(link, by=request.user)
                messages.success(request, _("%(place)s has a new link; the old one opens nothing any more.")
                                 % {"place": place})
        else:
            raise Http404
    except DomainError as error:
        messages.error(request, error.message)


def link_place(link) -> str:
    """The place of a link in words: "Table 3", or a Voms match ("table 3: Team 1 – Team 2")."""
    if link.table_id is not None:
        return str(link.table)
    match = link.match
    if match.table_number:
        return _("Table %(number)s") % {"number": match.table_number} + f" ({match})"
    return str(match)


def holders_shown(expected, links: dict, place_id: int) -> list:
    """The holders of a place a links page shows a row for: those the tournament wants (None: the whole table;
    with two agreeing reports counting, each seat or team) and any other with an open link (made before the
    setting changed), so it can be withdrawn."""
    others = {holder for (pk, holder) in links if pk == place_id and holder not in expected}
    return list(expected) + sorted(others, key=lambda holder: -1 if holder is None else holder)


def round_links(round_, request) -> dict:
    """A seated round's tables with their links (Schafkopf, the table games): the links page's context; a row per
    table, or with two agreeing reports counting a row per seat.

    Five queries whatever the size: the seats are joined to the round, not prefetched by the tables' ids (a
    prefetch of 1,000 players names each one in the query, which SQLite refuses as too large)."""
    tournament = round_.stage.tournament
    per_seat = tournament.agreeing_reports_count
    links = {(link.table_id, link.holder): link
             for link in TableLink.objects.filter(table__round=round_, revoked_at=None)}
    withdrawn = withdrawn_links(TableLink.objects.filter(table__round=round_, revoked_at__isnull=False))
    finished = finished_places(ScoreSheet.objects.filter(table__round=round_))
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__round=round_).select_related("participant").order_by("number"):
        seats.setdefault(seat.table_id, []).append(seat)
    rows, missing = [], 0
    for table in round_.tables.order_by("number"):
        at_table = seats.get(table.pk, [])
        expected = [seat.number for seat in at_table] if per_seat else [None]
        for holder in holders_shown(expected, links, table.pk):
            title = _("Table %(number)s") % {"number": table.number}
            if holder is not None:
                title = _("Table %(number)s, seat %(seat)s") % {"number": table.number, "seat": holder}
            row = link_row(links.get((table.pk, holder)), request, title=title,
                           closed=closed_note(tournament, table.pk in finished),
                           withdrawn=withdrawn.get((table.pk, holder)))
            rows.append({"table": table, "holder": holder, "label": title,
                         "seats": [seat for seat in at_table if holder in (None, seat.number)], **row})
            missing += row["link"] is None
    return {"round_number": round_.number, "rows": rows, "missing": missing, "per_seat": per_seat}


def printed_links(links) -> dict[int, dict]:
    """{link's table or match id: its address and QR code} for a printout: only links the director issued (a
    printout never issues one itself), and only those whose token can still be shown. The links of seats or
    teams (two agreeing reports count) are under "holders": {seat's or team's number: address and QR code}."""
    found: dict[int, dict] = {}
    for link in links:
        token = current_token(link)
        if token:
            address = link_url(token)
            code = {"url": address, "qr": qr_svg(address)}
            place = found.setdefault(link.table_id if link.table_id is not None else link.match_id, {})
            if link.holder is None:
                place.update(code)
            else:
                place.setdefault("holders", {})[link.holder] = code
    return found


def problem_rows(problems, close_url) -> list[dict]:
    """Open problems for `templates/scoring/_problems.html`: each with its place in words and the address of
    its Close button (`close_url(problem)`)."""
    rows = []
    for problem in problems:
        if problem.table_id is not None:
            place = _("Table %(number)s") % {"number": problem.table.number}
        else:
            match = problem.match
            place = (_("Round %(round)s · Table %(table)s") % {"round": match.round.number, "table": match.table_number}
                     if match.round_id and match.table_number else str(match))
        rows.append({"problem": problem, "place": place, "close_url": close_url(problem)})
    return rows


class SeatedLinksPage:
    """The links page of a seated game's round (Schafkopf, the table games), mixed into the game's director
    page and TemplateView: `round_page(view_name, number)` gives the game's address of a round's page."""

    def round_page(self, name: str, number) -> str:
        raise NotImplementedError

    def round(self) -> Round:
        round_ = Round.objects.filter(stage__tournament=self.tournament, stage__kind=Stage.Kind.ROUNDS,
                                      number=self.kwargs["round"]).first()
        if round_ is None:
            raise Http404
        return round_

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(round_links(self.round(), self.request), rounds=self.rounds())
        return context

    def post(self, request, *args, **kwargs):
        round_ = self.round()
        link_action(request, TableLink.objects.filter(table__round=round_, revoked_at=None),
                    lambda: issue_links(round_, by=request.user))
        return redirect(self.round_page("links", round_.number))


def close_problem_saying_so(request, problem: TableProblem) -> None:
    """Close a problem a table signalled (someone went to the table and sorted it out), with the message."""
    try:
        close_problem(problem, by=request.user)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        number = problem.table.number if problem.table_id else problem.match.table_number
        messages.success(request, _("Table %(number)s: problem closed.") % {"number": number})
