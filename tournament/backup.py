"""Backups of the whole database while the app runs, and restoring one (docs/operations.md).

SQLite: the online backup API copies a consistent snapshot page by page, so a backup taken while
a referee laptop is saving a sheet holds either all of that sheet or none of it. The copy is
checked with `PRAGMA integrity_check` before it gets its final name. PostgreSQL: `pg_dump` in
its custom format, restored with `pg_restore` (steps in docs/operations.md).

After each round the games call `schedule_backup_after_round`; an automatic backup that fails
is logged and never stops the result entry that triggered it.
"""

from __future__ import annotations

import datetime
import logging
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
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


def integrity_problems(path: Path) -> list[str]:
    """What `PRAGMA integrity_check` reports (empty when the file is a sound SQLite database)."""
    if not path.is_file():
        return [_("The file %(path)s does not exist.") % {"path": path}]
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
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
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
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
    src = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
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
    argv = [pg_dump, "--format=custom", "--no-owner", f"--file={output}"]
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


def backup_after_round(tournament, round_number: int) -> Path | None:
    """The automatic backup once a round is complete; returns its file, or None if none was made.

    Never raises: a full disk must not stop the referee table from entering the next result.
    """
    if not settings.BACKUP_AFTER_ROUND:
        return None
    if connection.vendor == "sqlite" and sqlite_database_path() is None:
        return None  # the in-memory test database: nothing to keep
    label = f"{AUTO_MARK.strip('-')}-{slugify(tournament.slug)[:40]}-round{round_number}"
    try:
        path = create_backup(label=label)
        prune_automatic_backups()
    except (BackupError, OSError, sqlite3.Error) as error:
        logger.error("Automatic backup after round %s of %s failed: %s", round_number, tournament.slug, error)
        return None
    logger.info("Backup after round %s of %s: %s", round_number, tournament.slug, path)
    return path


def schedule_backup_after_round(tournament, round_number: int) -> None:
    """Call inside the service's transaction: the backup runs after the commit, so it holds the round."""
    transaction.on_commit(lambda: backup_after_round(tournament, round_number))
