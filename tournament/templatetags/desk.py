"""The registration desk on other pages: the draw pages offer to withdraw the no-shows first."""

from django import template

from ..queries import drawn
from ..services.participants import no_shows

register = template.Library()


@register.inclusion_tag("tournament/desk/_no_shows.html", takes_context=True)
def no_shows_offer(context, tournament):
    """Before the draw seats anyone: who is registered but has not arrived, and a button to withdraw them."""
    missing = [] if drawn(tournament) else no_shows(tournament)
    return {"tournament": tournament, "missing": missing, "request": context.get("request"),
            "csrf_token": context.get("csrf_token")}
