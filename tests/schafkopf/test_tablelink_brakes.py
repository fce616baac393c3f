"""The brakes on table links (scoring/results/brakes.py), through the table's page /t/<token>/: junk from one
phone neither locks the table's honest phone out nor uses up its quota, and guessing tokens is braked per address.
The brakes' clock is moved by hand."""

import datetime

import pytest
from django.urls import reverse

from scoring.models import LinkBrake, PendingSheet, TableProblem
from scoring.results import brakes as linkbrakes
from scoring.results.brakes import REFUSED_LIMIT, TAKEN_LIMIT, UNKNOWN_LIMIT, WINDOW

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401
from .test_tablelink_views import grid_post

pytestmark = pytest.mark.django_db

JUNK = {"t1": "Q", "p1": "9"}  # a game type that does not exist: refused, stores nothing
HONEST, JUNK_SENDER = "192.168.1.20", "192.168.1.66"


@pytest.fixture
def clock(monkeypatch):
    class Clock:
        now = datetime.datetime(2026, 12, 5, 20, 0, tzinfo=datetime.UTC)

        def advance(self, delta: datetime.timedelta):
            self.now += delta

    clock = Clock()
    monkeypatch.setattr(linkbrakes, "now", lambda: clock.now)
    return clock


def url(token: str) -> str:
    return reverse("table:entry", args=[token])


def send(phone, token, data, address):
    return phone.post(url(token), data, REMOTE_ADDR=address)


def test_junk_brakes_its_sender_and_the_tables_honest_phone_still_sends(client, links, a_list, clock):
    link, token = links[(1, 1)]
    for _ in range(REFUSED_LIMIT):
        assert send(client, token, JUNK, JUNK_SENDER).status_code == 400
    refused = send(client, token, grid_post(a_list(30, 4, seed=3)), JUNK_SENDER)
    assert refused.status_code == 429 and "could not be taken" in refused.content.decode()
    assert refused["Retry-After"] == str(int(WINDOW.total_seconds()))
    assert not PendingSheet.objects.exists()
    # the same link from the table's own phone: not held up, and its list is taken
    assert send(client, token, grid_post(a_list(30, 4, seed=3)), HONEST).status_code == 302
    assert PendingSheet.objects.get().table == link.table
    assert send(client, token, {"action": "problem", "kind": "dispute"}, HONEST).status_code == 302
    assert TableProblem.objects.count() == 1
    clock.advance(WINDOW)  # the window is over: the braked phone may send again
    assert send(client, token, JUNK, JUNK_SENDER).status_code == 400


def test_refused_sends_do_not_use_up_the_taken_ones_nor_the_other_way_round(client, links, a_list, clock):
    _link, token = links[(1, 1)]
    data = grid_post(a_list(30, 4, seed=3))
    for _ in range(REFUSED_LIMIT - 1):  # a phone's typing mistakes and its list, turn about, well past the limits
        assert send(client, token, JUNK, HONEST).status_code == 400
        assert send(client, token, data, HONEST).status_code == 302
    assert PendingSheet.objects.count() == 1


def test_a_tables_taken_sends_are_limited_whichever_phone_sends(client, links, a_list, clock):
    _link, token = links[(1, 1)]
    data = grid_post(a_list(30, 4, seed=3))
    for n in range(TAKEN_LIMIT):
        assert send(client, token, data, f"192.168.1.{n % 4 + 1}").status_code == 302
    assert send(client, token, data, "192.168.1.99").status_code == 429
    clock.advance(WINDOW)
    assert send(client, token, data, "192.168.1.99").status_code == 302


def test_guessing_tokens_is_braked_per_address(client, links, clock):
    _link, token = links[(1, 1)]
    for n in range(UNKNOWN_LIMIT):
        assert client.get(url(f"{n:043d}"), REMOTE_ADDR=JUNK_SENDER).status_code == 403
    braked = client.get(url("x" * 43), REMOTE_ADDR=JUNK_SENDER)
    assert braked.status_code == 429 and int(braked["Retry-After"]) == WINDOW.total_seconds()
    # braked for every link, a valid one too: its answer would tell the guesser it found one
    assert client.get(url(token), REMOTE_ADDR=JUNK_SENDER).status_code == 429
    assert client.get(url(token), REMOTE_ADDR=HONEST).status_code == 200
    clock.advance(WINDOW)
    assert client.get(url(token), REMOTE_ADDR=JUNK_SENDER).status_code == 200


def test_the_counts_are_rows_every_server_process_sees_and_name_no_address(client, links, clock):
    _link, token = links[(1, 1)]
    send(client, token, JUNK, JUNK_SENDER)
    client.get(url("y" * 43), REMOTE_ADDR=JUNK_SENDER)
    rows = list(LinkBrake.objects.values_list("key", "count"))
    assert sorted(count for _key, count in rows) == [1, 1]
    assert all(JUNK_SENDER not in key and len(key) == 64 for key, _count in rows)


def test_a_send_that_fails_while_it_is_read_counts_against_its_sender(client, links, clock, monkeypatch):
    from scoring.games.schafkopf import phone

    _link, token = links[(1, 1)]

    def broken(request, link, *, token):
        raise RuntimeError("broken while reading")

    monkeypatch.setattr(phone, "table_page", broken)
    client.raise_request_exception = True
    with pytest.raises(RuntimeError):
        send(client, token, JUNK, JUNK_SENDER)
    assert list(LinkBrake.objects.values_list("count", flat=True)) == [1]
    assert not PendingSheet.objects.exists()
