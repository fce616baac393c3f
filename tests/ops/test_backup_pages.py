"""Backup and restore from the browser: who may, the download, the confirmation that names what is replaced, bad
files refused with nothing changed, and the restore itself (tournament/services/backups.py)."""

import html
import sqlite3
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse

from tournament import backup
from tournament.models import AuditEntry, Tournament
from tournament.services import backups
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db

PAGE = "/manage/backups/"


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_superuser("admin", password="pw-Admin-12345")


@pytest.fixture(autouse=True)
def sqlite_only(monkeypatch):
    """The test database is SQLite in memory: taken for a file database that the server could restore in place."""
    if connection.vendor != "sqlite":
        pytest.skip("the in-app restore is SQLite's (PostgreSQL: manage.py restore, tests/ops/test_serving_lock.py)")
    monkeypatch.setattr(backups, "restorable_here", lambda: True)


def snapshot(path: Path) -> Path:
    """A backup of the test database as it is now (the in-memory database, through SQLite's backup API)."""
    connection.ensure_connection()
    path.write_bytes(connection.connection.serialize())  # what this connection sees, its open transaction too
    return path


def text(response) -> str:
    return html.unescape(response.content.decode())


def uploads(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("upload-*")) if folder.exists() else []


def test_only_the_administrator_opens_the_page(client, director, admin_user):
    assert client.get(PAGE).status_code == 302  # to the login
    client.force_login(director)  # directs tournaments, but restoring replaces everyone's
    assert client.get(PAGE).status_code == 404
    assert client.post(PAGE, {"action": "download"}).status_code == 404
    assert client.post(reverse("tournament:restore"), {"upload": "upload-20261205-201500.sqlite3"}).status_code == 404
    assert "Backup and restore" not in text(client.get(reverse("tournament:list")))
    client.force_login(admin_user)
    page = text(client.get(PAGE))
    assert "Download a backup" in page and "Restore a backup" in page
    assert "Backup and restore" in text(client.get(reverse("tournament:list")))


def test_the_download_is_the_backup_commands_file(client, admin_user, settings, tmp_path, monkeypatch):
    live = snapshot(tmp_path / "db.sqlite3")
    monkeypatch.setattr(backup, "sqlite_database_path", lambda settings_dict=None: live)
    client.force_login(admin_user)
    response = client.post(PAGE, {"action": "download"})
    assert response.status_code == 200
    name = response["Content-Disposition"].split('filename="')[1].rstrip('"')
    assert name.startswith("db-") and name.endswith(".sqlite3")
    body = b"".join(response.streaming_content)
    assert body.startswith(b"SQLite format 3") and body == (settings.BACKUP_DIR / name).read_bytes()


def test_the_confirmation_names_the_backups_date_its_tournaments_and_what_is_lost(client, admin_user, director,
                                                                                  make_tournament, settings,
                                                                                  tmp_path):
    kept = make_tournament(director, name="Autumn cup")
    saved = snapshot(tmp_path / "saved.sqlite3")
    made = AuditEntry.objects.order_by("-when").first().when
    update_tournament(kept, by=director, venue="Club house")  # after the backup: lost
    make_tournament(director, name="Winter cup")  # not in the backup: gone
    client.force_login(admin_user)
    response = client.post(PAGE, {"action": "upload", "file": SimpleUploadedFile("cup-backup.sqlite3",
                                                                                 saved.read_bytes())})
    page = text(response)
    assert response.status_code == 200 and "Restore this backup?" in page
    assert "cup-backup.sqlite3" in page
    summary = backups.summarize(backup.backup_dir() / uploads(settings.BACKUP_DIR)[0])
    assert summary.made == made
    assert [line.name for line in summary.tournaments] == ["Autumn cup"]
    assert [line.name for line in summary.only_now] == ["Winter cup"]
    assert [(line.name, line.changes) for line in summary.changed_since] == [("Autumn cup", 1)]
    assert "“Winter cup” (2026-12-05) is not in the backup: it is gone after the restore." in page
    assert "“Autumn cup”: 1 change made after the backup is lost." in page
    assert "changes recorded after the backup's last change are lost" in page
    assert 'id="confirm-yes" autofocus' in page
    assert Tournament.objects.count() == 2  # nothing replaced before the button


@pytest.mark.parametrize("content,says", [
    (b"hello, not a database", "not a valid SQLite database"),
    (None, "not one of this app"),
    ("other migrations", "made by another version of the app"),
])
def test_a_bad_file_is_refused_with_a_clear_message_and_changes_nothing(client, admin_user, director,
                                                                         make_tournament, settings, tmp_path,
                                                                         content, says):
    make_tournament(director, name="Autumn cup")
    if content is None:  # an SQLite database of another app
        other = sqlite3.connect(tmp_path / "other.sqlite3")
        other.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        other.commit()
        other.close()
        content = (tmp_path / "other.sqlite3").read_bytes()
    elif content == "other migrations":
        path = snapshot(tmp_path / "old.sqlite3")
        db = sqlite3.connect(path)
        db.execute("DELETE FROM django_migrations WHERE id = (SELECT max(id) FROM django_migrations)")
        db.commit()
        db.close()
        content = path.read_bytes()
    before = (Tournament.objects.count(), AuditEntry.objects.count())
    client.force_login(admin_user)
    response = client.post(PAGE, {"action": "upload", "file": SimpleUploadedFile("x.sqlite3", content)})
    page = text(response)
    assert response.status_code == 400 and "Nothing was restored" in page and says in page
    assert 'role="alert"' in page
    assert uploads(settings.BACKUP_DIR) == []  # the refused file is not kept
    assert (Tournament.objects.count(), AuditEntry.objects.count()) == before


def test_restoring_puts_the_backup_in_place_keeps_the_old_database_and_signs_out(client, admin_user, director,
                                                                                  make_tournament, settings,
                                                                                  tmp_path, monkeypatch):
    make_tournament(director, name="Autumn cup")
    saved = snapshot(tmp_path / "saved.sqlite3")
    make_tournament(director, name="Winter cup")
    live = snapshot(tmp_path / "db.sqlite3")  # stands in for the server's database file
    monkeypatch.setattr(backups, "sqlite_database_path", lambda settings_dict=None: live)
    monkeypatch.setattr(backup, "sqlite_database_path", lambda settings_dict=None: live)
    client.force_login(admin_user)
    client.post(PAGE, {"action": "upload", "file": SimpleUploadedFile("saved.sqlite3", saved.read_bytes())})
    (upload,) = uploads(settings.BACKUP_DIR)
    assert client.post(reverse("tournament:restore"), {"upload": "../db.sqlite3"}).status_code == 400  # no other file

    response = client.post(reverse("tournament:restore"), {"upload": upload})

    page = text(response)
    assert response.status_code == 200 and "Backup restored" in page and "Sign in again" in page
    names = [row[0] for row in sqlite3.connect(live).execute("SELECT name FROM tournament_tournament")]
    assert names == ["Autumn cup"]
    (safety,) = settings.BACKUP_DIR.glob("*-before-restore.sqlite3")
    assert safety.name in page
    assert sorted(row[0] for row in sqlite3.connect(safety).execute("SELECT name FROM tournament_tournament")) == [
        "Autumn cup", "Winter cup"]
    assert client.get(PAGE).status_code == 302  # signed out: the sessions are the backup's
