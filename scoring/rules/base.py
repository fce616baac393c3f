"""What every pure rules module shares: the domain error and the message marker.

Rules modules must not import Django, yet their messages must reach the
translation catalogues. `gettext_noop` here only marks a string for extraction
(`makemessages` looks for the name); the Django layer translates
`RuleError.message` at display time with the error's parameters.
"""

from __future__ import annotations


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
