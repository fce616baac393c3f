from django import template

from scoring.games.voms.text import show_points

register = template.Library()


@register.filter
def get_item(mapping, key):
    return mapping.get(key)


@register.simple_tag
def voms_tabs(tournament, role, current):
    """The Voms tabs for the page (`scoring.games.voms.tabs.TABS`: one order on every page)."""
    from scoring.games.voms.tabs import tabs

    return tabs(tournament, director=role == "director", current=current or "")


#: points without trailing zeros, as the language in force writes them (`scoring.games.voms.text.show_points`)
register.filter("points", show_points)
