"""Backups of the whole database while the app runs, and restoring one (docs/operations.md).

SQLite: the online backup API copies a consistent snapshot page by page, so a backup taken while
a referee laptop is saving a sheet holds either all of that sheet or none of it. The copy is
checked with `PRAGMA integrity_check` before it gets its final name. PostgreSQL: `pg_dump` in
its custom format, restored with `pg_restore` (steps in docs/operations.md).

After each round the games call `schedule_backup_after_round` inside the transaction that completes the
round: it records the backup as owed (a `PendingBackup` row, committed with the round) and makes it once
the transaction has committed. An automatic backup that fails is logged and never stops the result entry
that triggered it. A backup still owed — the server was killed between the commit and the backup, or the
disk was full — is made by `backup_pending`, which every server process runs in the background soon after
it starts and then once a minute while it serves requests (`check_pending_backups`, on Django's
`request_started`), and which `manage.py backup --pending` runs by hand. A backup made right after its round is
named by the round (`…-auto-<tournament>-round<N>`); one made later holds everything entered until then, so it is
one file for all that was owed, named by the time it was made only (`<db>-<date>-<time>-auto-<tournament>`).

On a server (ROUND_SNAPSHOTS, on with DATABASE_URL) the backup owed after a round is a snapshot of that tournament in
the database instead, made outside the request: tournament/snapshots.py.
"""

from __future__ import annotations

import datetime
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from django.conf import settings
from django.db import connection, connections, models, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

SQLITE_SUFFIX = ".sqlite3"
PG_SUFFIX = ".dump"
#: part of the name of automatic backups: only these are pruned
AUTO_MARK = "-auto-"


class BackupError(Exception):
    """A backup or restore that could not be done; the message is translated and says what to do."""


# --- where backups go --------------------------------------------------------------------------


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


def _timestamp() -> str:
    return datetime.datetime.now().strftime("%Y%m%d-%H%M%S")


def new_backup_path(stem: str, suffix: str, *, label: str = "", directory: Path | None = None) -> Path:
    """`<stem>-<timestamp>[-<label>]<suffix>` in the backup folder, never an existing file's name."""
    directory = directory or backup_dir()
    name = f"{stem}-{_timestamp()}" + (f"-{label}" if label else "")
    path, n = directory / f"{name}{suffix}", 2
    while path.exists():  # two backups within one second (a fast round) must not overwrite each other
        path, n = directory / f"{name}-{n}{suffix}", n + 1
    return path


def prune_automatic_backups(directory: Path | None = None, keep: int | None = None) -> list[Path]:
    """Delete all but the newest `keep` automatic backups; manual and safety backups stay."""
    directory = directory or backup_dir()
    keep = settings.BACKUP_KEEP if keep is None else keep
    automatic = sorted(
        (p for p in directory.glob(f"*{AUTO_MARK}*") if p.suffix in (SQLITE_SUFFIX, PG_SUFFIX)),
        key=lambda p: (p.stat().st_mtime, p.name),
    )
    doomed = automatic[: max(len(automatic) - keep, 0)]
    for path in doomed:
        path.unlink(missing_ok=True)
    return doomed


# --- SQLite --------------------------------------------------------------------------------------


def sqlite_database_path(settings_dict: Mapping | None = None) -> Path | None:
    """The live database file, or None for an in-memory database (as in the test suite)."""
    name = str((settings_dict or connection.settings_dict)["NAME"])
    if name == ":memory:" or "mode=memory" in name:
        return None
    return Path(name)


def read_only_uri(path: Path) -> str:
    """An SQLite URI that opens `path` read-only. From the path's own file URI, so that a folder's "#", "%" or
    "?" (a club's name, a user's folder) is not read as part of the URI, and a Windows path (C:\\…) works."""
    return f"{Path(path).resolve().as_uri()}?mode=ro"


def integrity_problems(path: Path) -> list[str]:
    """What `PRAGMA integrity_check` reports (empty when the file is a sound SQLite database)."""
    if not path.is_file():
        return [_("The file %(path)s does not exist.") % {"path": path}]
    try:
        db = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            rows = [row[0] for row in db.execute("PRAGMA integrity_check")]
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        return [_("%(path)s is not a valid SQLite database (%(error)s).") % {"path": path, "error": error}]
    return [] if rows == ["ok"] else rows


