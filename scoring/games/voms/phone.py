"""A Voms table's own page, opened from its private link (/t/<token>/): a pool game's slip or a knockout series.

Both teams with their players, then the slip as at the referee table (lus of each team, the winner when both
reached the target, x for an absent team; the same confirmations and refusals), a row per game for a series.
What is typed is kept in the phone (static/scoring/phone.js) until it is sent; sending makes a first entry
awaiting confirmation at the referee table (`services.slips.enter_from_link`). Once the result counts (a series:
once it is decided) the page shows it read-only.

`?preview` (a GET with the slip's fields, sent by static/voms/phone.js while the steppers are tapped) answers per
game with the match points the rules give the lus (2, 2.5 or 1.5 for the winner) or the message they refuse it
with, as a send would: nothing is stored, and the send checks everything again.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.formats import localize
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet
from scoring.phone import after_sending, is_problem, phone_context, problem_response, storage_key
from scoring.phone import editable as phone_editable
from scoring.results.checks import rule_message
from scoring.results.double_entry import pending_of
from scoring.rules.base import RuleError
from tournament.models import Match
from tournament.services.errors import DomainError

from . import queries
from .documents import team_card
from .entries import score_entry
from .forms import PhoneGameForm
from .services.slips import DisqualificationUnconfirmed, enter_from_link
from .views.common import fail

FIELDS = r"^g\d+-(lus_a|lus_b|winner|confirm_low_winner|confirm_high_lus)$|^confirm_disqualify$"


def _title(match: Match) -> str:
    if not queries.is_series(match):
        return _("Round %(round)s · Table %(table)s") % {"round": match.round.number, "table": match.table_number}
    for name, matches in queries.knockout_rounds(match.stage.tournament):
        if any(m.pk == match.pk for m in matches):
            return str(name)
    return _("Knockout")


def table_page(request, link, *, token: str):
    """GET shows the slip (or the counted result); POST sends it."""
    match = (Match.objects.select_related("team_a", "team_b", "round", "pool", "stage__tournament")
             .prefetch_related("team_a__members", "team_b__members").get(pk=link.match_id))
    series = queries.is_series(match)
    sheet = ScoreSheet.objects.filter(match=match).first()
    finished = sheet is not None and (not series or bool(sheet.derived.get("finished")))
    counted = list(sheet.entries) if sheet is not None and not finished else []
    teams = [(side, team_card(team) if team else None) for side, team in (("A", match.team_a), ("B", match.team_b))]
    context = {**phone_context(link, token=token, place_title=_title(match)), "match": match, "series": series,
               "teams": teams, "known": match.team_a_id is not None and match.team_b_id is not None,
               "sheet": sheet if finished else None, "link": link,
               "pool": _("Pool %(pool)s") % {"pool": match.pool.name} if match.pool else "",
               "counted_games": _games(sheet.derived["games"][: len(counted)], match) if counted else [],
               "result_games": _games(sheet.derived["games"], match) if finished else []}
    if is_problem(request):
        return problem_response(request, link)
    if finished or not context["known"]:
        return _show(request, context, [], editable=False)
    if request.method == "POST":
        return _send(request, link, match, context, counted)
    if "preview" in request.GET:
        return _preview(request.GET, match, counted)
    pending = pending_of(match=match)
    sent = pending if pending is not None and pending.source_link_id is not None else None
    stored = sent.entries[len(counted):] if sent and sent.entries[: len(counted)] == counted else []
    context["sent"] = sent
    forms = [_form(match, n, initial=_initial(stored[i]) if i < len(stored) else None)
             for i, n in enumerate(_numbers(match, counted))]
    return _show(request, context, forms, editable=True)


def _numbers(match: Match, counted: list) -> range:
    """The game numbers the phone can type: the one game of a pool slip, a series' games after the counted."""
    return range(len(counted) + 1, (match.best_of if queries.is_series(match) else 1) + 1)


def _form(match: Match, number: int, *, data=None, initial=None) -> PhoneGameForm:
    return PhoneGameForm(data, prefix=f"g{number}", initial=initial, series=queries.is_series(match),
                         teams=(str(match.team_a), str(match.team_b)),
                         max_lus=queries.rules_settings(match.stage.tournament).max_lus)


