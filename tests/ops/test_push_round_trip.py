"""The laptop-to-server round trip through a real HTTP server (issue 26): the club's server is a process of its own
(waitress, as a laptop serves) with a database of its own, a club and an API token; the laptop is this test's
database. A Schafkopf evening in a season is played on the laptop and sent twice by the push service (the button's
and `manage.py push`'s): after all rounds but the last, then after the last. The second push updates the server's
copy (no second tournament), the season membership stays, and the server's standings are the laptop's row for row
(read through the server's own API). Offline (a closed port) nothing is sent, nothing changes on the laptop, and
the director reads why.
"""

from __future__ import annotations

import io
import json
import random
import re
import urllib.request

import pytest
from django.core.management import CommandError, call_command

from documents.base import venue_locale
from documents.data import document_data
from scoring.games import get_game
from scoring.games.schafkopf import services as schafkopf
from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.demo import random_list
from scoring.models import ScoreSheet
from tests.hostile.conftest import demo_options
from tests.ops.conftest import row_counts
from tests.ops.test_serving import free_port
from tournament.models import AuditEntry, Tournament
from tournament.queries import seated_tables
from tournament.services.push import PushFailed, offline_message, push_tournament, save_club_server
from tournament.services.seasons import add_evening, create_season


def server_json(server, path: str, token: str | None = None) -> dict:
    request = urllib.request.Request(server["url"] + path, headers={"Authorization": f"Bearer {token}"} if token
                                     else {})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def play_rounds(tournament, director, numbers) -> None:
    """The score lists of these rounds, entered as the scorer enters them (the sheet service)."""
    rng = random.Random(11)
    settings = settings_of(tournament)
    for number, tables in seated_tables(tournament).items():
        for table in tables:
            entries = random_list(rng, settings.games_at(table.size), table.size)
            if number in numbers:
                schafkopf.enter_sheet(table.seats[0].table, by=director, mode="games", entries=entries)


def laptop_standings(tournament) -> list:
    with venue_locale(tournament):
        return document_data(get_game("schafkopf").standings_document(tournament))["tables"]


@pytest.fixture
def evening(director):
    """A Schafkopf evening on the laptop, seated, in a season, its standings published; no list entered yet."""
    game = get_game("schafkopf")
    tournament = game.demo(director, **demo_options(game, results=False))
    season = create_season(by=director, name="Winter league", game="schafkopf", place_points=["10", "8", "6"])
    tournament = add_evening(season, tournament, by=director)
    Tournament.objects.filter(pk=tournament.pk).update(publish_standings=True)
    tournament.refresh_from_db()
    return tournament


def test_an_evening_pushed_twice_updates_the_servers_copy(club_server_process, evening, director):
    server = club_server_process
    rounds = sorted(seated_tables(evening))
    assert len(rounds) >= 2
    save_club_server(evening.organisation, by=director, url=server["url"], token=server["token"])

    play_rounds(evening, director, rounds[:-1])
    first = push_tournament(evening, by=director)  # the button's way
    assert first.result == "created" and first.server == server["url"]
    club = server_json(server, "/api/v1/club", server["token"])
    assert [t["uid"] for t in club["tournaments"]] == [str(evening.uid)]
    slug = club["tournaments"][0]["slug"]
    season = club["tournaments"][0]["season"]
    assert season is not None  # the file's season was made on the server, the evening in it
    assert first.url.endswith(f"/manage/{slug}/")
    assert server_json(server, f"/api/v1/tournaments/{slug}/standings")["tables"] == laptop_standings(evening)

    play_rounds(evening, director, rounds[-1:])
    out = io.StringIO()
    call_command("push", evening.slug, stdout=out)  # the command's way: the laptop's "Club server" settings
    text = out.getvalue()
    assert f"“{evening.name}” was updated on {server['url']}" in text
    assert f"{ScoreSheet.objects.filter(tournament=evening).count()} score sheets" in text
    # a server of several clubs: the address carries the club (tournament/clubaddress.py)
    assert re.search(re.escape(f"On the server: {server['url']}/c/") + r"[\w-]+" + re.escape(f"/manage/{slug}/"), text)

    club = server_json(server, "/api/v1/club", server["token"])
    assert [(t["uid"], t["slug"], t["season"]) for t in club["tournaments"]] == [(str(evening.uid), slug, season)]
    server_standings = server_json(server, f"/api/v1/tournaments/{slug}/standings")["tables"]
    assert server_standings == laptop_standings(evening)  # row for row the laptop's
    assert len(server_standings[0]["rows"]) > 0

    pushes = AuditEntry.objects.filter(action="tournament.push").order_by("pk")
    assert [(entry.after["server"], entry.after["result"]) for entry in pushes] == [
        (server["url"], "created"), (server["url"], "updated")]
    assert [entry.user for entry in pushes] == [director, None]  # the button's director; the command line
    assert not AuditEntry.objects.filter(action="tournament.push", tournament__isnull=False).exists()


