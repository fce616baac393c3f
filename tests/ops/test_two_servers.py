"""The proof that app servers replace each other (docs/server.md): two real app servers (gunicorn, as docs/deploy.md
runs a server) on one PostgreSQL database, each with its own data folder, temp folder, backup folder and public
cache, driven in turn as a round-robin proxy would:

- both run `migrate` at once on an empty database: the second waits for the first and finds nothing to do;
- a tournament file is uploaded to one server and imported (step 2) on the other;
- a round's slips are saved on one server and the other: the round leaves its snapshot in the database, and no
  backup file on either server;
- the database ends every connection of both servers between two requests (pg_terminate_backend, what a
  PostgreSQL restart does to them: CI's PostgreSQL serves the other tests meanwhile, so it is not restarted here):
  the next requests are answered as usual, none with an error.

PostgreSQL only (marker `postgresql`): CI's PostgreSQL run has it; on SQLite it is skipped. A database of its own is
made on that server and dropped afterwards.
"""

import gzip
import http.client
import json
import os
import re
import subprocess
import sys
import time
import uuid
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import pytest

from bench.load import form_value
from tests.ops.test_serving import clean_environment, free_port
from tournament.management.commands.migrate import MIGRATE_LOCK_KEY

pytestmark = pytest.mark.postgresql

ROOT = Path(__file__).resolve().parents[2]
#: every wait here is for something to happen, bounded so that a hang fails instead of blocking CI
PATIENCE = 180

SETUP = """
import datetime
from django.contrib.auth.models import Group, User
from scoring.games.voms.services import pools as voms_pools
from tournament.models import Match
from tournament.permissions import DIRECTORS_GROUP
from tournament.services.participants import register_team
from tournament.services.tournaments import create_tournament
boss = User.objects.create_user("boss", password="pw-Boss-12345", is_staff=True)
boss.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
t = create_tournament(by=boss, name="Two servers cup", game="voms", date=datetime.date(2026, 12, 5))
for i in range(4):
    register_team(t, by=boss, name="", players=[f"A{i} One", f"B{i} Two"])
voms_pools.draw_pools(t, by=boss, pools=1, seed=3)
games = Match.objects.filter(stage__tournament=t, round__number=1, team_b__isnull=False).order_by("table_number")
print("TABLES", *[m.table_number for m in games])
"""


def postgres_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("needs PostgreSQL (DATABASE_URL): CI's PostgreSQL run (.ci/with-postgres.sh)")
    return url


def connect(url: str, **options):
    import dj_database_url
    import psycopg

    parts = dj_database_url.parse(url)
    return psycopg.connect(host=parts["HOST"] or None, port=parts["PORT"] or None, user=parts["USER"] or None,
                           password=parts["PASSWORD"] or None, dbname=parts["NAME"], **options)


@pytest.fixture
def database():
    """An empty database of its own on the suite's PostgreSQL server; its URL."""
    url = postgres_url()
    name = f"two_servers_{uuid.uuid4().hex[:12]}"
    own = urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    with connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield own
    with connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name])
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


def server_environment(tmp_path: Path, name: str, url: str) -> dict[str, str]:
    """One app server's settings: the shared ones (database, key, static files, public address), and its own
    folders, its temp folder among them."""
    own = tmp_path / name
    (own / "tmp").mkdir(parents=True, exist_ok=True)
    return clean_environment(
        DATABASE_URL=url, SECRET_KEY="the-same-secret-key-on-every-server-" + "k" * 30, HTTPS="0", DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1", PUBLIC_BASE_URL="https://turnier.example.org", STATIC_ROOT=str(tmp_path / "static"),
        DATA_DIR=str(own / "data"), TMPDIR=str(own / "tmp"), BACKUP_DIR=str(own / "backups"),
        PUBLIC_CACHE_DIR=str(own / "public-cache"), BACKUP_AFTER_ROUND="1")


def manage(env: dict, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "manage.py", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def finished(process: subprocess.Popen) -> str:
    output, _ = process.communicate(timeout=PATIENCE)
    assert process.returncode == 0, output
    return output


def until(condition, what: str):
    """Wait for `condition()` to be true (polling; bounded by PATIENCE)."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.1)
    pytest.fail(f"waited in vain for {what}")


class Browser:
    """One person's browser: cookies, and requests to whichever server the proxy picks (`port`)."""

    def __init__(self):
        self.cookies: dict[str, str] = {}

    def request(self, port: int, method: str, path: str, fields: dict | None = None,
                file: tuple[str, str, bytes] | None = None) -> tuple[int, dict, str]:
        headers = {"Accept-Language": "en", "Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if file is not None:
            boundary = uuid.uuid4().hex
            parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                     for k, v in (fields or {}).items()]
            field, filename, content = file
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
                         f"Content-Type: application/json\r\n\r\n".encode() + content + b"\r\n")
            body = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif fields is not None:
            body = urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            connection.close()
        for header in response.msg.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            self.cookies.update({name: morsel.value for name, morsel in cookie.items()})
        return response.status, dict(response.getheaders()), text

    def page(self, port: int, path: str) -> str:
        status, _, text = self.request(port, "GET", path)
        assert status == 200, (port, path, status, text[:2000])
        return text

    def send(self, port: int, path: str, fields: dict, file=None, *, form_at: str | None = None) -> tuple[int, dict]:
        """A form loaded from `form_at` (default: `path`) on this server, sent with its hidden fields."""
        form = self.page(port, form_at or path)
        hidden = {name: form_value(form, name) or ""
                  for name in re.findall(r'<input\b[^>]*type="hidden"[^>]*name="([^"]+)"', form)}
        status, headers, text = self.request(port, "POST", path, {**hidden, **fields}, file)
        assert status in (200, 302), (port, path, status, text[:2000])
        return status, headers


