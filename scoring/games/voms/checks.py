"""Voms hooks for a tournament file's import: its settings checked as the settings page would, and the
recompute path of a stored slip (`derive_slip`, as `record_slip`, `record_series` and `confirm_slip` use it)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.games.settings_check import as_mapping, form_data, require_same, require_valid
from tournament.models import Participant, Stage, Team

from .entries import derive_slip
from .forms import DrawForm, SettingsForm
from .queries import DEFAULTS, rules_settings


def check_settings(tournament) -> None:
    stored = as_mapping(tournament.settings, known=DEFAULTS)
    merged = {**DEFAULTS, **stored}
    data = require_valid(SettingsForm(data=form_data(SettingsForm, merged))).cleaned_data
    read_back = {**data, "start_time": data["start_time"].strftime("%H:%M"), "pools": merged["pools"]}
    for key in ("win_points", "kam_points", "over_points"):
        read_back[key] = str(data[key].normalize())
    require_same(read_back, merged)
    require_valid(DrawForm(data=form_data(DrawForm, {"pools": merged["pools"]})))


def sheet_derive(tournament, *, match, table):
    if match is None:
        raise ValidationError(_("A Voms result must belong to a game."))
    return derive_slip(rules_settings(tournament), match.best_of if match.stage.kind != Stage.Kind.POOLS else 1)


def json_links(label: str, field: str, value, convert):
    """The keys inside Voms JSON: a knockout's qualifiers name teams, a partner draw its players."""
    if label == "tournament.stage" and field == "settings" and isinstance(value, dict) and "qualifiers" in value:
        qualifiers = value["qualifiers"]
        if not isinstance(qualifiers, list) or not all(
            isinstance(q, list) and len(q) == 3 and all(type(n) is int for n in q) for q in qualifiers
        ):
            raise ValidationError(_("A knockout's qualifiers are not a list of pool, place and team."))
        return {**value, "qualifiers": [[pool, place, convert(Team, team)] for pool, place, team in qualifiers]}
    if label == "tournament.draw" and field == "params" and isinstance(value, dict) \
            and isinstance(value.get("players"), list):
        if not all(type(n) is int for n in value["players"]):
            raise ValidationError(_("A partner draw's players are not a list of players."))
        return {**value, "players": [convert(Participant, player) for player in value["players"]]}
    return value

