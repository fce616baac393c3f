"""How Voms values are written wherever they appear (pages, printouts, public pages): points without trailing
zeros, a team's mark ("disqualified in round 3", "withdrawn from round 3"), the name of the ranking step that
separated two teams."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring.rules import voms as rules
from scoring.rules.standings import LOT_KEY, LOT_NAME

_METRIC_NAMES = {m.key: m.name for m in (rules.POINTS, rules.WINS, rules.LUS_DIFF)}
_METRIC_NAMES[rules.H2H_KEY] = rules.H2H_NAME
_METRIC_NAMES[LOT_KEY] = LOT_NAME


def metric_name(key) -> str:
    """The translated name of the ranking step that separated a team from the one above."""
    name = _METRIC_NAMES.get(key)
    return _(name) if name else ""


def show_points(value):
    """Points without trailing zeros, as the language in force writes them: 2, 2.5, 12 (never 12.0); 2,5 in German
    and Danish."""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return value
    return number_format(number.quantize(Decimal(1)) if number == number.to_integral_value() else number.normalize())


def disqualified_note(round_number: int) -> str:
    """How a disqualified team is marked wherever it appears."""
    return _("disqualified in round %(round)s") % {"round": round_number}


def withdrawn_note(round_number: int) -> str:
    """How a team that left the evening is marked wherever it appears (voms.md "a team leaves early")."""
    return _("withdrawn from round %(round)s") % {"round": round_number}


def team_marks(derivation: rules.PoolDerivation) -> dict[int, str]:
    """Team -> its mark: disqualified in round N, or withdrawn from round N."""
    marks = {team: withdrawn_note(rnd) for team, rnd in derivation.withdrawn.items()}
    marks.update((team, disqualified_note(rnd)) for team, rnd in derivation.disqualified.items())
    return marks


def with_note(name: str, marks: dict[int, str], team_id) -> str:
    """A team's name, marked when it was disqualified or withdrawn (`PoolState.marks`)."""
    mark = marks.get(team_id)
    return name if mark is None else f"{name} ({mark})"
