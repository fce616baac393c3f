"""Writing the audit log. Every service that changes state calls `log_action`."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from ..models import AuditEntry


def _jsonable(value: Any) -> Any:
    # Dates and Decimals must survive a JSON field on SQLite and PostgreSQL alike.
    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def log_action(
    action: str, *, by, tournament=None, obj: Any = None, before: Any = None, after: Any = None, reason: str = ""
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        user=by if getattr(by, "is_authenticated", False) else None,
        action=action,
        object_repr=str(obj)[:200] if obj is not None else "",
        before=_jsonable(before),
        after=_jsonable(after),
        reason=reason,
    )
