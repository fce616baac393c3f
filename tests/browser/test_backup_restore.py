"""Backup and restore from the browser, by keyboard, against a real server on an SQLite file (the laptop): download a
backup, change something, restore the backup, and see the old state again."""

import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, tab_to

ROOT = Path(__file__).resolve().parents[2]
ADMIN = SimpleNamespace(username="admin", raw_password="pw-Admin-12345")
SETUP = """
import datetime
from django.contrib.auth.models import User
from tournament.services.tournaments import create_tournament
admin = User.objects.create_superuser("admin", password="pw-Admin-12345")
create_tournament(by=admin, name="Autumn cup", game="voms", date=datetime.date(2026, 10, 3))
"""
CHANGE = """
import datetime
from django.contrib.auth.models import User
from tournament.services.tournaments import create_tournament
create_tournament(by=User.objects.get(username="admin"), name="Winter cup", game="schafkopf",
                  date=datetime.date(2026, 12, 5))
"""


def environment(tmp_path) -> dict:
    env = {**os.environ, "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "BACKUP_DIR": str(tmp_path / "backups"),
           "DATABASE_URL": "", "BACKUP_AFTER_ROUND": "0", "DATA_DIR": str(tmp_path / "data"),
           # Django's development server serves the static files from their sources only with DEBUG on (the
           # laptop's own server, `serve`, collects them; this test is about the backup pages, not serving)
           "DEBUG": "1"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def manage(tmp_path, *args) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment(tmp_path), check=True,
                   capture_output=True, text=True)


def names(database: Path) -> list[str]:
    db = sqlite3.connect(database)
    try:
        return sorted(row[0] for row in db.execute("SELECT name FROM tournament_tournament"))
    finally:
        db.close()


@pytest.fixture
def server(tmp_path):
    manage(tmp_path, "migrate", "-v0")
    manage(tmp_path, "shell", "-c", SETUP)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                               cwd=ROOT, env=environment(tmp_path), stdout=subprocess.DEVNULL,
                               stderr=open(tmp_path / "server.log", "w"))  # noqa: SIM115
    try:
        for _ in range(600):  # until it answers (a few seconds on a busy machine)
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=60)


def test_download_a_backup_change_something_restore_it_and_see_the_old_state(server, page, tmp_path):
    database = tmp_path / "db.sqlite3"
    login_by_keyboard(page, server, ADMIN, "/manage/")
    tab_to(page, "#backups-link")
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Backup and restore")
    tab_to(page, "#backup-download")
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("db-") and names(saved) == ["Autumn cup"]

    manage(tmp_path, "shell", "-c", CHANGE)  # the evening goes on after the backup
    assert names(database) == ["Autumn cup", "Winter cup"]

    page.reload()
    page.set_input_files("#id_file", str(saved))  # the operating system's file dialog is no part of the page
    tab_to(page, "#backup-upload")
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Restore this backup?")
    expect(page.locator("#backup-file")).to_have_text(saved.name)
    expect(page.locator("#backup-tournaments")).to_contain_text("Autumn cup")
    expect(page.locator("#backup-tournaments")).not_to_contain_text("Winter cup")
    expect(page.locator("#backup-lost")).to_contain_text("“Winter cup” (2026-12-05) is not in the backup")
    expect(page.locator("#confirm-yes")).to_be_focused()
    keep_screenshot(page, ARTIFACTS / "backup-restore" / "1-confirm.png", full_page=True)
    assert names(database) == ["Autumn cup", "Winter cup"]  # nothing replaced before the button

    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Backup restored")
    expect(page.locator("#restored-note")).to_contain_text("before-restore")
    keep_screenshot(page, ARTIFACTS / "backup-restore" / "2-restored.png", full_page=True)
    assert names(database) == ["Autumn cup"]
    assert any(p.name.endswith("-before-restore.sqlite3") for p in (tmp_path / "backups").iterdir())

    tab_to(page, "#sign-in-again")
    page.keyboard.press("Enter")
    expect(page.locator("#id_username")).to_be_focused()
    login_by_keyboard(page, server, ADMIN, "/manage/")
    expect(page.locator("main")).to_contain_text("Autumn cup")
    expect(page.locator("main")).not_to_contain_text("Winter cup")
    keep_screenshot(page, ARTIFACTS / "backup-restore" / "3-after.png", full_page=True)
