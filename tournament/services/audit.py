"""Writing the audit log. Every service that changes state calls `log_action`."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from ..models import AuditEntry

#: what separates the parts of an object given as a tuple ("Round 2, Table 4, Seat 3")
PARTS = ", "


def _jsonable(value: Any) -> Any:
    # Dates and Decimals must survive a JSON field on SQLite and PostgreSQL alike.
    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _pieces(obj: Any) -> list:
    """One object as language-neutral pieces: what has a word ("Table", "Round", a stage's or a role's name)
    as a key and its figures, everything else (a team's or a player's name, as it is now) as its text.
    The words are built when the log is read (tournament.audit_labels.object_words)."""
    label = getattr(getattr(obj, "_meta", None), "label_lower", None)
    if label in ("tournament.table", "tournament.round", "tournament.seat"):
        return [{"kind": label.split(".")[1], "number": obj.number}]
    if label == "tournament.stage":
        return [{"kind": "stage", "stage": obj.kind}]
    if label == "tournament.draw":
        return [{"kind": "draw", "draw": obj.kind, "seed": obj.seed}]
    if label == "tournament.tournamentrole":
        return [str(obj.user), " – ", {"kind": "role", "role": obj.role}, " – ", str(obj.tournament)]
    if label == "scoring.tablelink":
        return [{"kind": "link", "of": _pieces(obj.target)}]
    return [str(obj)]


def object_ref(obj: Any) -> list | None:
    """The pieces of `obj` (a tuple: its parts in turn), or None where there is nothing to word at read time
    (no object, or one given as text: it shows as written)."""
    if obj is None or isinstance(obj, str):
        return None
    parts = obj if isinstance(obj, tuple) else (obj,)
    pieces = []
    for n, part in enumerate(parts):
        pieces += ([PARTS] if n else []) + _pieces(part)
    if all(isinstance(piece, str) for piece in pieces):
        return None  # names only: the stored text says it all
    return pieces


def _text(obj: Any) -> str:
    if obj is None:
        return ""
    return PARTS.join(str(part) for part in obj) if isinstance(obj, tuple) else str(obj)


def log_action(
    action: str, *, by, tournament=None, obj: Any = None, before: Any = None, after: Any = None, reason: str = ""
) -> AuditEntry:
    """Write one entry. `obj` is what changed: a model instance, a tuple of them (a round's table's seat), or
    a text; it is kept as the writer's text and, where it has words, language-neutral for the reader."""
    return AuditEntry.objects.create(
        tournament=tournament,
        user=by if getattr(by, "is_authenticated", False) else None,
        action=action,
        object_repr=_text(obj)[:200],
        object_ref=object_ref(obj),
        before=_jsonable(before),
        after=_jsonable(after),
        reason=reason,
    )
