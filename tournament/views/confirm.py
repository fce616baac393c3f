"""A confirmation step for one-click actions that end or hide something (archive, time is up, reset, redraw).

No JavaScript `confirm()`: the action's form posts as before; without `confirmed=1` the view answers with
a page that says what will happen and posts the same fields again with `confirmed=1`. It works by keyboard
(the confirm button has the focus, Cancel is the next stop) and without JavaScript.
"""

from __future__ import annotations

from django.shortcuts import render

CONFIRMED = "confirmed"


def confirmed(request) -> bool:
    return request.POST.get(CONFIRMED) == "1"


def confirmation_page(request, *, question, explanation="", confirm_label, cancel_url: str, tournament=None):
    """The page asking `question`; its button re-posts the request's fields to the same address, confirmed."""
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", CONFIRMED)
        for value in values
    ]
    return render(request, "confirm.html", {
        "question": question, "explanation": explanation, "confirm_label": confirm_label, "cancel_url": cancel_url,
        "fields": fields, "action": request.get_full_path(), "tournament": tournament,
    })
