"""Where the referee table's entry pages keep what is typed until it is saved (static/scoring/draft.js, the same
mechanism as a table's phone page): a reload, a page left by mistake or a crashed browser loses nothing.

The key names the tournament, the round and table, the form's variant and the person typing, so a kept draft never
lands on another table's, round's or tournament's form. `base` is the saved state the form shows: typing kept on
another one (the list was saved since) is offered on the page, never put over the saved values unasked.
"""

from __future__ import annotations


def draft_config(request, tournament, table, *, base: str, variant: str = "") -> dict:
    """The entry-config keys for static/scoring/draft.js on a referee table's entry page."""
    who = request.user.pk or 0
    place = f"r{table.round.number}:t{table.number}:{table.pk}"
    return {
        "storage": f"sheet-draft:{tournament.pk}:{place}:{variant}:u{who}",
        "base": base,
        # a refused save shown again holds what was just sent: kept as it is shown
        "posted": request.method == "POST",
    }


def state_of(sheet, pending) -> str:
    """The saved state a form is typed on: the counted list's version and the first entry's, if any."""
    return f"{sheet.version if sheet else 0}.{pending.version if pending else 0}"
