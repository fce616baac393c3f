"""What the rules say about entries, and what a typed reason may hold.

A game gives the results services one `derive(entries, mode)`: it checks the raw entries with the game's
rules and says what they are worth. A refusal of the rules becomes a `DomainError` with its translated text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from scoring.rules.base import RuleError
from tournament.services.errors import DomainError

#: derive(entries, mode) -> derived values; raises RuleError for entries the rules refuse
Derive = Callable[[Any, str], dict]


def rule_message(error: RuleError) -> str:
    """The translated text of a rules error, with its parameters filled in."""
    text = _(error.message)
    return text % error.params if error.params else text


def derive_or_refuse(derive: Derive, entries, mode: str) -> dict:
    try:
        return derive(entries, mode)
    except RuleError as error:
        raise DomainError(rule_message(error), field=error.field) from error


def clean_reason(reason) -> str:
    """The reason as text without control characters (PostgreSQL refuses a NUL; a pasted one must not fail)."""
    return "".join(ch for ch in str(reason or "") if ch in "\n\t" or unicodedata.category(ch)[0] != "C")