def backup_sqlite(source: Path, target: Path) -> Path:
    """Copy the live database `source` to `target` with the online backup API, then verify the copy."""
    if not source.is_file():  # sqlite3.connect would quietly create an empty database
        raise BackupError(_("The database %(path)s does not exist.") % {"path": source})
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=20)
    try:
        dest = sqlite3.connect(partial)
        try:
            # pages=-1: one step, so the copy is one consistent snapshot even while others write
            src.backup(dest, pages=-1)
            # a backup is one self-contained file: no -wal/-shm beside it
            dest.execute("PRAGMA journal_mode=DELETE")
        finally:
            dest.close()
    finally:
        src.close()
    problems = integrity_problems(partial)
    if problems:
        partial.unlink(missing_ok=True)
        raise BackupError(_("The backup copy failed its integrity check: %(problems)s") % {"problems": problems})
    partial.replace(target)  # the final name appears only for a verified copy
    return target


def validate_sqlite_backup(path: Path) -> None:
    """Refuse a file that is not a sound SQLite database of this app."""
    problems = integrity_problems(path)
    if problems:
        raise BackupError(" ".join(problems))
    db = sqlite3.connect(read_only_uri(path), uri=True)
    try:
        has_migrations = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='django_migrations'"
        ).fetchone()
    finally:
        db.close()
    if not has_migrations:
        raise BackupError(_("%(path)s is an SQLite database, but not one of this app.") % {"path": path})


def restore_sqlite(backup: Path, database: Path, *, safety_dir: Path | None = None) -> Path | None:
    """Put `backup` in place of `database`, after a safety backup of the current database.

    The copy goes through the backup API into the live file rather than a file copy: that keeps
    the WAL and shared-memory files consistent with the database if the app is still running.
    Returns the safety backup (None when there was no database yet).
    """
    validate_sqlite_backup(backup)
    safety = _safety_copy(database, safety_dir) if database.exists() else None
    database.parent.mkdir(parents=True, exist_ok=True)
    try:
        _copy_into(backup, database)
    except sqlite3.DatabaseError:
        # the live file is too damaged to be written through SQLite: replace it as a file
        for path in _database_files(database):
            path.unlink()
        shutil.copyfile(backup, database)
    problems = integrity_problems(database)
    if problems:
        raise BackupError(
            _("The restored database failed its integrity check (%(problems)s); the previous one is in %(safety)s.")
            % {"problems": problems, "safety": safety}
        )
    return safety


def _copy_into(backup: Path, database: Path) -> None:
    src = sqlite3.connect(read_only_uri(backup), uri=True)
    try:
        dest = sqlite3.connect(database, timeout=20)
        try:
            src.backup(dest, pages=-1)
        finally:
            dest.close()
    finally:
        src.close()


