"""Forms sent twice are saved once: single-use form keys, and "already saved" as the answer to a replay.

Every form that appends (a slip, a series game, a score list, a table-game hand, a registration)
carries a hidden key made when the page is rendered (`{% load replay %}{% form_key %}`). The view
(`tournament.views.replay.ReplayGuard`) reads it with a digest of everything the form said, as a
`Sent`, and hands it to the service; the service calls `claim(sent, ...)` first thing inside its
transaction. The key is stored with what the service did and is unique together with the digest:

- sent again with the same content (a double click, back and send again, a second tab) it is
  refused with `AlreadySaved`, which the guard answers with a friendly message and the page that
  shows the saved state; nothing is stored twice. Two copies sent at the same instant meet at the
  unique constraint: the second waits for the first and is then refused the same way.
- when the service refuses the operation (a `DomainError`) the transaction rolls back and the
  key is free again: the corrected form can be sent with it.
- the same key with other content (back to an old page, something new typed) is a new submission.

`AlreadySaved` is not a `DomainError` on purpose: views show a `DomainError` as a refusal next to
the form, but a replay is no refusal and must not read like one; the guard answers it.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from ..models import SentForm

#: the name of the hidden input that carries the key
FIELD = "form_key"
#: what a key rendered by `new_key` looks like; anything else posted is ignored (no protection, no harm)
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass(frozen=True)
class Sent:
    """One submission of a form: the key it was rendered with and a digest of what it said."""

    key: str
    digest: str


class AlreadySaved(Exception):
    """The operation was done already (the same form sent again, or the same entries saved meanwhile).

    `message` is translated and says by whom and when; nothing was changed by this request.
    """

    def __init__(self, message: str):
        self.message = message
        super().__init__(str(message))


def new_key() -> str:
    return secrets.token_urlsafe(18)


def _who(user) -> str:
    if user is None:
        return _("a deleted user")
    return user.get_full_name() or user.get_username()


def _when(moment) -> str:
    return time_format(timezone.localtime(moment), "TIME_FORMAT")


def already_saved_message(what: str, by, at) -> str:
    return _("Already saved: %(what)s (by %(who)s at %(time)s). The form was sent twice (a double click, or back "
             "and send again); it was saved only once.") % {"what": what, "who": _who(by), "time": _when(at)}


def same_entries_message(what: str, by, at) -> str:
    return _("Already saved: the sheet of %(what)s holds exactly these entries (saved by %(who)s at %(time)s). "
             "Nothing was saved twice.") % {"what": what, "who": _who(by), "time": _when(at)}


def was_saved(sent: Sent | None) -> None:
    """Refuse a submission saved before with `AlreadySaved` (the guard asks before the view does anything)."""
    if sent is None:
        return
    done = SentForm.objects.filter(key=sent.key, digest=sent.digest).select_related("by").first()
    if done is not None:
        raise AlreadySaved(already_saved_message(done.what, done.by, done.at))


def claim(sent: Sent | None, *, by, action: str, what="") -> None:
    """Mark this submission as saved, inside the service's transaction (so a refusal frees it again).

    Call it before anything else the service does in its transaction: a second copy sent at the same
    moment then waits here for the first and is refused with `AlreadySaved` once that one is saved.
    """
    if sent is None:
        return
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("claim() belongs inside the service's transaction")
    user = by if getattr(by, "is_authenticated", False) else None
    try:
        with transaction.atomic():  # a savepoint: after the unique violation the transaction goes on
            SentForm.objects.create(key=sent.key, digest=sent.digest, action=action, what=str(what)[:200], by=user)
    except IntegrityError:
        was_saved(sent)
        raise  # not a duplicate key after all: a real integrity problem
