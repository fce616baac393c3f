"""Table-game hooks for a tournament file's import: its settings checked as the settings page would, and the
recompute path of a stored sheet (`services.table_derive`, as `enter_sheet` and `confirm_sheet` use it)."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.games.settings_check import as_mapping, form_data, require_same, require_valid
from scoring.seated.game import seated_game
from tournament.services.errors import DomainError

from .config import check_sizes, defaults_for, settings_of
from .forms import SettingsForm, initial_from
from .services import table_derive


def check_settings(tournament) -> None:
    game = seated_game(tournament).game
    stored = as_mapping(tournament.settings, known=("variant", "rounds", "table_sizes", "finish_time", "rules"))
    if "variant" in stored and stored["variant"] not in game.variants:
        raise ValidationError(_("The game settings name a variant this game does not have: %(variant)s.")
                              % {"variant": stored["variant"]})
    base = defaults_for(game, stored.get("variant", game.default_variant)).to_json()
    merged = {**base, **stored}
    if isinstance(stored.get("rules"), Mapping):
        merged["rules"] = {**base["rules"], **stored["rules"]}
    try:
        settings = settings_of(tournament)
    except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError):
        raise ValidationError(_("The game settings cannot be read.")) from None
    require_same(settings.to_json(), merged)
    require_valid(SettingsForm(settings, data=form_data(SettingsForm, initial_from(settings), settings)))
    try:
        check_sizes(settings)
    except DomainError as error:
        raise ValidationError(error.message) from None


def sheet_derive(tournament, *, match, table):
    if table is None:
        raise ValidationError(_("A score sheet of a table game must belong to a table."))
    return table_derive(settings_of(tournament), table)
