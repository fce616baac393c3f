"""Caching the public pages, so that hundreds of phones polling cost the database one small query each.

A cached value is keyed by (tournament, kind, version, language, …). The version is the id of the
tournament's newest audit entry: every service writes one in the same transaction as its change (a slip,
a correction, a draw, a substitute, publishing, the clock), so the next poll after a commit sees a new
version — no service has to remember to invalidate anything, nothing is seen before it is committed, and
it holds across several server processes even when each has its own in-memory cache. The version is read
in the same query that loads the tournament and its publication flags, which every poll needs anyway.

A change made without an audit entry (the bracket advancing after a series) calls `bump_public_version`;
entries also expire after PUBLIC_CACHE_SECONDS, which bounds anything missed. The version also carries the
entry's time: the cache may be files that outlive the server (settings.PUBLIC_CACHE_DIR), and a database
restored from a backup hands out the same ids again.

Rendering once: the cache is shared by the server's processes (files or Redis), and a region not rendered yet
for the newest version is rendered by one process only (a `cache.add` lock); while it works, and for
PUBLIC_RENDER_SECONDS after the newest rendering started, the others answer with that newest rendering. So at
most one rendering per interval whatever the pace of entry, and a viewer sees a committed state at most that
many seconds (plus one rendering's time) late — never one that was not committed.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import router
from django.db.models import CharField, OuterRef, Subquery, Value
from django.db.models.functions import Cast, Coalesce, Concat
from django.http import Http404
from django.utils.translation import get_language

from tournament.models import AuditEntry, Tournament


def public_cache():
    return caches[settings.PUBLIC_CACHE_ALIAS]


def _versioned_tournaments():
    newest = (AuditEntry.objects.filter(tournament=OuterRef("pk")).order_by("-id")
              .annotate(version=Concat(Cast("id", CharField()), Value("-"), Cast("when", CharField()),
                                       output_field=CharField()))
              .values("version")[:1])
    return Tournament.objects.annotate(public_version=Coalesce(Subquery(newest), Value("0"),
                                                               output_field=CharField()))


#: a slug no tournament has (slugs are [-a-zA-Z0-9_]): marks where the slug goes among the compiled query's parameters
_SLUG_MARK = "\x00slug\x00"
#: the SQL of `load_tournament` per database alias, compiled once per process: (sql, parameters, slug's position)
_COMPILED: dict[str, tuple[str, tuple, int]] = {}


def _compiled(alias: str) -> tuple[str, tuple, int]:
    """The lookup's SQL for this database, compiled once. Compiling the ORM expression (a subquery, a cast, a
    concatenation) cost three times as much CPU as running the query, on every poll of every phone."""
    if alias not in _COMPILED:
        sql, params = _versioned_tournaments().filter(slug=_SLUG_MARK).query.sql_with_params()
        _COMPILED[alias] = (sql, tuple(params), list(params).index(_SLUG_MARK))
    return _COMPILED[alias]


def load_tournament(slug: str) -> Tournament:
    """The tournament with `public_version` (its newest audit entry's id), in one query; 404 if unknown."""
    sql, params, position = _compiled(router.db_for_read(Tournament))
    found = next(iter(Tournament.objects.raw(sql, (*params[:position], slug, *params[position + 1:]))), None)
    if found is None:
        raise Http404("No tournament with this address.")
    return found


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


def _version_hash(tournament: Tournament) -> str:
    salt = public_cache().get(_salt_key(tournament.pk), 0)
    return hashlib.sha1(f"{tournament.public_version}.{salt}".encode()).hexdigest()[:16]


#: part of every key; changed with the shape of the cached values, so that a file cache left by an older version
#: of the app is not read (2: regions kept compressed, splice.py)
FORMAT = 2


def _what(tournament: Tournament, kind: str, extra: str) -> str:
    # Whatever the visitor typed is hashed: cache keys must stay short and free of spaces.
    extra_hash = hashlib.sha1(extra.encode()).hexdigest()[:16] if extra else "-"
    return f"{kind}:{get_language()}:{extra_hash}:f{FORMAT}"


def cache_key(tournament: Tournament, kind: str, extra: str = "") -> str:
    return f"public:{tournament.pk}:{_version_hash(tournament)}:{_what(tournament, kind, extra)}"


def newest_key(tournament: Tournament, kind: str, extra: str = "") -> str:
    """Where the newest rendering of a region is kept, whatever its version: (started, version, value)."""
    return f"public:{tournament.pk}:newest:{_what(tournament, kind, extra)}"


#: how long a rendering may hold the lock; a process that died while rendering blocks nobody longer
LOCK_SECONDS = 30
#: how often a process waiting for another's rendering looks whether it is there
WAIT_STEP = 0.05


def cached(tournament: Tournament, kind: str, compute: Callable[[], Any], extra: str = "",
           window: float = 0) -> Any:
    """The value for this tournament, kind and version; `compute()` runs only when the cache has none.

    `window` (the public regions pass PUBLIC_RENDER_SECONDS; 0, the default, for the director's pages, which
    must show the newest state, and for what is cheap): when this version is not in the cache, the newest
    rendering is answered if it started less than `window` seconds ago; otherwise one process renders (the
    lock) while the others wait for its result, or answer with a newer rendering that appears.
    """
    cache = public_cache()
    key = cache_key(tournament, kind, extra)
    value = cache.get(key)
    if value is not None:
        return value
    if window <= 0:
        value = compute()
        cache.set(key, value, settings.PUBLIC_CACHE_SECONDS)
        return value
    newest = newest_key(tournament, kind, extra)
    recent = _recent(cache.get(newest), window)
    if recent is not None:
        return recent
    lock = f"{key}:lock"
    deadline = time.monotonic() + LOCK_SECONDS
    while not cache.add(lock, 1, LOCK_SECONDS):
        # Another process renders this version: wait for it (a sync worker waiting costs no CPU).
        time.sleep(WAIT_STEP)
        value = cache.get(key)
        if value is None:
            value = _recent(cache.get(newest), window)
        if value is not None:
            return value
        if time.monotonic() > deadline:  # the lock outlived its owner: render here
            break
    try:
        value = cache.get(key)  # rendered while this process waited for the lock
        if value is None:
            started = time.time()
            value = compute()
            cache.set(key, value, settings.PUBLIC_CACHE_SECONDS)
            current = cache.get(newest)
            if current is None or current[0] <= started:  # a rendering that started later stays the newest
                cache.set(newest, (started, key, value), settings.PUBLIC_CACHE_SECONDS)
    finally:
        cache.delete(lock)
    return value


def _recent(newest: tuple | None, window: float) -> Any:
    """The newest rendering's value if it started less than `window` seconds ago, else None."""
    if newest is None:
        return None
    started, _key, value = newest
    return value if 0 <= time.time() - started < window else None


def etag(*parts: Any) -> str:
    """A short fingerprint of what a fragment shows; a poll that already has it gets "nothing new"."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]
