"""Links to a club's rows on pages that may list several clubs' (tournament/clubaddress.py)."""

from django import template

from ..clubaddress import club_address as address_in_own_club

register = template.Library()


@register.filter
def club_address(row) -> str:
    """The director's page of a tournament or season in the row's own club: `{{ season|club_address }}`."""
    return address_in_own_club(row)
