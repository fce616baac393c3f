"""Caching the public pages, so that hundreds of phones polling cost the database one small query each.

A cached value is keyed by (tournament, kind, version, language, …). The version is the id of the
tournament's newest audit entry: every service writes one in the same transaction as its change (a slip,
a correction, a draw, a substitute, publishing, the clock), so the next poll after a commit sees a new
version — no service has to remember to invalidate anything, nothing is seen before it is committed, and
it holds across several server processes even when each has its own in-memory cache. The version is read
in the same query that loads the tournament and its publication flags, which every poll needs anyway.

A change made without an audit entry (the bracket advancing after a series) calls `bump_public_version`;
entries also expire after PUBLIC_CACHE_SECONDS, which bounds anything missed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db.models import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language

from tournament.models import AuditEntry, Tournament


def public_cache():
    return caches[settings.PUBLIC_CACHE_ALIAS]


def load_tournament(slug: str) -> Tournament:
    """The tournament with `public_version` (its newest audit entry's id), in one query; 404 if unknown."""
    newest = AuditEntry.objects.filter(tournament=OuterRef("pk")).order_by("-id").values("id")[:1]
    tournaments = Tournament.objects.annotate(public_version=Coalesce(Subquery(newest), Value(0)))
    return get_object_or_404(tournaments, slug=slug)


def _salt_key(tournament_id: int) -> str:
    return f"public:{tournament_id}:salt"


def bump_public_version(tournament_id: int) -> None:
    """Renew every public page of a tournament at the next poll (for changes that write no audit entry)."""
    cache = public_cache()
    key = _salt_key(tournament_id)
    if not cache.add(key, 1, timeout=None):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=None)


def cache_key(tournament: Tournament, kind: str, extra: str = "") -> str:
    salt = public_cache().get(_salt_key(tournament.pk), 0)
    # Whatever the visitor typed is hashed: cache keys must stay short and free of spaces.
    extra_hash = hashlib.sha1(extra.encode()).hexdigest()[:16] if extra else "-"
    return f"public:{tournament.pk}:{tournament.public_version}.{salt}:{kind}:{get_language()}:{extra_hash}"


def cached(tournament: Tournament, kind: str, compute: Callable[[], Any], extra: str = "") -> Any:
    """The value for this tournament, kind and version; `compute()` runs only when the cache has none."""
    cache = public_cache()
    key = cache_key(tournament, kind, extra)
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, settings.PUBLIC_CACHE_SECONDS)
    return value


def etag(*parts: Any) -> str:
    """A short fingerprint of what a fragment shows; a poll that already has it gets "nothing new"."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]
