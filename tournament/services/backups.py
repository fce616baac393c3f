"""Backups from the browser (the installation's administrator only): download one, restore one from an upload.

The download is the file `manage.py backup` writes (tournament/backup.py), kept in BACKUP_DIR as well. An upload is
stored in BACKUP_DIR as `upload-<date>-<time>.sqlite3`, checked (a sound SQLite database of this app, of the same
database migrations as the running code), and summed up for the confirmation page: when it was made, its
tournaments, and what the current database holds that it would lose. A bad file is removed again and changes
nothing.

Restoring runs inside the server, which holds its own serving lock (tournament/serving.py), so it cannot stop the
servers as `manage.py restore` asks; it replaces the database safely while they run instead: after a safety backup
(`…-before-restore.sqlite3`), the backup is copied into the live database through SQLite's online backup API in one
step, which every other connection sees as one change (the old database or the new one, never a mix); the
serving gate keeps a second restore out meanwhile. The cached public pages are dropped afterwards. Only the same
migrations are taken: a running server of this code must find the tables it expects. PostgreSQL: restore with
`manage.py restore` (docs/operations.md), which needs the server stopped.

Everyone's sessions are in the database too: after a restore only those the backup holds are valid, so the person
who restored signs in again (with the accounts of the backup).
"""

from __future__ import annotations

import datetime
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connection, connections
from django.db.migrations.recorder import MigrationRecorder
from django.utils.translation import gettext as _

from ..backup import (
    SQLITE_SUFFIX,
    BackupError,
    backup_dir,
    new_backup_path,
    restore_sqlite,
    sqlite_database_path,
    validate_sqlite_backup,
)
from ..models import AuditEntry, Tournament
from ..serving import ServerRunning, no_server_running

UPLOAD_STEM = "upload"
#: the name of an uploaded backup in BACKUP_DIR (the confirmation page carries it; nothing else is accepted)
UPLOAD_NAME = re.compile(rf"{UPLOAD_STEM}-\d{{8}}-\d{{6}}(-\d+)?\{SQLITE_SUFFIX}")


def may_manage_backups(user) -> bool:
    """Restoring replaces every tournament of the installation: its administrator (a superuser) only."""
    return bool(user.is_authenticated and user.is_superuser)


def restorable_here() -> bool:
    """The running server can restore in place: an SQLite file database (PostgreSQL: `manage.py restore`)."""
    return connection.vendor == "sqlite" and sqlite_database_path() is not None


@dataclass
class TournamentLine:
    pk: int
    name: str
    date: str
    status: str
    archived: bool
    last_change: datetime.datetime | None = None
    changes: int = 0

    @property
    def status_label(self) -> str:
        return Tournament.Status(self.status).label if self.status in Tournament.Status.values else self.status


@dataclass
class BackupSummary:
    """What a backup holds, and what restoring it would take from the current database."""

    name: str
    made: datetime.datetime | None  #: its newest audit entry: the last change it holds
    tournaments: list[TournamentLine]
    #: the current database's tournaments the backup does not have: gone after the restore
    only_now: list[TournamentLine] = field(default_factory=list)
    #: tournaments of both with changes after the backup's last change of them: those changes are lost
    changed_since: list[TournamentLine] = field(default_factory=list)
    #: every change recorded after the backup was made (all tournaments, and accounts, seasons, the register)
    later_changes: int = 0


def _moment(text) -> datetime.datetime | None:
    if not text:
        return None
    moment = datetime.datetime.fromisoformat(str(text))
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


def _read(path: Path, sql: str) -> list[tuple]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def _migrations(path: Path) -> set[tuple[str, str]]:
    return set(_read(path, "SELECT app, name FROM django_migrations"))


def check_restorable(path: Path) -> None:
    """Refuse (`BackupError`, translated) a file this server cannot restore in place."""
    validate_sqlite_backup(path)
    try:
        theirs = _migrations(path)
    except sqlite3.DatabaseError as error:
        raise BackupError(_("The file is not a backup of this app (%(error)s).") % {"error": error}) from error
    ours = set(MigrationRecorder(connection).applied_migrations())
    if theirs != ours:
        raise BackupError(_("This backup was made by another version of the app (its database tables differ), so it "
                            "cannot be restored in the running server. Restore it with “manage.py restore”, then "
                            "run “manage.py migrate” (docs/operations.md). Nothing was changed."))
    try:
        summarize(path)
    except (sqlite3.DatabaseError, ValueError) as error:
        raise BackupError(_("The file is not a backup of this app (%(error)s).") % {"error": error}) from error


def summarize(path: Path) -> BackupSummary:
    """The backup's tournaments and last change, set against the current database."""
    made = _moment((_read(path, "SELECT max(\"when\") FROM tournament_auditentry") or [(None,)])[0][0])
    last = {pk: (_moment(when), count) for pk, when, count in _read(
        path, "SELECT tournament_id, max(\"when\"), count(*) FROM tournament_auditentry "
              "WHERE tournament_id IS NOT NULL GROUP BY tournament_id")}
    theirs = [TournamentLine(pk, name, str(date), status, bool(archived), *last.get(pk, (None, 0)))
              for pk, name, date, status, archived in _read(
                  path, "SELECT id, name, date, status, archived FROM tournament_tournament ORDER BY date DESC, name")]
    summary = BackupSummary(name=path.name, made=made, tournaments=theirs)
    in_backup = {line.pk: line for line in theirs}
    for tournament in Tournament.objects.order_by("-date", "name"):
        now = AuditEntry.objects.filter(tournament=tournament)
        since = in_backup[tournament.pk].last_change if tournament.pk in in_backup else None
        newer = now.filter(when__gt=since) if since else now
        line = TournamentLine(tournament.pk, tournament.name, str(tournament.date), tournament.status,
                              tournament.archived, now.order_by("-when").values_list("when", flat=True).first(),
                              newer.count())
        if tournament.pk not in in_backup:
            summary.only_now.append(line)
        elif line.changes:
            summary.changed_since.append(line)
    everything = AuditEntry.objects.all()
    summary.later_changes = (everything.filter(when__gt=made) if made else everything).count()
    return summary


def store_upload(upload) -> Path:
    """Keep an uploaded file in BACKUP_DIR and check it; a file that cannot be restored is removed again."""
    folder = backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = new_backup_path(UPLOAD_STEM, SQLITE_SUFFIX, directory=folder)
    with open(target, "wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    try:
        check_restorable(target)
    except BackupError:
        target.unlink(missing_ok=True)
        raise
    return target


def uploaded(name: str) -> Path:
    """The uploaded backup the confirmation page names, or `BackupError`."""
    path = backup_dir() / name
    if not UPLOAD_NAME.fullmatch(name or "") or not path.is_file():
        raise BackupError(_("That uploaded backup is not there any more. Upload it again."))
    return path


def restore_upload(path: Path) -> Path | None:
    """Put the uploaded backup in place of the running database (see the module's notes); returns the safety
    backup of the database as it was."""
    if not restorable_here():
        raise BackupError(_("This server's database is not an SQLite file: restore with “manage.py restore” with "
                            "the server stopped (docs/operations.md)."))
    check_restorable(path)
    database = sqlite_database_path()
    try:
        with no_server_running(inside_server=True):
            connections["default"].close()  # no transaction of this request may span the swap
            safety = restore_sqlite(path, database)
    except ServerRunning as error:
        raise BackupError(str(error)) from error
    _forget_public_pages()
    return safety


def _forget_public_pages() -> None:
    from ..public.cache import public_cache

    public_cache().clear()

