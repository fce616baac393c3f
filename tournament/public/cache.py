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

Rendering once, and nobody waiting for it: the cache is shared by the server's processes (files or Redis). A
region not rendered yet for the newest version is rendered by one process only (a `cache.add` lock), in a
background thread of that process, while every request (that one's too) answers at once with the newest
rendering there is; such an answer tells the page to ask again after PUBLIC_RETRY_SECONDS instead of
PUBLIC_POLL_SECONDS, so the phone shows the new state one short retry later. For PUBLIC_RENDER_SECONDS after
the newest rendering started no other is started: at most one rendering per interval whatever the pace of entry.
A viewer sees a committed state at most that many seconds (plus one rendering's time) late — never one that
was not committed. Only a region that has no rendering at all yet is rendered in the request (the others wait
for that one).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import connections, router
from django.db.models import CharField, OuterRef, Subquery, Value
from django.db.models.functions import Cast, Coalesce, Concat
from django.http import Http404
from django.utils import timezone, translation
from django.utils.translation import get_language

from tournament.models import AuditEntry, Tournament

logger = logging.getLogger(__name__)


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
#: a club no tournament has: marks where the club goes among the parameters
_CLUB_MARK = -7_226_013
#: the SQL of `load_tournament` per database alias and with or without the club, compiled once per process:
#: (sql, parameters, slug's position, club's position or None)
_COMPILED: dict[tuple[str, bool], tuple[str, tuple, int, int | None]] = {}


def _compiled(alias: str, of_club: bool) -> tuple[str, tuple, int, int | None]:
    """The lookup's SQL for this database, compiled once. Compiling the ORM expression (a subquery, a cast, a
    concatenation) cost three times as much CPU as running the query, on every poll of every phone."""
    if (alias, of_club) not in _COMPILED:
        query = _versioned_tournaments().filter(slug=_SLUG_MARK)
        if of_club:
            query = query.filter(organisation_id=_CLUB_MARK)
        sql, params = query.query.sql_with_params()
        params = list(params)
        _COMPILED[alias, of_club] = (sql, tuple(params), params.index(_SLUG_MARK),
                                     params.index(_CLUB_MARK) if of_club else None)
    return _COMPILED[alias, of_club]


def load_tournament(slug: str, club=None) -> Tournament:
    """The tournament with `public_version` (its newest audit entry's id), in one query; 404 if unknown. With
    `club` (an address of a club: `request.club`, tournament/clubaddress.py) among that club's only."""
    sql, params, position, club_position = _compiled(router.db_for_read(Tournament), club is not None)
    params = list(params)
    params[position] = slug
    if club_position is not None:
        params[club_position] = getattr(club, "pk", club)
    found = next(iter(Tournament.objects.raw(sql, params)), None)
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
#: of the app is not read (2: regions kept compressed, splice.py; 3: "my evening"'s standing table counts the
#: players still waiting for a result, read by its page: an older table without it would fail the page)
FORMAT = 3


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
#: the newest rendering of a region is kept this many times PUBLIC_CACHE_SECONDS: answered while a newer
#: one (or the same version, renewed after PUBLIC_CACHE_SECONDS) is rendered in the background
NEWEST_FACTOR = 10
#: the lock's values: a rendering is under way; the last one failed (no other starts before the lock expires)
RENDERING, FAILED = 1, 2
#: how often a process waiting for another's rendering looks whether it is there
WAIT_STEP = 0.05


def start_background(work: Callable[[], None]) -> None:
    """Run `work` beside the request, in a thread of this server process (a sync worker's next request and a
    gthread worker's other threads go on meanwhile; the GIL is shared, the waiting is gone). Replaced by the
    tests to run it when they say. The thread's own database connection is closed at its end."""
    def run() -> None:
        try:
            work()
        finally:
            connections.close_all()  # this thread's connections only

    threading.Thread(target=run, name="public-render", daemon=True).start()


def cached(tournament: Tournament, kind: str, compute: Callable[[], Any], extra: str = "",
           window: float = 0) -> Any:
    """The value for this tournament, kind and version; `compute()` runs only when the cache has none."""
    return cached_region(tournament, kind, compute, extra, window)[0]


def cached_region(tournament: Tournament, kind: str, compute: Callable[[], Any], extra: str = "",
                  window: float = 0) -> tuple[Any, bool]:
    """(value, coming): `coming` is True when the value is an earlier version's rendering and the newest
    version is being rendered right now (the page then asks again soon: PUBLIC_RETRY_SECONDS).

    `window` 0 (the default: the director's pages, which must show the newest state, what is cheap, and the
    tests): a version not in the cache is rendered here and now. `window` > 0 (the public regions pass
    PUBLIC_RENDER_SECONDS): a version not in the cache is answered at once with the newest rendering of the
    region, never waiting for a rendering —
    - if that rendering started less than `window` seconds ago, as it is (at most one rendering per window);
    - else one process takes the lock and renders the version in the background (`start_background`), while
      it and every other process answer with the newest rendering until it is stored. This is also how a
      version is renewed after PUBLIC_CACHE_SECONDS (the newest rendering is kept ten times as long).
    Only a region never rendered (or unasked for ten times PUBLIC_CACHE_SECONDS) is rendered in the request, by
    one process, while the others wait for it.
    """
    cache = public_cache()
    key = cache_key(tournament, kind, extra)
    value = cache.get(key)
    if value is not None:
        return value, False
    if window <= 0:
        value = compute()
        cache.set(key, value, settings.PUBLIC_CACHE_SECONDS)
        return value, False
    newest = newest_key(tournament, kind, extra)
    lock = f"{key}:lock"
    previous = cache.get(newest)
    if previous is not None:
        if _recent(previous, window) is not None:
            return previous[2], False
        if cache.add(lock, RENDERING, LOCK_SECONDS):
            start_background(_in_context(functools.partial(_render, key, newest, compute, background=True)))
            coming = True
        else:
            coming = cache.get(lock) == RENDERING  # not after a failure (FAILED): nothing is coming soon
        return previous[2], coming and previous[1] != key
    deadline = time.monotonic() + LOCK_SECONDS
    while not cache.add(lock, RENDERING, LOCK_SECONDS):
        # Another process renders this region for the first time: wait for it (a sync worker waiting costs no CPU).
        time.sleep(WAIT_STEP)
        value = cache.get(key)
        if value is not None:
            return value, False
        previous = cache.get(newest)
        if previous is not None:
            return previous[2], previous[1] != key
        if time.monotonic() > deadline:  # the lock outlived its owner: render here
            break
    return _render(key, newest, compute), False


def _render(key: str, newest: str, compute: Callable[[], Any], background: bool = False) -> Any:
    """Render a version (this process holds its lock), store it and make it the newest unless a rendering
    that started later is stored already; release the lock. A rendering that failed in the background keeps
    the lock, marked FAILED, for LOCK_SECONDS: a bug then costs one traceback per LOCK_SECONDS, not one per poll
    (a failure in the request is that request's 500, and the next one tries again). The cache is this thread's
    own handle (Django's cache handles are per thread)."""
    cache = public_cache()
    try:
        value = cache.get(key)  # rendered while this process waited for the lock
        if value is None:
            started = time.time()
            value = compute()
            cache.set(key, value, settings.PUBLIC_CACHE_SECONDS)
            current = cache.get(newest)
            if current is None or current[0] <= started:  # a rendering that started later stays the newest
                cache.set(newest, (started, key, value), NEWEST_FACTOR * settings.PUBLIC_CACHE_SECONDS)
    except BaseException:
        if background:
            cache.set(f"{key}:lock", FAILED, LOCK_SECONDS)
        else:
            cache.delete(f"{key}:lock")
        raise
    cache.delete(f"{key}:lock")
    return value


def _in_context(work: Callable[[], Any]) -> Callable[[], None]:
    """`work` as the background thread runs it: in the request's language and time zone (both are per thread);
    a failure is logged."""
    language, zone = get_language(), timezone.get_current_timezone()

    def run() -> None:
        try:
            with translation.override(language), timezone.override(zone):
                work()
        except Exception:  # noqa: BLE001 (a background thread has nobody to raise to)
            logger.exception("Rendering a public region in the background failed")
    return run


def _recent(newest: tuple | None, window: float) -> Any:
    """The newest rendering's value if it started less than `window` seconds ago, else None."""
    if newest is None:
        return None
    started, _key, value = newest
    return value if 0 <= time.time() - started < window else None


def etag(*parts: Any) -> str:
    """A short fingerprint of what a fragment shows; a poll that already has it gets "nothing new"."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]
