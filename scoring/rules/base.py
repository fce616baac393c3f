"""What every pure rules module shares: the domain error and the message marker.

Rules modules must not import Django, yet their messages must reach the
translation catalogues. `gettext_noop` here only marks a string for extraction
(`makemessages` looks for the name); the Django layer translates
`RuleError.message` at display time with the error's parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def gettext_noop(message: str) -> str:
    """Mark `message` for translation without translating it (done later)."""
    return message


class RuleError(ValueError):
    """An entry that the rules of the game do not allow.

    `message` is an English source string (marked with `gettext_noop`) with
    `%(name)s` placeholders; `params` fills them after translation; `code` is a
    stable identifier tests and views can match on; `field` names the input
    that is wrong, when there is one.
    """

    def __init__(self, code: str, message: str, *, field: str | None = None, **params: object):
        self.code = code
        self.message = message
        self.field = field
        self.params = params
        super().__init__(message % params if params else message)


def is_whole_number(value: object) -> bool:
    """True for an int (a bool is an int to Python, but never a count or a score here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_count(value: object, code: str, message: str, *, field: str, **params: object) -> None:
    """Refuse `value` unless it is a whole number of 0 or more: a `RuleError(code, message)` with the value as
    %(value)s besides `params`."""
    if not is_whole_number(value) or value < 0:
        raise RuleError(code, message, field=field, value=value, **params)


def require_each_once(items: Iterable[T], code: str, message: str, *, field: str, name: str,
                      allowed: Callable[[T], bool] | None = None) -> None:
    """Refuse the first item that stands twice in `items`, or that `allowed` does not allow: a
    `RuleError(code, message)` with the item as %(<name>)s."""
    seen: set[T] = set()
    for item in items:
        if item in seen or (allowed is not None and not allowed(item)):
            raise RuleError(code, message, field=field, **{name: item})
        seen.add(item)
