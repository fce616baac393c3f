"""The public standings under load: rendered once per change and interval (the shared cache and its lock),
built in Python with every name escaped, and sent gzipped to browsers that accept it."""

import gzip
import re
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.urls import reverse

from scoring.games.schafkopf.public import standings_rows_html
from tournament.public import cache as public_cache_module
from tournament.public.cache import (
    LOCK_SECONDS,
    bump_public_version,
    cache_key,
    cached,
    cached_region,
    newest_key,
    public_cache,
)


class Clock:
    """The cache module's time (time, monotonic, sleep) under the test's control; nothing else's."""

    def __init__(self, monkeypatch, now=1_000_000.0):
        self.now = now
        self.on_sleep = None
        monkeypatch.setattr(public_cache_module, "time", self)

    def time(self):
        return self.now

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds
        if self.on_sleep:
            self.on_sleep()


class Renders:
    def __init__(self):
        self.count = 0

    def __call__(self, value):
        def compute():
            self.count += 1
            return value
        return compute


def tournament_at(version: str):
    return SimpleNamespace(pk=4711, public_version=version)


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def render(tournament, kind, compute, **extra):
    """A public region's way: with a window of 5 s."""
    return cached(tournament, kind, compute, window=5, **extra)


def test_without_a_window_every_new_version_is_rendered(clock):
    """The default, which the director's pages use: always the newest, even just after another rendering."""
    renders = Renders()
    assert cached(tournament_at("1"), "standings", renders("v1")) == "v1"
    assert cached(tournament_at("1"), "standings", renders("again")) == "v1"  # same version: from the cache
    assert cached(tournament_at("2"), "standings", renders("v2")) == "v2"
    assert renders.count == 2


def test_a_new_version_gets_the_newest_rendering_within_the_window_then_its_own(clock, background):
    renders = Renders()
    assert render(tournament_at("1"), "standings", renders("v1")) == "v1"  # never rendered: in the request
    assert background.run() == 0
    clock.now += 4
    assert render(tournament_at("2"), "standings", renders("v2")) == "v1"  # 4 s late, rendered 0 times more
    assert renders.count == 1 and background.run() == 0
    clock.now += 2  # the newest rendering started 6 s ago: this version is rendered, in the background
    assert render(tournament_at("2"), "standings", renders("v2")) == "v1"
    assert renders.count == 1 and background.run() == 1 and renders.count == 2
    assert render(tournament_at("2"), "standings", renders("v2")) == "v2"
    assert render(tournament_at("2"), "standings", renders("again")) == "v2"
    assert renders.count == 2
    # Another language, page or query is another region: never answered with this one.
    assert render(tournament_at("3"), "results", renders("results")) == "results"
    assert render(tournament_at("3"), "standings", renders("seat"), extra="Huber") == "seat"


def test_while_one_process_renders_in_the_background_every_request_answers_at_once(clock, background):
    renders = Renders()
    v1, v2 = tournament_at("1"), tournament_at("2")
    cached_region(v1, "standings", renders("v1"), window=5)
    clock.now += 6
    assert cached_region(v2, "standings", renders("v2"), window=5) == ("v1", True)  # the newest is coming
    # Other requests (other processes: the lock is in the shared cache) neither render nor start another.
    for _ in range(3):
        assert cached_region(v2, "standings", renders("v2 again"), window=5) == ("v1", True)
    assert len(background.waiting) == 1 and renders.count == 1
    background.run()
    assert cached_region(v2, "standings", renders("v2 again"), window=5) == ("v2", False)
    assert renders.count == 2 and public_cache().get(f"{cache_key(v2, 'standings')}:lock") is None


def test_a_version_expired_in_the_cache_is_renewed_in_the_background(clock, background, settings):
    """PUBLIC_CACHE_SECONDS bounds anything missed: the same version is rendered again after it, but nobody
    waits for it (the newest rendering is kept longer) and phones are not told to ask again soon."""
    renders = Renders()
    v1 = tournament_at("1")
    cached_region(v1, "standings", renders("v1"), window=5)
    public_cache().delete(cache_key(v1, "standings"))  # as after PUBLIC_CACHE_SECONDS
    clock.now += settings.PUBLIC_CACHE_SECONDS
    assert cached_region(v1, "standings", renders("v1 renewed"), window=5) == ("v1", False)
    assert background.run() == 1
    assert cached_region(v1, "standings", renders("again"), window=5) == ("v1 renewed", False)


