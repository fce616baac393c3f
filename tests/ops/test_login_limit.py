"""Login attempts are rate-limited per user name and per address."""

import pytest
from django.core.cache import cache

from tournament.views import auth

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
REFUSED = "Too many failed log-in attempts"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def clock(monkeypatch):
    """The limiter's clock, moved by hand."""

    class Clock:
        now = 1_800_000_000.0

        def advance(self, seconds):
            self.now += seconds

    clock = Clock()
    monkeypatch.setattr(auth, "now", lambda: clock.now)
    return clock


def log_in(client, username, password, address="10.0.0.1"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(response) -> bool:
    return response.status_code == 302


def fail(client, times, username="director", address="10.0.0.1"):
    for _ in range(times):
        response = log_in(client, username, "wrong", address)
        assert response.status_code == 200 and REFUSED not in response.content.decode()


def test_sixth_attempt_is_refused_even_with_the_right_password(director, client, clock):
    fail(client, 5)
    response = log_in(client, "director", director.raw_password)
    assert response.status_code == 429
    assert REFUSED in response.content.decode() and "15 minutes" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_same_user_name_from_other_addresses_is_refused(director, client, clock):
    for n in range(5):
        fail(client, 1, address=f"10.0.0.{n + 10}")
    assert log_in(client, "director", director.raw_password, address="10.9.9.9").status_code == 429


def test_one_address_guessing_many_user_names_is_refused(director, client, clock):
    for n in range(5):
        fail(client, 1, username=f"guess{n}")
    assert log_in(client, "director", director.raw_password).status_code == 429
    assert logged_in(log_in(client, "director", director.raw_password, address="10.0.0.2"))


def test_the_lock_ends_after_fifteen_minutes(director, client, clock):
    fail(client, 5)
    clock.advance(14 * 60)
    assert log_in(client, "director", director.raw_password).status_code == 429
    clock.advance(61)
    assert logged_in(log_in(client, "director", director.raw_password))


def test_failures_older_than_the_window_do_not_count(director, client, clock):
    fail(client, 4)
    clock.advance(15 * 60 + 1)
    fail(client, 4)
    assert logged_in(log_in(client, "director", director.raw_password))


def test_a_successful_login_clears_the_user_names_count(director, client, clock):
    fail(client, 4)
    assert logged_in(log_in(client, "director", director.raw_password))
    client.logout()
    fail(client, 1, address="10.0.0.5")
    assert logged_in(log_in(client, "director", director.raw_password, address="10.0.0.5"))


def test_user_names_count_regardless_of_case(director, client, clock):
    fail(client, 3, username="Director", address="10.0.0.7")
    fail(client, 2, username="DIRECTOR ", address="10.0.0.8")
    assert log_in(client, "director", director.raw_password, address="10.0.0.9").status_code == 429


def test_behind_a_proxy_the_forwarded_address_counts(director, client, clock, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    for n in range(5):
        client.post(LOGIN, {"username": f"guess{n}", "password": "x"}, REMOTE_ADDR="127.0.0.1",
                    HTTP_X_FORWARDED_FOR="1.2.3.4, 5.6.7.8")
    locked = client.post(LOGIN, {"username": "director", "password": director.raw_password},
                         REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="9.9.9.9, 5.6.7.8")
    assert locked.status_code == 429
    # the proxy's own address is not locked, only the client's
    assert logged_in(log_in(client, "director", director.raw_password, address="127.0.0.1"))