def test_offline_nothing_is_sent_and_nothing_changes(evening, director):
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    save_club_server(evening.organisation, by=director, url=closed, token="tmk_whatever")
    before = row_counts(evening)
    with pytest.raises(PushFailed) as refused:
        push_tournament(evening, by=director, timeout=10)
    assert refused.value.message == offline_message()
    assert refused.value.message == "The club's server cannot be reached; nothing was sent. Try again when online."
    with pytest.raises(CommandError, match="cannot be reached; nothing was sent"):
        call_command("push", evening.slug, "--timeout", "10")
    assert row_counts(evening) == before
    entry = AuditEntry.objects.filter(action="tournament.push").latest("pk")
    assert entry.after == {"server": closed, "status": None, "sent": False}


def test_a_wrong_token_is_refused_by_the_server_with_its_message(club_server_process, evening, director):
    server = club_server_process
    with pytest.raises(PushFailed, match="did not take the file: The API token is unknown or revoked."):
        push_tournament(evening, by=director, server=server["url"], token="tmk_not-the-clubs")
    known = [t["uid"] for t in server_json(server, "/api/v1/club", server["token"])["tournaments"]]
    assert str(evening.uid) not in known


def test_a_server_that_takes_the_file_but_does_not_answer_in_time_is_not_called_offline(evening, director):
    import socket

    with socket.socket() as listening:  # accepts the connection and the file, and never answers
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        silent = f"http://127.0.0.1:{listening.getsockname()[1]}"
        with pytest.raises(PushFailed) as refused:
            push_tournament(evening, by=director, server=silent, token="tmk_whatever", timeout=0.5)
    assert "did not answer in time: it may have arrived" in refused.value.message
    entry = AuditEntry.objects.filter(action="tournament.push").latest("pk")
    assert entry.after == {"server": silent, "status": None, "sent": True, "answered": False}


def test_an_https_address_of_a_server_that_never_greets_is_said_at_once_as_not_reached(evening, director,
                                                                                      monkeypatch):
    """The walk of issue 26: an address typed without http:// is kept as https://; against a plain-http server the
    TLS greeting waits for an answer that never comes, and the push waited its whole minute, then said the file
    "may have arrived". The connection (the greeting with it) has its own short time: nothing was sent."""
    import socket

    from tournament.services import push

    monkeypatch.setattr(push, "CONNECT_TIMEOUT", 0.5)
    asked = []
    connect = socket.create_connection
    monkeypatch.setattr(socket, "create_connection",
                        lambda address, timeout=None, *args, **kwargs: asked.append(timeout)
                        or connect(address, timeout, *args, **kwargs))
    with socket.socket() as listening:  # accepts the connection and never says a word (no TLS greeting)
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        silent = f"https://127.0.0.1:{listening.getsockname()[1]}"
        with pytest.raises(PushFailed) as refused:
            push_tournament(evening, by=director, server=silent, token="tmk_whatever", timeout=20)
    assert asked == [0.5]  # reaching it and its greeting: the short time, not the 20 s an answer may take
    assert refused.value.message == offline_message()
    entry = AuditEntry.objects.filter(action="tournament.push").latest("pk")
    assert entry.after == {"server": silent, "status": None, "sent": False}
