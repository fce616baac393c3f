"""Password guessing is slowed down per address and user name together, on every way in."""

import datetime
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connection

from tournament.models import LoginThrottle
from tournament.services import logins

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
REFUSED = "Too many failed log-in attempts"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clock(monkeypatch):
    """The throttle's clock, moved by hand."""

    class Clock:
        now = datetime.datetime(2027, 1, 15, 12, 0, tzinfo=datetime.UTC)

        def advance(self, seconds):
            self.now += datetime.timedelta(seconds=seconds)

    clock = Clock()
    monkeypatch.setattr(logins, "now", lambda: clock.now)
    return clock


def log_in(client, username, password, address="10.0.0.1", url=LOGIN):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(response) -> bool:
    return response.status_code == 302


def fail(client, times, username="director", address="10.0.0.1"):
    for _ in range(times):
        response = log_in(client, username, "wrong", address)
        assert response.status_code == 200 and REFUSED not in response.content.decode()


def test_after_five_failures_the_next_attempt_waits_even_with_the_right_password(director, client, clock):
    fail(client, 5)
    response = log_in(client, "director", director.raw_password)
    assert response.status_code == 429 and response["Retry-After"] == "30"
    assert REFUSED in response.content.decode() and "30 seconds" in response.content.decode()
    assert "_auth_user_id" not in client.session
    clock.advance(30)
    assert logged_in(log_in(client, "director", director.raw_password))


def test_the_wait_grows_with_each_further_failure_up_to_fifteen_minutes(director, client, clock):
    fail(client, 5)
    waits = []
    for _ in range(8):
        refused = log_in(client, "director", "wrong")
        assert refused.status_code == 429
        waits.append(int(refused["Retry-After"]))
        clock.advance(waits[-1])
        fail(client, 1)
    assert waits == [30, 60, 120, 240, 480, 900, 900, 900]
    assert "15 minutes" in log_in(client, "director", director.raw_password).content.decode()


def test_a_refused_attempt_does_not_count_or_prolong_the_wait(director, client, clock):
    fail(client, 5)
    for _ in range(20):
        assert log_in(client, "director", "wrong").status_code == 429
    clock.advance(30)
    assert logged_in(log_in(client, "director", director.raw_password))


def test_guessing_from_one_address_does_not_lock_the_director_out_elsewhere(director, client, clock):
    for _ in range(5):
        fail(client, 1, address="10.6.6.6")
    assert log_in(client, "director", "wrong", address="10.6.6.6").status_code == 429
    assert logged_in(log_in(client, "director", director.raw_password, address="10.0.0.2"))


def test_other_user_names_from_the_same_address_are_not_held_up(director, make_director, client, clock):
    other = make_director("assistant1")
    fail(client, 5, username="director")
    assert logged_in(log_in(client, "assistant1", other.raw_password))


def test_user_names_count_regardless_of_case_and_spaces(director, client, clock):
    fail(client, 3, username="Director")
    fail(client, 2, username="DIRECTOR ")
    assert log_in(client, "director", director.raw_password).status_code == 429


def test_a_successful_login_starts_the_count_afresh(director, client, clock):
    fail(client, 4)
    assert logged_in(log_in(client, "director", director.raw_password))
    client.logout()
    fail(client, 4)
    assert logged_in(log_in(client, "director", director.raw_password))


def test_a_quiet_day_forgets_the_failures(director, client, clock):
    fail(client, 4)
    clock.advance(logins.FORGET_AFTER + 1)
    fail(client, 4)
    assert logged_in(log_in(client, "director", director.raw_password))


def test_old_rows_are_removed_so_junk_user_names_cannot_grow_the_table(client, clock, db):
    for n in range(5):
        fail(client, 1, username=f"junk{n}")
    assert LoginThrottle.objects.count() == 5
    clock.advance(logins.FORGET_AFTER + 1)
    fail(client, 1, username="fresh")
    assert LoginThrottle.objects.count() == 1


def test_incomplete_forms_are_not_attempts(director, client, clock):
    for _ in range(10):
        response = client.post(LOGIN, {"username": "director", "password": ""}, REMOTE_ADDR="10.0.0.1")
        assert "Enter your user name and your password." in response.content.decode()
    assert logged_in(log_in(client, "director", director.raw_password))


def test_the_counts_are_shared_by_every_server_process(director, client, clock):
    """The counts live in the database, not in one process's memory: what another process counted holds here."""
    for _ in range(5):
        assert logins.reserve_attempt("10.0.0.1", "director") == 0
    assert log_in(client, "director", director.raw_password).status_code == 429


def test_behind_a_proxy_the_forwarded_address_counts(director, client, clock, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    for _ in range(5):
        client.post(LOGIN, {"username": "director", "password": "x"}, REMOTE_ADDR="127.0.0.1",
                    HTTP_X_FORWARDED_FOR="1.2.3.4, 5.6.7.8")
    held = client.post(LOGIN, {"username": "director", "password": director.raw_password},
                       REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="9.9.9.9, 5.6.7.8")
    assert held.status_code == 429
    # another client behind the same proxy is not held up
    assert logged_in(client.post(LOGIN, {"username": "director", "password": director.raw_password},
                                 REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="5.6.7.9"))


# --- the admin has no login of its own --------------------------------------------------------------


def test_the_admin_login_page_sends_to_the_one_login_page(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/admin/"
    assert client.get("/admin/").status_code == 302


def test_a_password_posted_to_the_admin_login_logs_nobody_in(director, client, clock):
    response = client.post("/admin/login/", {"username": "director", "password": director.raw_password,
                                              "next": "/admin/"}, REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert "_auth_user_id" not in client.session


def test_a_director_held_up_on_the_app_login_is_held_up_for_the_admin_too(director, client, clock):
    director.is_superuser = True
    director.save()
    fail(client, 5)
    log_in(client, "director", director.raw_password, url="/admin/login/")
    assert client.get("/admin/").status_code == 302
    response = client.post(LOGIN + "?next=/admin/", {"username": "director", "password": director.raw_password},
                           REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 429
    clock.advance(30)
    response = client.post(LOGIN + "?next=/admin/", {"username": "director", "password": director.raw_password,
                                                    "next": "/admin/"}, REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def guess_at_once(count: int) -> list[int]:
    """`count` threads, each with its own database connection, reserve an attempt at the same moment."""
    barrier = threading.Barrier(count)
    results = []

    def guess():
        try:
            barrier.wait()
            results.append(logins.reserve_attempt("10.0.0.1", "director"))
        finally:
            connection.close()

    threads = [threading.Thread(target=guess) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(results)


GUESS_AT_ONCE = f"""
import django, json, sys
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
sys.path.insert(0, {str(ROOT)!r})
from tests.ops.test_login_limit import guess_at_once
print(json.dumps(guess_at_once(8)))
"""


@pytest.mark.django_db(transaction=True)
def test_simultaneous_attempts_get_no_more_tries_than_one_after_another(tmp_path):
    """Eight workers guessing at once, each in its own connection, still get the five free attempts only."""
    if connection.vendor == "sqlite":
        # the test database lives in memory, which separate connections cannot share with locking: use a file
        env = {**os.environ, "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DATABASE_URL": ""}
        out = subprocess.run([sys.executable, "-c", GUESS_AT_ONCE], cwd=ROOT, env=env, capture_output=True,
                             text=True, check=True)
        results = json.loads(out.stdout.strip().splitlines()[-1])
    else:
        results = guess_at_once(8)
    assert len(results) == 8
    assert results[:5] == [0] * 5 and all(wait > 0 for wait in results[5:]), results
