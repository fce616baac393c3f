"""What every Voms service shares: a rule's refusal becomes a `DomainError` with the rule's translated message.
(Only a director may change the tournament: `tournament.permissions.require_director`.)"""

from __future__ import annotations

from scoring.results.checks import rule_message
from scoring.rules.base import RuleError
from tournament.services.errors import DomainError


def refused(error: RuleError) -> DomainError:
    return DomainError(rule_message(error), field=error.field)
