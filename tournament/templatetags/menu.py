"""The top bar's questions about the user, each in one query."""

from django import template

from ..permissions import keeps_register
from ..tenancy import shows_club_page, shows_federation_page

register = template.Library()


@register.filter
def may_keep_register(user) -> bool:
    """Whether the top bar offers Seasons and the Player register (who may create tournaments)."""
    return keeps_register(user)


@register.filter
def may_manage_club(user) -> bool:
    """Whether the top bar links the club page (tournament.tenancy.shows_club_page: never on a laptop)."""
    return shows_club_page(user)


@register.filter
def may_keep_federation(user) -> bool:
    """Whether the top bar links the federation's pages (tournament.tenancy.shows_federation_page)."""
    return shows_federation_page(user)