def _database_files(database: Path) -> list[Path]:
    candidates = [database, database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")]
    return [path for path in candidates if path.exists()]


def _safety_copy(database: Path, safety_dir: Path | None) -> Path:
    try:
        return backup_sqlite(
            database, new_backup_path(database.stem, SQLITE_SUFFIX, label="before-restore", directory=safety_dir)
        )
    except (BackupError, sqlite3.DatabaseError):
        # A damaged database (the reason for many a restore) is kept as it is, WAL file and all.
        target = new_backup_path(database.stem, ".damaged", label="before-restore", directory=safety_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        for path in _database_files(database):
            shutil.copyfile(path, target.with_name(target.name + path.name[len(database.name):]))
        return target


# --- PostgreSQL ----------------------------------------------------------------------------------


def find_pg_tool(name: str) -> str | None:
    """`pg_dump`/`pg_restore` on the PATH, else the newest in Debian's versioned folders."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]))
    return str(candidates[-1]) if candidates else None


def pg_dump_command(settings_dict: Mapping, output: Path, pg_dump: str = "pg_dump") -> tuple[list[str], dict]:
    """The pg_dump call for a database's settings; the password goes in the environment, never argv."""
    return pg_command(settings_dict, [pg_dump, "--format=custom", "--no-owner", f"--file={output}"])


def pg_command(settings_dict: Mapping, argv: list[str]) -> tuple[list[str], dict]:
    """`argv` (a PostgreSQL client tool and its options) with the connection of a database's settings."""
    argv = list(argv)
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings_dict.get(key):
            argv.append(f"{option}={settings_dict[key]}")
    argv.append(f"--dbname={settings_dict['NAME']}")
    env = {**os.environ}
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings_dict["PASSWORD"])
    return argv, env


def backup_postgresql(settings_dict: Mapping, target: Path) -> Path:
    pg_dump = find_pg_tool("pg_dump")
    if pg_dump is None:
        raise BackupError(
            _("pg_dump was not found. Install the PostgreSQL client tools (Debian: apt-get install postgresql-client).")
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    argv, env = pg_dump_command(settings_dict, partial, pg_dump)
    result = subprocess.run(argv, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        raise BackupError(_("pg_dump failed: %(error)s") % {"error": result.stderr.strip()})
    _verify_pg_dump(partial)
    partial.replace(target)
    return target


def _verify_pg_dump(path: Path) -> None:
    # pg_restore --list reads the whole table of contents: a truncated dump fails here.
    pg_restore = find_pg_tool("pg_restore")
    if pg_restore is None:
        return
    result = subprocess.run([pg_restore, "--list", str(path)], capture_output=True, text=True)
    if result.returncode != 0:
        path.unlink(missing_ok=True)
        raise BackupError(_("The dump cannot be read back: %(error)s") % {"error": result.stderr.strip()})


def restore_postgresql(backup: Path, settings_dict: Mapping, *, safety_dir: Path | None = None) -> Path:
    """Put the dump `backup` in place of the database's content, after a safety dump of the current one.

    `pg_restore --clean --single-transaction`: the old tables are dropped and the dump's created in one
    transaction, so a restore that fails half-way changes nothing. Returns the safety dump.
    """
    pg_restore = find_pg_tool("pg_restore")
    if pg_restore is None:
        raise BackupError(_("pg_restore was not found. Install the PostgreSQL client tools (Debian: apt-get install "
                            "postgresql-client)."))
    listed = subprocess.run([pg_restore, "--list", str(backup)], capture_output=True, text=True)
    if listed.returncode != 0:
        raise BackupError(_("%(path)s is not a PostgreSQL dump made by the backup (%(error)s).")
                          % {"path": backup, "error": listed.stderr.strip()})
    safety = backup_postgresql(settings_dict, new_backup_path(str(settings_dict["NAME"]), PG_SUFFIX,
                                                              label="before-restore", directory=safety_dir))
    argv, env = pg_command(settings_dict, [pg_restore, "--clean", "--if-exists", "--no-owner",
                                           "--single-transaction", "--exit-on-error"])
    result = subprocess.run([*argv, str(backup)], env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(_("pg_restore failed, nothing was changed: %(error)s") % {"error": result.stderr.strip()})
    return safety


# --- the entry points ----------------------------------------------------------------------------


def create_backup(output: Path | None = None, *, label: str = "") -> Path:
    """Back up the database Django is connected to; returns the verified file."""
    settings_dict = connection.settings_dict
    if connection.vendor == "sqlite":
        source = sqlite_database_path(settings_dict)
        if source is None:
            raise BackupError(_("An in-memory database cannot be backed up."))
        return backup_sqlite(source, Path(output) if output else new_backup_path(source.stem, SQLITE_SUFFIX,
                                                                                 label=label))
    if connection.vendor == "postgresql":
        target = Path(output) if output else new_backup_path(str(settings_dict["NAME"]), PG_SUFFIX, label=label)
        return backup_postgresql(settings_dict, target)
    raise BackupError(_("Backups of %(vendor)s databases are not supported.") % {"vendor": connection.vendor})


def automatic_backups_on() -> bool:
    """Automatic backups are switched on and the database is one that can be backed up (a server's snapshots are
    rows in any database)."""
    if not settings.BACKUP_AFTER_ROUND:
        return False
    if settings.ROUND_SNAPSHOTS:
        return True
    return not (connection.vendor == "sqlite" and sqlite_database_path() is None)  # the in-memory test database


def backup_after_round(tournament, round_number: int) -> Path | None:
    """The automatic backup once a round is complete; returns its file, or None if none was made.

    Never raises: a full disk must not stop the referee table from entering the next result.
    """
    if not automatic_backups_on():
        return None
    return _round_backup(tournament.slug, round_number)


def _round_backup(slug: str, round_number: int) -> Path | None:
    return _automatic_backup(f"{slugify(slug)[:40]}-round{round_number}", f"round {round_number} of {slug}")


def _automatic_backup(name: str, what: str) -> Path | None:
    """An automatic backup labelled `auto-<name>` (retention: `prune_automatic_backups`); None when it failed."""
    try:
        path = create_backup(label=f"{AUTO_MARK.strip('-')}-{name}")
        prune_automatic_backups()
    except (BackupError, OSError, sqlite3.Error) as error:
        logger.error("Automatic backup after %s failed: %s", what, error)
        return None
    logger.info("Backup after %s: %s", what, path)
    return path


def schedule_backup_after_round(tournament, round_number: int) -> None:
    """Call inside the service's transaction that completes the round.

    The backup is recorded as owed in that transaction, so it is owed exactly when the round is committed;
    it is made after the commit (so it holds the round) and then no longer owed. If the process dies in
    between, `backup_pending` makes it later. A laptop makes its backup file right after the commit; a server
    (ROUND_SNAPSHOTS) its snapshot in a background thread, so that no request waits for it (tournament/snapshots.py).
    """
    from tournament.models import PendingBackup

    if not automatic_backups_on():
        return
    owed = PendingBackup.objects.create(tournament_id=tournament.pk, tournament_slug=tournament.slug,
                                        round_number=round_number)
    if settings.ROUND_SNAPSHOTS:
        transaction.on_commit(lambda: check_pending_backups(now=True))
    else:
        transaction.on_commit(lambda: _settle(owed.pk))


#: a claim older than this is taken to be of a process that died while making the backup
CLAIM_SECONDS = 600
#: environment variable for the fault-injection test: "after-round-commit" kills the process (SIGKILL) after a
#: round is committed and before its backup is made, as a power cut or `kill -9` would
CRASH_VARIABLE = "TOURNAMENT_CRASH_AT"


def crash_point(name: str) -> None:
    if os.environ.get(CRASH_VARIABLE) == name:
        # Windows has no SIGKILL: there os.kill ends the process at once (TerminateProcess) with this exit code
        os.kill(os.getpid(), getattr(signal, "SIGKILL", 9))


def _claim(pk: int, now) -> bool:
    """Claim the owed backup `pk` for this process, unless another one has (a claim older than CLAIM_SECONDS is
    of a process that died while making it)."""
    from tournament.models import PendingBackup

    return bool(PendingBackup.objects.filter(pk=pk).filter(
        models.Q(claimed_at__isnull=True) | models.Q(claimed_at__lt=now - datetime.timedelta(seconds=CLAIM_SECONDS))
    ).update(claimed_at=now))


def _settle(pk: int) -> Path | None:
    """Right after the round's commit: make its backup, named by the round (it holds the database as the round
    left it), unless another process has claimed it; no longer owed once it is made."""
    from tournament.models import PendingBackup

    crash_point("after-round-commit")
    if not _claim(pk, timezone.now()):
        return None  # made (or being made) by another process
    owed = PendingBackup.objects.get(pk=pk)
    path = _round_backup(owed.tournament_slug, owed.round_number)
    if path is None:
        PendingBackup.objects.filter(pk=pk).update(claimed_at=None)  # tried again at the next check
    else:
        owed.delete()
    return path


def late_backup_name(slugs) -> str:
    """The label of a backup made later than its rounds: by the time it was made (in the file name's timestamp)
    and the tournament, not by a round: it holds everything entered until then, also later rounds."""
    slugs = sorted(set(slugs))
    return slugify(slugs[0])[:40] if len(slugs) == 1 else "owed"


def backup_pending() -> list:
    """Make the automatic backups still owed: one backup for all of them, as they would all hold the same (the
    database as it is now). Returns the file made (an empty list when none was owed or the backup failed); on a
    server (ROUND_SNAPSHOTS) the snapshots made, one per tournament owed one."""
    from tournament.models import PendingBackup

    if not automatic_backups_on():
        return []
    now = timezone.now()
    claimed = [pk for pk in PendingBackup.objects.order_by("pk").values_list("pk", flat=True) if _claim(pk, now)]
    if not claimed:
        return []
    if settings.ROUND_SNAPSHOTS:
        from tournament.snapshots import snapshot_owed

        return snapshot_owed(claimed)
    owed = PendingBackup.objects.filter(pk__in=claimed)
    rounds = ", ".join(f"round {o.round_number} of {o.tournament_slug}" for o in owed)
    path = _automatic_backup(late_backup_name(o.tournament_slug for o in owed), f"{rounds} (made later)")
    if path is None:
        owed.update(claimed_at=None)  # tried again at the next check
        return []
    owed.delete()
    return [path]


#: how often a serving process looks for backups still owed
CHECK_SECONDS = 60
_checking = threading.Lock()
_next_check = 0.0


def check_pending_backups(now: bool = False, **_signal_arguments) -> threading.Thread | None:
    """On a request (Django's `request_started`): at the first request of a process and then at most once per
    CHECK_SECONDS, make the backups still owed in a background thread, so that no request waits for them; `now`:
    at once (a round just committed on a server). Returns the thread started, if any."""
    global _next_check
    if (time.monotonic() < _next_check and not now) or not automatic_backups_on():
        return None
    if not _checking.acquire(blocking=False):
        return None  # a check is running
    _next_check = time.monotonic() + CHECK_SECONDS
    thread = threading.Thread(target=_check_in_background, name="pending-backups", daemon=True)
    thread.start()
    return thread


def _check_in_background() -> None:
    try:
        backup_pending()
    except Exception:  # noqa: BLE001 (a backup check must never take the server down; tried again later)
        logger.exception("Checking for automatic backups still owed failed")
    finally:
        connections.close_all()  # this thread's connections only
        _checking.release()
