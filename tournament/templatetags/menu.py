"""The top bar's questions about the user, each in one query."""

from django import template

from ..permissions import keeps_register

register = template.Library()


@register.filter
def may_keep_register(user) -> bool:
    """Whether the top bar offers Seasons and the Player register (who may create tournaments)."""
    return keeps_register(user)
