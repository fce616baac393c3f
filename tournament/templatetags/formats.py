"""`{% format_of "TIME_FORMAT" %}`: a format of the active language (Django's), for a script that writes times."""

from django import template
from django.utils.formats import get_format

register = template.Library()


@register.simple_tag
def format_of(name: str) -> str:
    return get_format(name)
