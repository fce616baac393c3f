"""What every Voms service shares: only a director may change the tournament, and a rule's refusal
becomes a `DomainError` with the rule's translated message."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.results.checks import rule_message
from scoring.rules.base import RuleError
from tournament.permissions import is_director
from tournament.services.errors import DomainError


def require_director(by, tournament) -> None:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can do this."))


def refused(error: RuleError) -> DomainError:
    return DomainError(rule_message(error), field=error.field)
