"""Backups while the app writes, restoring them, the automatic backup after a round, pg_dump's call."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tournament import backup
from tournament.backup import BackupError

ROOT = Path(__file__).resolve().parents[2]


def make_database(path: Path, rows: int = 100) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT)")
    db.execute("CREATE TABLE sheet (id INTEGER PRIMARY KEY, entries TEXT)")
    db.executemany("INSERT INTO sheet (entries) VALUES (?)", [(f"[{n}]",) for n in range(rows)])
    db.commit()
    db.close()


def count(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM sheet").fetchone()[0]
    finally:
        db.close()


def test_backup_is_consistent_while_another_connection_writes(tmp_path):
    live = tmp_path / "db.sqlite3"
    make_database(live)
    writer = sqlite3.connect(live, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # a referee laptop halfway through saving
    writer.executemany("INSERT INTO sheet (entries) VALUES (?)", [("[x]",)] * 50)

    copy = backup.backup_sqlite(live, tmp_path / "backups" / "copy.sqlite3")

    writer.execute("COMMIT")
    writer.close()
    assert backup.integrity_problems(copy) == []
    assert count(copy) == 100  # the snapshot before the open transaction, none of its rows
    assert count(live) == 150
    db = sqlite3.connect(copy)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
    db.close()
    assert sorted(p.name for p in copy.parent.iterdir()) == ["copy.sqlite3"]  # no .part left behind


def test_backup_of_a_missing_database_is_refused(tmp_path):
    with pytest.raises(BackupError, match="does not exist"):
        backup.backup_sqlite(tmp_path / "none.sqlite3", tmp_path / "copy.sqlite3")
    assert not (tmp_path / "none.sqlite3").exists()


def test_restore_puts_the_backup_back_after_a_safety_copy(tmp_path):
    live, safety_dir = tmp_path / "db.sqlite3", tmp_path / "backups"
    make_database(live, rows=10)
    saved = backup.backup_sqlite(live, safety_dir / "db-saved.sqlite3")
    db = sqlite3.connect(live)
    db.execute("DELETE FROM sheet")
    db.commit()
    db.close()

    safety = backup.restore_sqlite(saved, live, safety_dir=safety_dir)

    assert count(live) == 10
    assert "before-restore" in safety.name and count(safety) == 0
    assert backup.integrity_problems(live) == []


def test_backup_and_restore_in_a_folder_whose_name_has_uri_characters(tmp_path):
    """A data folder named after a club ("Club #1 (100% Schafkopf)") or under a Windows user's folder: the
    read-only opening of the copy and of the backup must not take "#" or "%" for part of an SQLite URI."""
    folder = tmp_path / "Club #1 (100% Schafkopf) Jürgen"
    folder.mkdir()
    live = folder / "db.sqlite3"
    make_database(live, rows=10)
    saved = backup.backup_sqlite(live, folder / "backups" / "db-saved.sqlite3")
    assert backup.integrity_problems(saved) == [] and count(saved) == 10
    db = sqlite3.connect(live)
    db.execute("DELETE FROM sheet")
    db.commit()
    db.close()
    backup.restore_sqlite(saved, live, safety_dir=folder / "backups")
    assert count(live) == 10


def test_the_read_only_uri_is_the_files_own_uri():
    uri = backup.read_only_uri(Path("/data/Club #1/100%/db.sqlite3"))
    assert uri.startswith("file:///") and uri.endswith("/Club%20%231/100%25/db.sqlite3?mode=ro")


def test_the_fault_injection_crash_works_without_sigkill_as_on_windows(monkeypatch):
    killed = []
    monkeypatch.setenv(backup.CRASH_VARIABLE, "after-round-commit")
    monkeypatch.delattr(backup.signal, "SIGKILL")
    monkeypatch.setattr(backup.os, "kill", lambda pid, number: killed.append((pid, number)))
    backup.crash_point("after-round-commit")
    assert killed == [(os.getpid(), 9)]  # Windows: TerminateProcess with exit code 9, at once


@pytest.mark.parametrize("content", [b"this is not a database", b""])
def test_restore_refuses_a_file_that_is_not_sqlite(tmp_path, content):
    live = tmp_path / "db.sqlite3"
    make_database(live, rows=3)
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(content)
    with pytest.raises(BackupError):
        backup.restore_sqlite(bad, live, safety_dir=tmp_path / "backups")
    assert count(live) == 3
    assert not (tmp_path / "backups").exists()  # refused before anything was touched


def test_restore_refuses_another_apps_database(tmp_path):
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE notes (x)").connection.close()
    with pytest.raises(BackupError, match="not one of this app"):
        backup.validate_sqlite_backup(other)


def test_restore_replaces_a_damaged_database_and_keeps_it(tmp_path):
    live, safety_dir = tmp_path / "db.sqlite3", tmp_path / "backups"
    make_database(tmp_path / "good.sqlite3", rows=7)
    good = backup.backup_sqlite(tmp_path / "good.sqlite3", safety_dir / "good.sqlite3")
    live.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)  # a header, then garbage

    safety = backup.restore_sqlite(good, live, safety_dir=safety_dir)

    assert count(live) == 7
    assert safety.suffix == ".damaged" and safety.read_bytes().startswith(b"SQLite format 3")


def test_only_the_newest_automatic_backups_are_kept(tmp_path):
    for n in range(25):
        path = tmp_path / f"db-2026010{n:02d}-auto-cup-round{n}.sqlite3"
        path.write_bytes(b"x")
        os.utime(path, (1_700_000_000 + n, 1_700_000_000 + n))
    (tmp_path / "db-20250101-000000.sqlite3").write_bytes(b"manual")
    (tmp_path / "db-20250101-000000-before-restore.sqlite3").write_bytes(b"safety")

    removed = backup.prune_automatic_backups(tmp_path, keep=20)

    assert sorted(p.name for p in removed) == sorted(f"db-2026010{n:02d}-auto-cup-round{n}.sqlite3" for n in range(5))
    assert len(list(tmp_path.glob("*-auto-*"))) == 20
    assert (tmp_path / "db-20250101-000000.sqlite3").exists()
    assert (tmp_path / "db-20250101-000000-before-restore.sqlite3").exists()


def test_backup_names_never_collide(tmp_path):
    first = backup.new_backup_path("db", ".sqlite3", directory=tmp_path)
    first.write_bytes(b"x")
    second = backup.new_backup_path("db", ".sqlite3", directory=tmp_path)
    assert second != first and not second.exists()


# --- the automatic backup after a round -----------------------------------------------------------


@pytest.fixture
def backup_folder(settings, tmp_path, monkeypatch):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_AFTER_ROUND = True  # tests/conftest.py turns automatic backups off for every other test
    settings.ROUND_SNAPSHOTS = False  # the laptop's backup files (a server's snapshots: test_server_pieces.py)
    if connection.vendor == "sqlite":
        # the test database lives in memory: back up a file database in its place
        live = tmp_path / "db.sqlite3"
        make_database(live)
        monkeypatch.setattr(backup, "sqlite_database_path", lambda settings_dict=None: live)
    elif backup.find_pg_tool("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    return settings.BACKUP_DIR


@pytest.mark.django_db
def test_backup_after_round_writes_a_verified_automatic_backup(tournament, backup_folder, settings):
    settings.BACKUP_KEEP = 2
    made = [backup.backup_after_round(tournament, n) for n in (1, 2, 3)]

    assert all(path and "-auto-club-evening-round" in path.name for path in made)
    assert sorted(backup_folder.iterdir()) == sorted(made[1:])  # the oldest was pruned
    if connection.vendor == "sqlite":
        assert backup.integrity_problems(made[-1]) == []
    else:
        assert made[-1].read_bytes().startswith(b"PGDMP")


@pytest.mark.django_db
def test_backup_after_round_runs_after_the_commit(tournament, backup_folder, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        backup.schedule_backup_after_round(tournament, 4)
        assert not backup_folder.exists()  # nothing before the round is committed
    assert len(callbacks) == 1
    callbacks[0]()
    assert [p.name.endswith("round4" + p.suffix) for p in backup_folder.iterdir()] == [True]


@pytest.mark.django_db
def test_a_failing_automatic_backup_never_stops_the_tournament(tournament, monkeypatch, caplog, settings):
    settings.BACKUP_AFTER_ROUND = True

    def broken(**kwargs):
        raise BackupError("disk full")

    monkeypatch.setattr(backup, "create_backup", broken)
    monkeypatch.setattr(backup, "sqlite_database_path", lambda settings_dict=None: Path("/somewhere.sqlite3"))
    assert backup.backup_after_round(tournament, 1) is None
    assert "disk full" in caplog.text


@pytest.mark.django_db
def test_no_automatic_backup_when_switched_off_or_in_memory(tournament, settings):
    settings.BACKUP_AFTER_ROUND = False
    assert backup.backup_after_round(tournament, 1) is None
    if connection.vendor == "sqlite":
        settings.BACKUP_AFTER_ROUND = True
        assert backup.backup_after_round(tournament, 1) is None  # the in-memory test database


# --- PostgreSQL -----------------------------------------------------------------------------------


def test_pg_dump_command_keeps_the_password_out_of_argv(tmp_path):
    argv, env = backup.pg_dump_command(
        {"NAME": "turnier", "USER": "turnier", "PASSWORD": "s3cret", "HOST": "db.local", "PORT": 5433},
        tmp_path / "x.dump", "/usr/bin/pg_dump",
    )
    assert argv == ["/usr/bin/pg_dump", "--format=custom", "--no-owner", f"--file={tmp_path / 'x.dump'}",
                    "--host=db.local", "--port=5433", "--username=turnier", "--dbname=turnier"]
    assert env["PGPASSWORD"] == "s3cret" and not any("s3cret" in arg for arg in argv)


def test_pg_dump_command_without_host_uses_the_local_socket(tmp_path):
    argv, env = backup.pg_dump_command({"NAME": "t", "USER": "", "PASSWORD": "", "HOST": "", "PORT": ""},
                                       tmp_path / "x.dump")
    assert argv[-1] == "--dbname=t" and not any(arg.startswith("--host") for arg in argv)


def test_missing_pg_dump_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(backup, "find_pg_tool", lambda name: None)
    with pytest.raises(BackupError, match="pg_dump was not found"):
        backup.backup_postgresql({"NAME": "t"}, tmp_path / "x.dump")


@pytest.mark.django_db
def test_manage_py_backup_on_postgresql(tmp_path):
    if connection.vendor != "postgresql" or backup.find_pg_tool("pg_dump") is None:
        pytest.skip("needs PostgreSQL and pg_dump")
    from django.core.management import call_command

    call_command("backup", "--output", str(tmp_path / "db.dump"))
    assert (tmp_path / "db.dump").read_bytes().startswith(b"PGDMP")


# --- the commands on a real SQLite file, as a director runs them ------------------------------------


def manage(tmp_path, *args, check=True):
    env = {**os.environ, "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "BACKUP_DIR": str(tmp_path / "backups"),
           "DATABASE_URL": ""}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=check)


def users(tmp_path) -> int:
    db = sqlite3.connect(tmp_path / "db.sqlite3")
    try:
        return db.execute("SELECT count(*) FROM auth_user").fetchone()[0]
    finally:
        db.close()


def test_backup_and_restore_commands(tmp_path):
    manage(tmp_path, "migrate", "-v0")
    manage(tmp_path, "shell", "-c", "from django.contrib.auth.models import User; User.objects.create(username='a')")
    out = manage(tmp_path, "backup").stdout
    (made,) = (tmp_path / "backups").glob("db-*.sqlite3")
    assert str(made) in out and backup.integrity_problems(made) == []
    manage(tmp_path, "shell", "-c", "from django.contrib.auth.models import User; User.objects.create(username='b')")
    assert users(tmp_path) == 2

    result = manage(tmp_path, "restore", str(made))

    assert users(tmp_path) == 1
    assert "before-restore" in result.stdout
    (not_a_db := tmp_path / "notes.txt").write_text("hello")
    refused = manage(tmp_path, "restore", str(not_a_db), check=False)
    assert refused.returncode != 0 and "not a valid SQLite database" in refused.stderr
    assert users(tmp_path) == 1