def _initial(entry: dict) -> dict:
    absent = entry.get("absent")
    return {"lus_a": "x" if absent == "a" else "" if absent else entry.get("lus_a"),
            "lus_b": "x" if absent == "b" else "" if absent else entry.get("lus_b"),
            "winner": entry.get("winner") or "", "confirm_low_winner": entry.get("confirm_low_winner", False),
            "confirm_high_lus": entry.get("confirm_high_lus", False)}


def _games(derived_games: list[dict], match: Match) -> list[dict]:
    names = {"a": str(match.team_a), "b": str(match.team_b)}
    return [{"number": n, "lus_a": g["lus_a"], "lus_b": g["lus_b"], "winner": names.get(g["winner"], ""),
             "forfeit": g.get("kind") == "forfeit", "points_a": g["points_a"], "points_b": g["points_b"]}
            for n, g in enumerate(derived_games, start=1)]


def _preview(data, match: Match, counted: list) -> JsonResponse:
    """Each typed game as the rules value it: its points per team and winner, or the first message on it (a box
    that cannot be read, or the rules' refusal); a game left empty is not in the answer."""
    settings = queries.rules_settings(match.stage.tournament)
    games = []
    for number in _numbers(match, counted):
        form = _form(match, number, data=data)
        if form.is_empty():
            continue
        game = {"game": number, "points_a": "", "points_b": "", "winner": "", "error": ""}
        if form.is_valid():
            try:
                score = score_entry(form.entry(), settings)
            except RuleError as error:
                game["error"] = rule_message(error)
            else:
                game.update(points_a=localize(score.points_a), points_b=localize(score.points_b), winner=score.winner)
        else:
            game["error"] = " ".join(str(error) for errors in form.errors.values() for error in errors)
        games.append(game)
    return JsonResponse({"games": games})


def _send(request, link, match: Match, context: dict, counted: list):
    forms = [_form(match, n, data=request.POST) for n in _numbers(match, counted)]
    # a series' game left empty was not played: shown empty again, without messages
    forms = [_form(match, int(form.prefix[1:])) if context["series"] and form.is_empty() else form for form in forms]
    typed = [form for form in forms if form.is_bound]
    settings = queries.rules_settings(match.stage.tournament)
    entries = []
    for form in typed:
        if form.is_valid():
            entry = form.entry()
            try:  # each game on its own first: its message goes to its own boxes, as at the referee table
                score_entry(entry, settings)
            except RuleError as error:
                fail(form, DomainError(rule_message(error), field=error.field))
            entries.append(entry)
    error = None
    if not typed:
        error = _("The slip has no game.")
    elif any(form.errors for form in typed):
        error = _("Something on the slip cannot be right: see the marked boxes.")
    if error is None:
        try:
            result = enter_from_link(link, entries=counted + entries,
                                              confirm_disqualify=request.POST.get("confirm_disqualify") == "on")
        except DisqualificationUnconfirmed as asked:
            context.update(ask_disqualify=True)
            error = asked.message
        except DomainError as refused:
            if refused.field and len(typed) == 1 and refused.field in typed[0].fields:
                fail(typed[0], refused)
            error = refused.message
        else:
            # a pool slip or a decided series that counts, or a slip awaiting confirmation: the page's note says so
            unfinished = result.counted and queries.is_series(match) and not result.derived.get("finished")
            return after_sending(request, unnoted=_("Your series has been recorded and counts.") if unfinished
                                 else "")
    return _show(request, {**context, "error": error}, forms, editable=True, status=400)


def _show(request, context: dict, forms: list, *, editable: bool, status: int = 200):
    if not phone_editable(context, editable):  # a closed link (finished or archived) shows, records nothing
        editable, forms = False, []
    context.update(forms=forms, can_edit=editable and bool(forms), confirm_fields=("confirm_low_winner",
                                                                                   "confirm_high_lus"),
                   entry_config={"editable": editable and bool(forms), "storage": storage_key(context["link"]),
                                 "form": "ph-slip", "fields": FIELDS,
                                 "max_lus": queries.rules_settings(context["match"].stage.tournament).max_lus})
    return render(request, "voms/phone.html", context, status=status)
