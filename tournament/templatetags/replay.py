"""`{% form_key %}`: the hidden single-use key of a form that appends (see `tournament.services.replay`)."""

from django import template
from django.utils.html import format_html

from tournament.services.replay import FIELD, new_key

register = template.Library()


@register.simple_tag
def form_key():
    """A new key at every rendering: each form on a page, and each page, gets its own."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
