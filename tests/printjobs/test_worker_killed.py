"""A real print worker process (`manage.py print_worker`, a fresh interpreter as `spawn` starts one) is killed
with SIGKILL in the middle of a job, after its first batch; a second worker takes the job over, goes on from that
batch, and the file is the one the request renders."""

import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ops.test_backup_owed import ROOT, environment, manage
from tournament import backup

from .test_print_jobs import texts

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL: POSIX")

#: 104 players at 26 tables: round 1's score lists are two batches of 13 pages
SETUP = """
import datetime
from django.contrib.auth.models import Group, User
from scoring.seated import services
from tournament.models import PrintJob
from tournament.permissions import DIRECTORS_GROUP
from tournament.services.participants import add_participant
from tournament.services.tournaments import create_tournament
boss = User.objects.create_user("boss", password="pw-Boss-12345", is_staff=True)
boss.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
t = create_tournament(by=boss, name="Kill cup", game="schafkopf", date=datetime.date(2026, 12, 5))
for number in range(1, 105):
    add_participant(t, by=boss, number=number, first_name=f"Anna{number}", last_name=f"Huber{number}")
services.draw_seating(t, by=boss, seed=7)
PrintJob.objects.exclude(document="score-lists-1").delete()
print("JOB", PrintJob.objects.get().pk)
"""


def worker(tmp_path, name: str, **extra) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "manage.py", "print_worker", "--interval", "0.2"], cwd=ROOT,
                            env=environment(tmp_path, **extra), stdout=subprocess.DEVNULL,
                            stderr=open(tmp_path / f"{name}.log", "w"))  # noqa: SIM115


def job_row(database: Path, pk: int) -> tuple:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=20)
    try:
        return db.execute("SELECT state, done, total, worker, content FROM tournament_printjob WHERE id = ?",
                          (pk,)).fetchone()
    finally:
        db.close()


def test_a_worker_killed_mid_job_leaves_it_to_the_next_which_makes_the_right_file(tmp_path):
    manage(tmp_path, "migrate", "-v0")
    job = int(re.search(r"JOB (\d+)", manage(tmp_path, "shell", "-c", SETUP)).group(1))
    database = tmp_path / "db.sqlite3"

    first = worker(tmp_path, "first", **{backup.CRASH_VARIABLE: "print-job-after-batch"})
    try:
        assert first.wait(timeout=600) == -signal.SIGKILL, (tmp_path / "first.log").read_text()
    finally:
        if first.poll() is None:
            first.kill()
    state, done, total, killed, content = job_row(database, job)
    assert (state, done, total, content) == ("running", 13, 26, None)  # one batch of two made, then killed

    # the next worker sees it dead at once (PRINT_JOB_DEAD_SECONDS=0) and goes on from the batch made
    second = worker(tmp_path, "second", PRINT_JOB_DEAD_SECONDS="0")
    try:
        for _ in range(6000):  # until the job is done (minutes on a busy machine); the worker runs until stopped
            if job_row(database, job)[0] in ("done", "failed") or second.poll() is not None:
                break
            time.sleep(0.1)
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=120)
    state, done, total, finisher, content = job_row(database, job)
    assert (state, done, total) == ("done", 26, 26), (tmp_path / "second.log").read_text()
    assert finisher != killed

    expected = tmp_path / "direct.pdf"
    manage(tmp_path, "export", "kill-cup", "score-lists-1", "--format", "pdf", "--output", str(expected))
    made = texts(bytes(content))
    assert len(made) == 26 and made == texts(expected.read_bytes())
    assert "Page 26 of 26" in made[-1]