def start_server(env: dict, port: int, log: Path) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
         "--threads", "4", "--timeout", "300"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)

    def healthy():
        if server.poll() is not None:
            pytest.fail(log.read_text())
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            return connection.getresponse().status == 200
        except OSError:
            return False

    until(healthy, f"the server on port {port}")
    return server


def test_two_app_servers_on_one_postgresql_replace_each_other(database, tmp_path):
    envs = {name: server_environment(tmp_path, name, database) for name in ("a", "b")}

    # --- both servers migrate the empty database at once -------------------------------------------------------
    with connect(database, autocommit=True) as held:
        # the lock held here until both are waiting for it: neither can be done before the other has started
        held.execute("SELECT pg_advisory_lock(%s)", [MIGRATE_LOCK_KEY])
        migrating = [manage(envs[name], "migrate", "--noinput") for name in ("a", "b")]
        until(lambda: held.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = %s "
            "AND NOT granted", [MIGRATE_LOCK_KEY]).fetchone()[0] == 2 or any(p.poll() is not None for p in migrating),
            "both migrate commands to wait for the lock")
        held.execute("SELECT pg_advisory_unlock(%s)", [MIGRATE_LOCK_KEY])
    outputs = [finished(process) for process in migrating]
    assert all("waiting for it to finish" in output for output in outputs), outputs
    assert sorted("No migrations to apply." in output for output in outputs) == [False, True], outputs
    from django.db.migrations.loader import MigrationLoader

    on_disk = len(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    with connect(database) as db:
        recorded, distinct = db.execute(
            "SELECT count(*), count(DISTINCT (app, name)) FROM django_migrations").fetchone()
    assert recorded == distinct == on_disk  # each migration once

    tables = finished(manage(envs["a"], "shell", "-c", SETUP))
    first_table, last_table = re.search(r"TABLES (\d+) (\d+)", tables).groups()
    finished(manage(envs["a"], "collectstatic", "--noinput", "-v0"))  # once, into the shared folder

    ports = {name: free_port() for name in envs}
    servers = [start_server(envs[name], ports[name], tmp_path / f"server-{name}.log") for name in envs]
    a, b = ports["a"], ports["b"]
    try:
        boss = Browser()
        boss.send(a, "/accounts/login/", {"username": "boss", "password": "pw-Boss-12345"})
        assert "sessionid" in boss.cookies
        assert "Two servers cup" in boss.page(b, "/manage/")  # the session is the database's: any server knows it

        # --- the import: step 1 on one server, step 2 on the other ---------------------------------------------
        file = boss.request(a, "GET", "/manage/two-servers-cup/export.json")[2].encode()
        status, headers = boss.send(b, "/manage/import/", {}, ("file", "cup.json", file))
        assert (status, headers.get("Location")) == (302, "/manage/import/roles/")
        assert "Two servers cup" in boss.page(a, "/manage/import/roles/")
        status, headers = boss.send(b, "/manage/import/roles/", {"action": "new"})  # a copy beside its original
        assert (status, headers.get("Location")) == (302, "/manage/two-servers-cup-2/")

        # --- a round completed across servers leaves its snapshot ----------------------------------------------
        enter = "/manage/two-servers-cup/voms/enter/"
        boss.send(a, enter, {"round": "1", "table": first_table, "lus_a": "9", "lus_b": "4", "winner": ""})
        boss.send(b, enter, {"round": "1", "table": last_table, "lus_a": "9", "lus_b": "2", "winner": ""})
        with connect(database, autocommit=True) as db:
            until(lambda: not db.execute("SELECT count(*) FROM tournament_pendingbackup").fetchone()[0]
                  and db.execute("SELECT count(*) FROM tournament_tournamentsnapshot").fetchone()[0],
                  "the snapshot of round 1")
            slug, number, content = db.execute(
                "SELECT tournament_slug, round_number, content FROM tournament_tournamentsnapshot").fetchone()
        assert (slug, number) == ("two-servers-cup", 1)
        snapshot = json.loads(gzip.decompress(content))
        assert snapshot["tournament"]["slug"] == "two-servers-cup"
        assert not any((tmp_path / name / "backups").exists() for name in envs)  # no whole-database file

        # --- every database connection of both servers ended between two requests ----------------------------
        pages = ["/manage/", "/manage/two-servers-cup/", "/p/two-servers-cup/", "/healthz"]
        for port in (a, b):
            for path in pages * 2:  # connections kept by the servers' threads (CONN_MAX_AGE)
                assert boss.request(port, "GET", path)[0] in (200, 404)
        with connect(database, autocommit=True) as db:
            ended = db.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()[0]
        assert ended >= 2  # at least one of each server
        statuses = [boss.request(port, "GET", path)[0] for port in (a, b) for path in pages * 2]
        assert 500 not in statuses and 503 not in statuses, statuses
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=60)
