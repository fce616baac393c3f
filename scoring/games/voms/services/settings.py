"""The Voms settings page's service: points, target, absences, the knockout's form, the clock."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rules import voms as rules
from scoring.rules.base import RuleError
from tournament.permissions import require_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError

from ..queries import DEFAULTS, play_started, settings_of
from .common import refused


def update_settings(tournament, *, by, changes: dict, reason: str = "") -> dict:
    require_director(by, tournament)
    merged = {**settings_of(tournament), **changes}
    try:
        rules.VomsSettings(
            win_points=Decimal(str(merged["win_points"])), kam_points=Decimal(str(merged["kam_points"])),
            over_points=Decimal(str(merged["over_points"])), target=int(merged["target"]),
            max_absences=int(merged["max_absences"]), best_of=int(merged["best_of"]),
            sure_lus=int(merged["sure_lus"]), max_lus=int(merged["max_lus"]),
        )
    except RuleError as error:
        raise refused(error) from error
    scoring_keys = {"win_points", "kam_points", "over_points", "target", "max_absences"}
    if play_started(tournament) and any(str(changes.get(k, merged[k])) != str(settings_of(tournament)[k])
                                          for k in scoring_keys if k in changes):
        raise DomainError(_("The points cannot be changed once results have been entered."))
    with transaction.atomic():
        before = settings_of(tournament)
        tournament.settings = {k: merged[k] for k in DEFAULTS}
        tournament.save(update_fields=["settings", "updated"])
        log_action("settings.update", by=by, tournament=tournament, obj=tournament, before=before,
                   after=tournament.settings, reason=reason)
    return tournament.settings
