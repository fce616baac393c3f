"""Which processes serve the database: a lock that every serving process holds, so that a restore knows (and does
not guess) that a server runs on the database it would replace.

Every serving process takes its lock when config/wsgi.py builds the application (waitress, gunicorn and Django's
runserver all load it), whatever server runs it, and holds it until it ends; the operating system (SQLite) or the
database server (PostgreSQL) drops it when the process dies, also under `kill -9`, so a crashed server never
leaves a lock behind that would block a restore.

- SQLite: beside the database `db.sqlite3` a folder `db.sqlite3.serving/` holds one file per serving process, each
  locked exclusively by its process with an OS file lock (POSIX `flock`, Windows `msvcrt.locking`). A restore
  tries each file's lock: one it cannot take is a running server; one it can take is left by a process that
  ended, and is removed. The folder's `restore.lock` is the gate: a restore holds it while it works, and a server
  takes it for the moment it adds its own file, so no server starts unseen in the middle of a restore.
- PostgreSQL: each serving process holds `pg_advisory_lock_shared(LOCK_KEY)` on a connection of its own (Django's
  connections come and go with requests); a restore takes the same key exclusively with
  `pg_try_advisory_lock`, which it gets only while no server holds it. A server starting during a restore
  waits for it to finish.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from django.db import connection
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

#: the advisory lock key of "serving this database" (PostgreSQL advisory locks are per database)
LOCK_KEY = 7_305_194_211
GATE = "restore.lock"

#: what this process holds for as long as it serves (open files, the PostgreSQL connection)
_held: list = []


class ServerRunning(Exception):
    """A restore refused because a server is running on the database; the message is translated."""


# --- portable OS file locks -----------------------------------------------------------------------


def _try_lock(handle) -> bool:
    """Take the exclusive lock of an open file without waiting; False when another process holds it."""
    try:
        if os.name == "nt":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _lock_waiting(handle, *, seconds: float = 600.0) -> bool:
    """Take the exclusive lock, waiting up to `seconds` for its holder (a restore) to let it go."""
    deadline = time.monotonic() + seconds
    while not _try_lock(handle):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def _unlock(handle) -> None:
    if os.name == "nt":
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


# --- SQLite --------------------------------------------------------------------------------------


def serving_folder(database: Path) -> Path:
    return database.with_name(database.name + ".serving")


def _open(path: Path):
    return open(path, "a+b")  # noqa: SIM115 (held open for the process's life, or closed by the caller)


def _hold_sqlite(database: Path) -> None:
    folder = serving_folder(database)
    folder.mkdir(parents=True, exist_ok=True)
    with _open(folder / GATE) as gate:
        _lock_waiting(gate)  # a restore running: serve once it is done (given up after 10 minutes: serve anyway)
        try:
            mine = _open(folder / f"{os.getpid()}-{secrets.token_hex(4)}.lock")
            if not _try_lock(mine):  # a new file of its own: nobody else can hold it
                mine.close()
                return
            _held.append(mine)
        finally:
            _unlock(gate)


def running_servers(database: Path) -> int:
    """How many processes serve the SQLite database now (files of ended ones are removed on the way)."""
    folder = serving_folder(database)
    running = 0
    for path in sorted(folder.glob("*.lock")) if folder.is_dir() else []:
        if path.name == GATE:
            continue
        with _open(path) as handle:
            if not _try_lock(handle):
                running += 1
                continue
            _unlock(handle)
        with contextlib.suppress(OSError):
            path.unlink()  # its process ended
    return running


@contextlib.contextmanager
def _sqlite_gate(database: Path, *, force: bool, inside_server: bool) -> Iterator[None]:
    folder = serving_folder(database)
    folder.mkdir(parents=True, exist_ok=True)
    with _open(folder / GATE) as gate:
        if not _try_lock(gate):
            raise ServerRunning(_("Another restore of this database is running. Wait until it has finished."))
        try:
            running = 0 if inside_server else running_servers(database)
            if running > 0 and not force:
                raise ServerRunning(refusal(running))
            yield
        finally:
            _unlock(gate)


# --- PostgreSQL ----------------------------------------------------------------------------------


def _pg_connect(settings_dict: Mapping):
    import psycopg

    params = {key: settings_dict[name] for key, name in (("host", "HOST"), ("port", "PORT"), ("user", "USER"),
                                                         ("password", "PASSWORD")) if settings_dict.get(name)}
    return psycopg.connect(dbname=settings_dict["NAME"], autocommit=True, **params)


def _hold_postgresql(settings_dict: Mapping) -> None:
    held = _pg_connect(settings_dict)
    held.execute("SELECT pg_advisory_lock_shared(%s)", (LOCK_KEY,))  # waits while a restore holds it
    _held.append(held)


@contextlib.contextmanager
def _postgresql_gate(settings_dict: Mapping, *, force: bool) -> Iterator[None]:
    with contextlib.closing(_pg_connect(settings_dict)) as gate:
        (free,) = gate.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()
        if not free and not force:
            raise ServerRunning(refusal(None))
        try:
            yield
        finally:
            if free:
                gate.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))


# --- the entry points ----------------------------------------------------------------------------


def refusal(count: int | None) -> str:
    what = (_("a server is running on this database") if count is None else
            _("%(count)s server processes are running on this database") % {"count": count})
    return _("Not restored: %(what)s. Stop the server first (Ctrl+C where it runs, or systemctl stop) and restore "
             "again; or, if you are sure that no server is running, restore with --force.") % {"what": what}


def hold_serving_lock(settings_dict: Mapping | None = None) -> None:
    """Mark this process as serving the database until it ends (config/wsgi.py calls it once per process)."""
    from tournament.backup import sqlite_database_path

    if _held:
        return
    settings_dict = settings_dict or connection.settings_dict
    engine = settings_dict["ENGINE"]
    try:
        if engine.endswith("sqlite3"):
            database = sqlite_database_path(settings_dict)
            if database is not None:
                _hold_sqlite(Path(database))
        elif engine.endswith("postgresql"):
            _hold_postgresql(settings_dict)
    except Exception:  # noqa: BLE001 (an evening's server must start all the same: said in the log)
        logger.exception("This server process could not take its serving lock: a restore cannot see it running")


def release_serving_lock() -> None:
    """Let go of this process's lock (the tests; a server lets go when it ends)."""
    while _held:
        held = _held.pop()
        with contextlib.suppress(Exception):
            held.close()


@contextlib.contextmanager
def no_server_running(settings_dict: Mapping | None = None, *, force: bool = False,
                      inside_server: bool = False) -> Iterator[None]:
    """Hold the database for a restore: refuse with `ServerRunning` while a server runs on it (`force`: go on
    anyway), and keep servers from starting and other restores from running until the block ends.

    `inside_server`: the restore runs in a serving process (the director's restore page, SQLite only). The servers
    are not counted then: that restore copies the backup into the live database through SQLite's backup API,
    which every other connection sees as one change (the old database or the new one, never a mix), so the
    serving processes go on; it only waits for, and keeps out, another restore."""
    from tournament.backup import sqlite_database_path

    settings_dict = settings_dict or connection.settings_dict
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        database = sqlite_database_path(settings_dict)
        if database is None:
            yield
            return
        with _sqlite_gate(Path(database), force=force, inside_server=inside_server):
            yield
    elif engine.endswith("postgresql"):
        with _postgresql_gate(settings_dict, force=force):
            yield
    else:
        yield
