"""A new result on the public pages when the regions are rendered in the background (PUBLIC_RENDER_SECONDS > 0,
as served): nobody waits for a rendering, a phone that got the previous state while the newest is rendered asks
again soon, and that next poll shows the result. The renderings run in the test's thread when the test says
(the `background` fixture), so this holds on SQLite and PostgreSQL alike; one test runs a real thread."""

import random
import re
import threading
import time
import zoneinfo
from types import SimpleNamespace

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from scoring.games.schafkopf import services
from scoring.games.schafkopf.demo import random_list
from scoring.seated.queries import seated_tables
from tournament.public import cache as public_cache_module
from tournament.public.cache import _in_context


def live_url(tournament):
    return reverse("public:live", kwargs={"slug": tournament.slug, "page": "standings"})


def trigger_seconds(html: str) -> int:
    return int(re.search(r'hx-trigger="every (\d+)s', html).group(1))


def since_url(html: str) -> str:
    return re.search(r'hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")


def body(html: str) -> str:
    return html.split('class="live-body">')[1]


def later(monkeypatch, seconds: float) -> None:
    """The cache module's wall clock `seconds` ahead (when the newest rendering started is compared with it)."""
    monkeypatch.setattr(public_cache_module, "time", SimpleNamespace(time=lambda: time.time() + seconds,
                                                                     monotonic=time.monotonic, sleep=time.sleep))


def enter_first_list(tournament, director):
    table = seated_tables(tournament)[1][0]
    services.enter_sheet(table.seats[0].table, by=director, mode="games",
                         entries=random_list(random.Random(5), 30, table.size))


@pytest.fixture
def served(settings):
    """The public pages' settings as served (the tests' default renders every change in the request)."""
    settings.PUBLIC_RENDER_SECONDS = 5
    settings.PUBLIC_POLL_SECONDS = 15
    settings.PUBLIC_RETRY_SECONDS = 2


def test_a_new_result_shows_on_the_next_poll_after_the_background_rendering(schafkopf, publish, director, served,
                                                                           background, client, monkeypatch, settings):
    publish(schafkopf, "standings")
    page = client.get(reverse("public:standings", args=[schafkopf.slug])).content.decode()
    assert background.run() == 0  # the first rendering of a region is made in the request
    before = client.get(since_url(page))
    assert before.status_code == 204  # nothing new

    later(monkeypatch, 6)  # later than PUBLIC_RENDER_SECONDS after that rendering
    enter_first_list(schafkopf, director)

    stale = client.get(since_url(page))  # the phone's next poll: the newest state is being rendered
    assert stale.status_code == 200 and len(background.waiting) == 1
    assert trigger_seconds(stale.content.decode()) == 2  # ... so it asks again in 2 s instead of 15
    again = client.get(since_url(page))  # another phone meanwhile: no second rendering, no waiting
    assert again.status_code == 200 and len(background.waiting) == 1

    assert background.run() == 1
    fresh = client.get(since_url(stale.content.decode()))  # the phone's retry
    assert fresh.status_code == 200 and trigger_seconds(fresh.content.decode()) == 15
    assert since_url(fresh.content.decode()) != since_url(page)
    shown = fresh.content.decode()
    assert client.get(since_url(shown)).status_code == 204  # and then nothing new again
    caches["public"].clear()
    settings.PUBLIC_RENDER_SECONDS = 0
    expected = Client().get(live_url(schafkopf)).content.decode()  # rendered now, in the request
    assert body(shown) == body(expected) != body(stale.content.decode())


def test_a_page_opened_while_the_newest_is_rendered_says_the_usual_interval(schafkopf, publish, director, served,
                                                                           background, client, monkeypatch):
    publish(schafkopf, "standings")
    client.get(reverse("public:standings", args=[schafkopf.slug]))
    later(monkeypatch, 6)
    enter_first_list(schafkopf, director)
    text = client.get(reverse("public:standings", args=[schafkopf.slug])).content.decode()
    assert trigger_seconds(text) == 2 and len(background.waiting) == 1
    assert "This page updates itself every 15 seconds." in text


def test_the_background_rendering_keeps_the_requests_language_and_time_zone():
    seen = {}

    def work():
        seen.update(language=translation.get_language(), zone=str(timezone.get_current_timezone()))
    with translation.override("da"), timezone.override(zoneinfo.ZoneInfo("America/Nuuk")):
        run = _in_context(work)
    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert seen == {"language": "da", "zone": "America/Nuuk"}


@pytest.mark.django_db(transaction=True)
def test_a_real_background_thread_renders_the_new_standings(schafkopf, publish, director, served, monkeypatch):
    """The thread the server starts: its own database connection (closed at its end) sees the committed result."""
    started, done = [], threading.Event()
    real = public_cache_module.start_background

    def start(work):
        def recorded():
            try:
                work()
            finally:
                done.set()

        started.append(work)
        real(recorded)  # the real thread (a thread that ends before the test looks cannot be missed this way)
    monkeypatch.setattr(public_cache_module, "start_background", start)
    publish(schafkopf, "standings")
    client = Client()
    page = client.get(reverse("public:standings", args=[schafkopf.slug])).content.decode()
    later(monkeypatch, 6)
    enter_first_list(schafkopf, director)
    assert client.get(since_url(page)).status_code == 200
    assert len(started) == 1, "one rendering in the background"
    assert done.wait(timeout=60), "the background rendering ended"
    fresh = client.get(since_url(page)).content.decode()
    assert trigger_seconds(fresh) == 15 and since_url(fresh) != since_url(page)
