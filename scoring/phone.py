"""What every game's phone page (a table's private link, /t/<token>/) shares: its context, where the phone
keeps the typing, and the "Signal a problem" form. The page itself extends `templates/scoring/phone_base.html`.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from scoring.models import TableProblem
from scoring.results.counting import compared_by_referee
from scoring.results.links import closed_reason
from scoring.results.photos import max_megabytes, photo_of
from scoring.results.problems import signal_problem
from tournament.services.errors import DomainError


def phone_context(link, *, token: str, place_title: str) -> dict:
    """`closed`: why the link records nothing any more (a finished or archived tournament), "" while it does; the
    page then shows the result without a form (each game's page: `editable(context, …)`). A seat's (a team's)
    link (two agreeing reports count) names its holder in the title; `compared`: its report differs from another
    holder's, so the referee table compares them. `photo`: the place's photo of its paper sheet, if the table sent
    one (`templates/scoring/_photo_field.html`)."""
    if link.holder is not None:
        place_title = f"{place_title} · {capfirst(link.holder_label)}"
    return {"tournament": link.tournament, "token": token, "place_title": place_title,
            "problem_kinds": TableProblem.Kind.choices, "closed": closed_reason(link.tournament),
            "holder": link.holder is not None, "compared": compared_by_referee(link),
            "photo": photo_of(**link.place), "photo_max_mb": max_megabytes()}


def editable(context: dict, wanted: bool) -> bool:
    """Whether the phone page offers its form: as the game's page wants it, never on a closed link."""
    return wanted and not context.get("closed")


def storage_key(link) -> str:
    """Where the phone keeps what is typed: the place and the link's hint (its hash's first characters), never
    any part of the token: the browser's storage outlives the page, and a key naming the link tells typing kept
    for a reissued link apart."""
    place = f"t{link.table_id}" if link.table_id is not None else f"m{link.match_id}"
    return f"table-entry:{place}:{link.hint}"


def after_sending(request, *, unnoted: str = "", to: str = ""):
    """The redirect after a table's send. The page itself says what became of it, in its note under the players
    (sent at …, checked and confirmed by the referee table; or recorded and counts), which stays on every reload:
    a message repeating it would say the same twice. Only hands or games that count at once while the game or
    series goes on have no note: `unnoted` says it then, once."""
    if unnoted:
        messages.success(request, unnoted)
    return taken(redirect(to or request.path))


def taken(response):
    """Marks the answer to a send that was stored: the link's brake counts it as taken, not as refused
    (scoring/tablelink_views.py)."""
    response.send_taken = True
    return response


def is_problem(request) -> bool:
    return request.method == "POST" and request.POST.get("action") == "problem"


def problem_response(request, link):
    """The "Signal a problem" form: braked like a list, shown at once on the referee table's pages."""
    try:
        signal_problem(link, kind=request.POST.get("kind", ""), note=request.POST.get("note", ""))
    except DomainError as error:
        messages.error(request, error.message)
        return redirect(request.path)
    messages.success(request, _("The referee table has been told. Someone will come to your table."))
    return taken(redirect(request.path))
