from django import template
from django.utils.translation import gettext as _

from scoring.rules import voms as rules
from scoring.rules.standings import LOT_KEY, LOT_NAME

register = template.Library()

_METRIC_NAMES = {m.key: m.name for m in (rules.POINTS, rules.WINS, rules.LUS_DIFF)}
_METRIC_NAMES[rules.H2H_KEY] = rules.H2H_NAME
_METRIC_NAMES[LOT_KEY] = LOT_NAME


@register.filter
def get_item(mapping, key):
    return mapping.get(key)


@register.simple_tag
def voms_tabs(tournament, role, current):
    """The Voms tabs for the page (`scoring.games.voms.tabs.TABS`: one order on every page)."""
    from scoring.games.voms.tabs import tabs

    return tabs(tournament, director=role == "director", current=current or "")


@register.filter
def metric_name(key):
    """The translated name of the ranking step that separated a team from the one above."""
    name = _METRIC_NAMES.get(key)
    return _(name) if name else ""


@register.filter
def points(value):
    """Points without trailing zeros, as the language in force writes them: 2, 2.5, 12 (never 12.0); 2,5 in German
    and Danish."""
    from decimal import Decimal, InvalidOperation

    from django.utils.formats import number_format

    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return value
    return number_format(number.quantize(Decimal(1)) if number == number.to_integral_value() else number.normalize())
