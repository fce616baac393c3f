"""Text typed by directors and assistants: how names compare, and the limits of free text (reasons, remarks),
checked by the services that store it.

Forms carry the same limits (`max_length`), so a browser stops typing at the limit; a post that goes
around the form is refused here with the same translated message, never stored.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .errors import DomainError

#: a reason (exclusion, withdrawal, correction, substitute) is a sentence or two
MAX_REASON = 500


def limited_reason(reason) -> str:
    """The reason as given, or a `DomainError` on the "reason" field when it is longer than MAX_REASON."""
    text = str(reason or "")
    if len(text) > MAX_REASON:
        raise DomainError(
            _("Keep the reason to at most %(max)s characters (it has %(count)s).")
            % {"max": MAX_REASON, "count": len(text)},
            field="reason",
        )
    return text


def same_name(text: str) -> str:
    """A name as the desk compares it: case and spacing do not count ("anna  Huber" is "Anna Huber")."""
    return " ".join(text.split()).casefold()