def test_a_process_waiting_for_the_first_rendering_answers_with_a_newer_one_that_appears(clock):
    renders = Renders()
    v2 = tournament_at("2")
    public_cache().add(f"{cache_key(v2, 'standings')}:lock", 1, LOCK_SECONDS)  # another renders the first one
    clock.on_sleep = lambda: public_cache().set(newest_key(v2, "standings"), (clock.now, "key", "v3"), 60)
    assert render(v2, "standings", renders("v2 here")) == "v3"
    assert renders.count == 0


def test_a_process_waiting_for_the_first_rendering_gets_it_from_the_other(clock):
    renders = Renders()
    v1 = tournament_at("1")
    public_cache().add(f"{cache_key(v1, 'standings')}:lock", 1, LOCK_SECONDS)
    clock.on_sleep = lambda: public_cache().set(cache_key(v1, "standings"), "v1 by the other", 60)
    assert render(v1, "standings", renders("v1 here")) == "v1 by the other"
    assert renders.count == 0


def test_a_lock_left_by_a_dead_process_delays_but_does_not_block(clock):
    renders = Renders()
    v1 = tournament_at("1")
    public_cache().add(f"{cache_key(v1, 'standings')}:lock", 1, LOCK_SECONDS * 10)  # nobody will release it
    assert render(v1, "standings", renders("v1")) == "v1"  # after waiting LOCK_SECONDS
    assert renders.count == 1


def test_the_lock_is_released_when_rendering_fails(clock):
    v1 = tournament_at("1")

    def broken():
        raise RuntimeError("rendering failed")
    with pytest.raises(RuntimeError):
        render(v1, "standings", broken)
    assert public_cache().get(f"{cache_key(v1, 'standings')}:lock") is None
    assert render(v1, "standings", lambda: "v1") == "v1"


def test_a_failed_background_rendering_is_logged_and_tried_again_after_the_lock_expires(clock, background, caplog):
    v1, v2 = tournament_at("1"), tournament_at("2")
    render(v1, "standings", lambda: "v1")
    clock.now += 6

    def broken():
        raise RuntimeError("rendering failed")
    assert render(v2, "standings", broken) == "v1"
    background.run()  # raises nothing: a thread has nobody to raise to
    assert caplog.text.count("Rendering a public region in the background failed") == 1
    # Not one failing rendering (and traceback) per poll: the lock stays, marked failed, for LOCK_SECONDS, and
    # the phones are not told to ask again soon.
    assert cached_region(v2, "standings", broken, window=5) == ("v1", False)
    assert background.run() == 0
    public_cache().delete(f"{cache_key(v2, 'standings')}:lock")  # as after LOCK_SECONDS
    assert cached_region(v2, "standings", lambda: "v2", window=5) == ("v1", True)
    assert background.run() == 1
    assert render(v2, "standings", lambda: "again") == "v2"


def test_an_older_rendering_finishing_late_does_not_replace_the_newest(clock, background):
    v1, v2 = tournament_at("1"), tournament_at("2")
    public_cache().set(newest_key(v2, "standings"), (clock.now + 1, "key", "v2"), 60)  # started after v1's
    assert render(v1, "standings", lambda: "v1") == "v2"
    assert background.run() == 1
    assert public_cache().get(cache_key(v1, "standings")) == "v1"
    assert public_cache().get(newest_key(v1, "standings"))[2] == "v2"


# --- the page itself ------------------------------------------------------------------------------------------


def standings_url(tournament):
    return reverse("public:standings", args=[tournament.slug])


