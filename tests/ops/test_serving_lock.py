"""`manage.py restore` refuses while a server runs on the database: every serving process holds a lock from
config/wsgi.py's start (tournament/serving.py), a lock and not a guess; `--force` overrides it."""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tournament import serving
from tournament.serving import ServerRunning, no_server_running

ROOT = Path(__file__).resolve().parents[2]

HOLDER = """
import sys
from tournament.serving import hold_serving_lock
hold_serving_lock({"ENGINE": "django.db.backends.sqlite3", "NAME": sys.argv[1]})
print("held", flush=True)
sys.stdin.read()
"""


def environment(tmp_path) -> dict:
    env = {**os.environ, "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "BACKUP_DIR": str(tmp_path / "backups"),
           "DATABASE_URL": "", "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def holder(tmp_path) -> subprocess.Popen:
    """Another process that serves the database file (as a server process does from its start)."""
    process = subprocess.Popen([sys.executable, "-c", "import django; django.setup()\n" + HOLDER,
                                str(tmp_path / "db.sqlite3")], cwd=ROOT, env=environment(tmp_path),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "held"
    return process


def test_a_serving_process_blocks_a_restore_until_it_ends_and_a_killed_one_leaves_no_lock(tmp_path):
    database = tmp_path / "db.sqlite3"
    settings_dict = {"ENGINE": "django.db.backends.sqlite3", "NAME": database}
    first, second = holder(tmp_path), holder(tmp_path)
    try:
        assert serving.running_servers(database) == 2
        with pytest.raises(ServerRunning, match="2 server processes"), no_server_running(settings_dict):
            pytest.fail("the restore must not run")
        with no_server_running(settings_dict, force=True):
            pass  # the override
        first.stdin.close()
        first.wait(timeout=60)  # ended normally
        second.send_signal(signal.SIGKILL)  # killed: the OS drops its lock all the same
        second.wait(timeout=60)
    finally:
        for process in (first, second):
            if process.poll() is None:
                process.kill()
                process.wait()
    ran = []
    with no_server_running(settings_dict):
        ran.append(True)
    assert ran == [True]
    assert [p.name for p in serving.serving_folder(database).iterdir()] == [serving.GATE]  # stale files removed


def test_a_server_cannot_start_unseen_during_a_restore(tmp_path):
    database = tmp_path / "db.sqlite3"
    settings_dict = {"ENGINE": "django.db.backends.sqlite3", "NAME": database}
    with no_server_running(settings_dict):
        gate = open(serving.serving_folder(database) / serving.GATE, "a+b")  # noqa: SIM115
        try:
            assert not serving._try_lock(gate)  # a starting server waits here until the restore is done
        finally:
            gate.close()
    with pytest.raises(ServerRunning, match="Another restore"), no_server_running(settings_dict):
        with no_server_running(settings_dict):
            pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(tmp_path, *args, check=True):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment(tmp_path),
                          capture_output=True, text=True, check=check)


def users(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM auth_user").fetchone()[0]
    finally:
        db.close()


def test_manage_py_restore_refuses_while_a_server_runs_and_force_overrides(tmp_path):
    manage(tmp_path, "migrate", "-v0")
    manage(tmp_path, "backup", "--output", str(tmp_path / "empty.sqlite3"))
    manage(tmp_path, "shell", "-c", "from django.contrib.auth.models import User; User.objects.create(username='a')")
    database = tmp_path / "db.sqlite3"
    port = free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                              cwd=ROOT, env=environment(tmp_path), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):  # until it answers: then it has loaded config.wsgi
            assert server.poll() is None
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        refused = manage(tmp_path, "restore", str(tmp_path / "empty.sqlite3"), check=False)
        assert refused.returncode != 0
        assert "server" in refused.stderr and "--force" in refused.stderr
        assert users(database) == 1  # nothing restored
        forced = manage(tmp_path, "restore", "--force", str(tmp_path / "empty.sqlite3"))
        assert "Restored" in forced.stdout and users(database) == 0
    finally:
        server.terminate()
        server.wait(timeout=60)
    manage(tmp_path, "restore", str(tmp_path / "empty.sqlite3"))  # the server stopped: no override needed


@pytest.mark.django_db
def test_postgresql_a_server_holds_a_shared_advisory_lock_and_restore_takes_it_exclusively(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL lock (runs in CI's PostgreSQL run)")
    serving.hold_serving_lock()  # as config/wsgi.py does in each server process: a connection of its own
    try:
        with pytest.raises(ServerRunning, match="a server is running"), no_server_running():
            pytest.fail("the restore must not run")
        with pytest.raises(CommandError, match="--force"):
            call_command("restore", str(tmp_path / "none.dump"))
        with no_server_running(force=True):
            pass
    finally:
        serving.release_serving_lock()
    ran = []
    with no_server_running():
        ran.append(True)
    assert ran == [True]


@pytest.mark.django_db(transaction=True)
def test_postgresql_manage_py_restore_puts_the_dump_back_after_a_safety_dump(tmp_path, settings):
    from tournament import backup

    if connection.vendor != "postgresql" or backup.find_pg_tool("pg_restore") is None:
        pytest.skip("needs PostgreSQL and its client tools (runs in CI's PostgreSQL run)")
    from django.contrib.auth.models import User

    settings.BACKUP_DIR = tmp_path / "backups"
    User.objects.create(username="before")
    call_command("backup", "--output", str(tmp_path / "db.dump"))
    User.objects.create(username="after")
    (tmp_path / "notes.txt").write_text("not a dump")
    with pytest.raises(CommandError, match="not a PostgreSQL dump"):
        call_command("restore", str(tmp_path / "notes.txt"))
    assert User.objects.count() == 2  # a bad file changes nothing

    call_command("restore", str(tmp_path / "db.dump"))

    assert list(User.objects.values_list("username", flat=True)) == ["before"]
    (safety,) = (tmp_path / "backups").glob("*-before-restore.dump")
    assert safety.read_bytes().startswith(b"PGDMP")


def test_a_server_that_cannot_take_its_lock_still_serves_and_says_so_in_the_log(tmp_path, caplog):
    (tmp_path / "a-file").write_text("not a folder")
    serving.hold_serving_lock({"ENGINE": "django.db.backends.sqlite3", "NAME": tmp_path / "a-file" / "db.sqlite3"})
    assert "could not take its serving lock" in caplog.text
    assert serving._held == []
