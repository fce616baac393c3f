"""The automatic backup after a round is owed from the round's commit until it is made: a server killed in
between (SIGKILL, as a power cut) makes it after the restart; two processes never both make it."""

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from bench.load import Client, Recorder, form_value
from tournament import backup
from tournament.models import PendingBackup

ROOT = Path(__file__).resolve().parents[2]

# --- in the test database ------------------------------------------------------------------------------


@pytest.fixture
def backups_on(settings, tmp_path, monkeypatch):
    """Automatic backups on, into tmp_path, as the laptop makes them (files; a server's snapshots:
    tests/ops/test_server_pieces.py); on SQLite a file database stands in for the in-memory one."""
    settings.BACKUP_AFTER_ROUND = True
    settings.ROUND_SNAPSHOTS = False
    settings.BACKUP_DIR = tmp_path / "backups"
    if connection.vendor == "sqlite":
        live = tmp_path / "db.sqlite3"
        db = sqlite3.connect(live)
        db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT)")
        db.commit()
        db.close()
        monkeypatch.setattr(backup, "sqlite_database_path", lambda settings_dict=None: live)
    elif backup.find_pg_tool("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    return settings.BACKUP_DIR


def made(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@pytest.mark.django_db
def test_the_backup_is_owed_with_the_commit_and_settled_after_it(tournament, backups_on,
                                                                 django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        backup.schedule_backup_after_round(tournament, 2)
        assert PendingBackup.objects.filter(tournament_id=tournament.pk, round_number=2).count() == 1
    assert made(backups_on) == []  # nothing before the commit
    callbacks[0]()
    (name,) = made(backups_on)
    assert re.search(r"-\d{8}-\d{6}-auto-club-evening-round2\.(sqlite3|dump)$", name)
    assert not PendingBackup.objects.exists()


@pytest.mark.django_db
def test_a_round_rolled_back_owes_no_backup(tournament, backups_on):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        backup.schedule_backup_after_round(tournament, 1)
        raise RuntimeError("the slip failed")
    assert not PendingBackup.objects.exists()


@pytest.mark.django_db
def test_owed_backups_are_made_later_and_a_failed_one_is_tried_again(tournament, backups_on, monkeypatch):
    for number in (1, 2):
        PendingBackup.objects.create(tournament_id=tournament.pk, tournament_slug=tournament.slug, round_number=number)
    working = backup.create_backup
    monkeypatch.setattr(backup, "create_backup", lambda **kw: (_ for _ in ()).throw(backup.BackupError("disk full")))
    assert backup.backup_pending() == []
    assert PendingBackup.objects.filter(claimed_at__isnull=True).count() == 2  # still owed, free to try again
    monkeypatch.setattr(backup, "create_backup", working)

    files = backup.backup_pending()

    # made later, both hold the same (the database now): one file, named by its time, not "round1"/"round2"
    (late,) = files
    assert re.search(r"-\d{8}-\d{6}-auto-club-evening\.(sqlite3|dump)$", late.name), late.name
    assert "round" not in late.name
    assert made(backups_on) == [late.name]
    assert not PendingBackup.objects.exists()
    assert backup.backup_pending() == []


@pytest.mark.django_db
def test_owed_backups_of_several_tournaments_make_one_file_named_owed(tournament, backups_on):
    PendingBackup.objects.create(tournament_id=tournament.pk, tournament_slug=tournament.slug, round_number=1)
    PendingBackup.objects.create(tournament_id=999, tournament_slug="other-cup", round_number=4)
    (late,) = backup.backup_pending()
    assert re.search(r"-\d{8}-\d{6}-auto-owed\.(sqlite3|dump)$", late.name), late.name
    assert not PendingBackup.objects.exists()


def test_retention_keeps_the_newest_automatic_backups_of_old_and_new_names(tmp_path):
    names = ["db-20261205-190000-auto-cup-round1.sqlite3", "db-20261205-193000-auto-cup.sqlite3",
             "db-20261205-200000-auto-cup-round3.sqlite3", "db-20261205-203000-auto-owed.sqlite3",
             "db-20261205-210000.sqlite3", "db-20261205-180000-before-restore.sqlite3"]
    for n, name in enumerate(names):
        path = tmp_path / name
        path.write_bytes(b"x")
        os.utime(path, (1_800_000_000 + n, 1_800_000_000 + n))  # made in the order listed
    doomed = backup.prune_automatic_backups(tmp_path, keep=2)
    assert sorted(p.name for p in doomed) == names[:2]
    assert made(tmp_path) == sorted(names[2:])  # the newest two automatic ones, and every manual one


@pytest.mark.django_db
def test_a_backup_claimed_by_another_process_is_left_to_it_unless_the_claim_is_stale(tournament, backups_on):
    from django.utils import timezone

    owed = PendingBackup.objects.create(tournament_id=tournament.pk, tournament_slug=tournament.slug,
                                        round_number=3, claimed_at=timezone.now())
    assert backup.backup_pending() == []
    PendingBackup.objects.filter(pk=owed.pk).update(
        claimed_at=timezone.now() - timezone.timedelta(seconds=backup.CLAIM_SECONDS + 1))  # its process died
    assert len(backup.backup_pending()) == 1


@pytest.mark.django_db
def test_nothing_is_owed_when_automatic_backups_are_off(tournament, settings):
    settings.BACKUP_AFTER_ROUND = False
    backup.schedule_backup_after_round(tournament, 1)
    assert not PendingBackup.objects.exists()
    assert backup.check_pending_backups() is None


# --- a real server, killed between the commit and the backup ------------------------------------------

SETUP = """
from django.contrib.auth.models import Group, User
from scoring.games.voms import entries as voms_entries
from scoring.games.voms.services import pools as voms_pools
from scoring.games.voms.services import slips as voms_slips
from tournament.models import Match
from tournament.services.participants import register_team
from tournament.permissions import DIRECTORS_GROUP
from tournament.services.tournaments import create_tournament
import datetime
boss = User.objects.create_user("boss", password="pw-Boss-12345", is_staff=True)
boss.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
t = create_tournament(by=boss, name="Crash cup", game="voms", date=datetime.date(2026, 12, 5))
for i in range(4):
    register_team(t, by=boss, name="", players=[f"A{i} One", f"B{i} Two"])
voms_pools.draw_pools(t, by=boss, pools=1, seed=3)
first, last = Match.objects.filter(stage__tournament=t, round__number=1, team_b__isnull=False).order_by("table_number")
voms_slips.record_slip(first, by=boss, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))
print("TABLE", last.table_number)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(tmp_path, **extra) -> dict:
    # DEBUG=1: Django's development server serves the static sources as they are (DEBUG off would need the files
    # collected first, as `serve` does); what is tested here is the backup, not the server
    env = {**os.environ, "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "BACKUP_DIR": str(tmp_path / "backups"),
           "DATABASE_URL": "", "BACKUP_AFTER_ROUND": "1", "DEBUG": "1", **extra}
    for name in ("DJANGO_ALLOW_ASYNC_UNSAFE", backup.CRASH_VARIABLE):
        if name not in extra:
            env.pop(name, None)
    return env


def manage(tmp_path, *args) -> str:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment(tmp_path),
                          capture_output=True, text=True, check=True).stdout


def serve(tmp_path, port: int, **extra) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                              cwd=ROOT, env=environment(tmp_path, **extra), stdout=subprocess.DEVNULL,
                              stderr=open(tmp_path / f"server-{port}.log", "w"))  # noqa: SIM115
    for _ in range(600):  # until it answers (it needs a few seconds on a busy machine)
        if server.poll() is not None:
            raise AssertionError((tmp_path / f"server-{port}.log").read_text())
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return server
        time.sleep(0.1)
    server.kill()
    raise AssertionError("the server did not start")


def hidden_fields(page: str) -> dict[str, str]:
    """What a browser sends along unseen: every hidden input of the page (CSRF token, idempotency keys, …)."""
    names = re.findall(r'<input\b[^>]*type="hidden"[^>]*name="([^"]+)"', page)
    return {name: form_value(page, name) or "" for name in names}


def rows(path: Path, sql: str):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def test_a_server_killed_after_the_rounds_commit_makes_the_backup_after_the_restart(tmp_path):
    manage(tmp_path, "migrate", "-v0")
    table = re.search(r"TABLE (\d+)", manage(tmp_path, "shell", "-c", SETUP)).group(1)
    folder = tmp_path / "backups"
    port = free_port()
    server = serve(tmp_path, port, **{backup.CRASH_VARIABLE: "after-round-commit"})
    try:
        client = Client(port, Recorder())
        login = client.request("login page", "GET", "/accounts/login/")[2]
        client.request("login", "POST", "/accounts/login/", {**hidden_fields(login), "username": "boss",
                                                             "password": "pw-Boss-12345"}, expect=(302,))
        form = client.request("slip form", "GET", "/manage/crash-cup/voms/enter/")[2]
        # The last slip of round 1: the round is complete, committed, and the process dies before the backup.
        answer = client.request("slip", "POST", "/manage/crash-cup/voms/enter/",
                                {**hidden_fields(form), "round": "1", "table": table, "lus_a": "9", "lus_b": "2",
                                 "winner": ""}, expect=())
        assert answer is None  # no answer: the server was killed
        assert server.wait(timeout=60) == -signal.SIGKILL
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    database = tmp_path / "db.sqlite3"
    assert rows(database, "SELECT count(*) FROM scoring_scoresheet") == [(2,)]  # the round is committed ...
    assert made(folder) == []  # ... and has no backup
    assert rows(database, "SELECT tournament_slug, round_number FROM tournament_pendingbackup") == [("crash-cup", 1)]

    port = free_port()
    server = serve(tmp_path, port)
    try:
        Client(port, Recorder()).request("login page", "GET", "/accounts/login/")  # the first request after the start
        for _ in range(600):  # the backup is made in the background: until it is there
            if rows(database, "SELECT count(*) FROM tournament_pendingbackup") == [(0,)]:
                break
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=60)
    (made_now,) = folder.iterdir()
    # made after the restart, not right after the round: named by its time, not "round1"
    assert re.fullmatch(r"db-\d{8}-\d{6}-auto-crash-cup\.sqlite3", made_now.name)
    assert backup.integrity_problems(made_now) == []
    assert rows(made_now, "SELECT count(*) FROM scoring_scoresheet") == [(2,)]  # the backup holds the whole round