def test_public_pages_answer_with_the_recent_rendering_for_render_seconds(client, schafkopf, publish, settings):
    publish(schafkopf, "standings")
    live = reverse("public:live", kwargs={"slug": schafkopf.slug, "page": "standings"})
    settings.PUBLIC_RENDER_SECONDS = 60
    assert "Anna1 Huber1" in client.get(live).content.decode()
    schafkopf.participants.filter(number=1).update(first_name="Berta")
    bump_public_version(schafkopf.pk)  # a new version
    assert "Anna1 Huber1" in client.get(live).content.decode()  # the rendering of a moment ago
    settings.PUBLIC_RENDER_SECONDS = 0
    assert "Berta Huber1" in client.get(live).content.decode()


def test_names_and_clubs_show_literally_in_the_python_built_rows(client, schafkopf, publish):
    # As if typed so at registration (the seating is drawn already: the player keeps their seat).
    schafkopf.participants.filter(number=1).update(first_name="<script>alert(1)</script>", last_name='O"Brien & Co',
                                                   club="<b>Club</b>")
    publish(schafkopf, "standings")
    text = client.get(standings_url(schafkopf)).content.decode()
    assert "<script>alert(1)</script>" not in text and "<b>Club</b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; O&quot;Brien &amp; Co" in text
    assert "&lt;b&gt;Club&lt;/b&gt;" in text


#: the template loop the rows were rendered with before (templates/public/schafkopf/standings.html)
OLD_LOOP = """{% load i18n %}{% for row in rows %}
    <tr{% if row.excluded %} class="excluded"{% endif %}><td class="num rank">{% if not row.excluded %}{{ row.rank }}{% endif %}</td>
      <td class="name">{{ row.name }} <small>{{ row.number }}{% if row.club %} · {{ row.club }}{% endif %}{% if row.excluded %} · {% translate "excluded" %}{% endif %}</small>{% if row.by_lot %} <span class="lot" title="{% translate 'decided by lot' %}">{% translate "lot" %}</span>{% endif %}</td>
      {% for points in row.rounds %}<td class="num">{{ points|default_if_none:"–" }}</td>{% endfor %}
      <td class="num strong">{{ row.points }}</td></tr>
  {% endfor %}"""  # noqa: E501


def test_python_built_rows_are_the_html_the_template_loop_made():
    rows = [
        {"rank": 1, "number": 7, "name": "Anna <Huber>", "club": "SK 'Isartal' & Co", "rounds": [31, -12],
         "points": 19, "by_lot": False, "excluded": False, "note": ""},
        {"rank": 2, "number": 8, "name": "Sepp Maier", "club": "", "rounds": [0, None], "points": 0,
         "by_lot": True, "excluded": False, "note": ""},
        {"rank": 3, "number": 1234, "name": "Xaver \"X\" Moser", "club": "Stammtisch", "rounds": [None, None],
         "points": -1234, "by_lot": False, "excluded": True, "note": ""},
    ]
    old = Template(OLD_LOOP).render(Context({"rows": rows}))

    def squeeze(html):
        return re.sub(r">\s+<", "><", html.strip())
    assert squeeze(standings_rows_html(rows)) == squeeze(old)


def test_public_answers_are_gzipped_when_the_browser_accepts_it(client, schafkopf, publish):
    publish(schafkopf, "standings")
    plain = client.get(standings_url(schafkopf))
    assert plain.status_code == 200 and "Content-Encoding" not in plain
    zipped = client.get(standings_url(schafkopf), HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert zipped.status_code == 200 and zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert "Anna1 Huber1" in gzip.decompress(zipped.content).decode()
    live = client.get(reverse("public:live", kwargs={"slug": schafkopf.slug, "page": "standings"}),
                      HTTP_ACCEPT_ENCODING="gzip")
    assert live["Content-Encoding"] == "gzip" and "Anna1 Huber1" in gzip.decompress(live.content).decode()


def test_director_pages_are_not_gzipped(client, schafkopf, director):
    client.force_login(director)
    response = client.get("/manage/", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and "Content-Encoding" not in response


def test_a_region_is_rendered_at_most_once_per_poll_interval_by_default():
    """Unless set, PUBLIC_RENDER_SECONDS is the poll interval (the suite itself renders every change: conftest)."""
    import importlib

    import config.settings as module

    assert importlib.reload(module).PUBLIC_RENDER_SECONDS == module.PUBLIC_POLL_SECONDS == 15
