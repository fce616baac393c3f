"""Schafkopf hooks for a tournament file's import: its settings checked as the settings page would, and the
recompute path of a stored score list (`make_derive`, as `enter_sheet` and `confirm_sheet` use it)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.games.settings_check import as_mapping, form_data, require_same, require_valid
from scoring.results.checks import rule_message
from scoring.rules.base import RuleError

from .config import default_settings, settings_of
from .forms import SettingsForm
from .services import make_derive

#: fixed tables beyond this number cannot be seated by any draw of this app
MAX_TABLE = 999
MAX_NUMBER = 99999


def check_settings(tournament) -> None:
    merged = {**default_settings(), **as_mapping(tournament.settings, known=default_settings())}
    try:
        settings = settings_of(tournament)
    except RuleError as error:
        raise ValidationError(rule_message(error)) from None
    except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError):
        raise ValidationError(_("The game settings cannot be read.")) from None
    require_same(settings.to_json(), merged)
    initial = SettingsForm.initial_from(settings)
    require_valid(SettingsForm(data=form_data(SettingsForm, initial)))
    for number, table in settings.fixed_tables.items():
        if not (1 <= number <= MAX_NUMBER and 1 <= table <= MAX_TABLE):
            raise ValidationError(_("A fixed table (participant %(number)s at table %(table)s) is out of range.")
                                  % {"number": number, "table": table})


def sheet_derive(tournament, *, match, table):
    if table is None:
        raise ValidationError(_("A Schafkopf score list must belong to a table."))
    return make_derive(settings_of(tournament), table.seats.count())
