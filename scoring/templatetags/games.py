"""The game registry in templates: `{{ tournament|game_name }}` (the models do not know the registry)."""

from django import template

from scoring.games import game_of

register = template.Library()


@register.filter
def game_name(obj):
    """The name of a tournament's or a season's game."""
    return game_of(obj).name
