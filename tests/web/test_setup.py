"""The set-up a director gets: bootstrap credentials, the SQLite settings, the deploy check."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_bootstrap_prints_a_random_password_that_logs_in(capsys):
    call_command("bootstrap", "--no-demo")
    out = capsys.readouterr().out
    password = next(line.split(":", 1)[1].strip() for line in out.splitlines() if "password:" in line)
    assert len(password) >= 12
    assert authenticate(username="director", password=password) is not None
    call_command("bootstrap")
    again = capsys.readouterr().out
    assert password not in again
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_sqlite_runs_in_wal_mode_with_immediate_transactions():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert connection.settings_dict["OPTIONS"]["timeout"] >= 5
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        mode = cursor.fetchone()[0]
    # the in-memory test database cannot use WAL; a file database must
    assert mode in ("wal", "memory")


def test_file_database_uses_wal(tmp_path):
    env = {**os.environ, "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DATABASE_URL": ""}
    code = (
        "import django; django.setup(); from django.db import connection; c = connection.cursor();"
        "c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "wal"


def test_check_deploy_is_clean_with_production_variables(tmp_path):
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "x" * 20 + "production-secret-key-with-enough-entropy-0123456789",
        "ALLOWED_HOSTS": "tournament.example.org",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "STATIC_ROOT": str(tmp_path / "static"),
        "HTTPS": "1",  # a server behind its TLS proxy (without DATABASE_URL: SQLite)
    }
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the browser tests only
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_a_server_refuses_to_start_without_secret_key(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "DATA_DIR": str(tmp_path)}
    for name in ("SECRET_KEY", "DEBUG", "HALL"):
        env.pop(name, None)
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
