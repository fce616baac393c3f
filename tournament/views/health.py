"""`/healthz`: does this app server reach its database and its caches? For the load balancer and monitoring
(docs/server.md): 200 with {"status": "ok", ...} or 503 with what failed, as JSON; no login, no session, no cookie.
What a check failed on is named (its exception's class), never its text: that may hold an address or a user."""

import uuid

from django.core.cache import caches
from django.db import DatabaseError, connections
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def _database(alias: str = "default") -> str:
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return f"error: {type(error).__name__}"
    return "ok"


def _cache(alias: str) -> str:
    """A value written and read back: Redis down (REDIS_URL), a full or unwritable cache folder fail here."""
    key, value = f"healthz-{uuid.uuid4().hex}", uuid.uuid4().hex
    cache = caches[alias]
    try:
        cache.set(key, value, 10)
        found = cache.get(key)
        cache.delete(key)
    except Exception as error:  # noqa: BLE001 (whatever the cache's client raises: the server is not healthy)
        return f"error: {type(error).__name__}"
    return "ok" if found == value else "error: the value written was not read back"


@never_cache
@require_GET
def healthz(request):
    checks = {"database": _database(), **{f"cache:{alias}": _cache(alias) for alias in caches.settings}}
    healthy = all(result == "ok" for result in checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", "checks": checks}, status=200 if healthy else 503)
