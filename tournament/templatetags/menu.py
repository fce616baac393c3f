"""The top bar's questions about the user, each in one query."""

from django import template

from ..permissions import keeps_register
from ..tenancy import shows_club_page

register = template.Library()


@register.filter
def may_keep_register(user) -> bool:
    """Whether the top bar offers Seasons and the Player register (who may create tournaments)."""
    return keeps_register(user)


@register.filter
def may_manage_club(user) -> bool:
    """Whether the top bar links the club page (tournament.tenancy.shows_club_page: never on a laptop)."""
    return shows_club_page(user)
