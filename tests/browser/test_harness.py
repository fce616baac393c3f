"""The browser harness itself: keys typed by a test wait until the page's scripts have run (tests/browser/conftest.py),
the way a person waits for the page; without that, a field with `autofocus` takes an Enter before the page's script
is there and the form is submitted as if the browser had no JavaScript."""

import pytest
from playwright.sync_api import Error, expect

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><form action="/submitted" method="get"><input name="a" autofocus></form>
<script src="/late.js"></script>"""
SCRIPT = """document.querySelector("input").addEventListener("keydown", e => {
  if (e.key === "Enter") { e.preventDefault(); document.body.dataset.handled = "yes"; } });"""


def test_keys_wait_for_the_pages_script(page):
    held, submitted = [], []
    page.route("http://harness.test/", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    page.route("http://harness.test/late.js", lambda route: held.append(route))
    page.route("http://harness.test/submitted*", lambda route: submitted.append(route) or route.abort())
    page.goto("http://harness.test/", wait_until="commit")
    expect(page.locator("input")).to_be_focused()  # before the script is there, as on CI's busy machine

    page.set_default_timeout(300)
    with pytest.raises(Error, match="Timeout"):
        page.keyboard.press("Enter")  # waits for the load event, which the held script keeps back
    with pytest.raises(Error, match="Timeout"):
        page.locator("input").press("Enter")
    assert not submitted and page.evaluate("document.body.dataset.handled") is None, "no key reached the page"

    held[0].fulfill(body=SCRIPT, content_type="text/javascript")
    page.set_default_timeout(5_000)
    page.keyboard.type("x")
    page.keyboard.press("Enter")
    assert page.evaluate("document.body.dataset.handled") == "yes", "the page's script took the Enter"
    assert not submitted and page.input_value("input") == "x"


LATE_AUTOFOCUS = """<!doctype html><body onload="const field = document.createElement('input'); field.autofocus = true;
field.addEventListener('keydown', e => { if (e.key === 'Enter') document.body.dataset.handled = 'yes'; });
document.body.append(field)"><p>A page whose autofocus lands after its load event.</p></body>"""


def test_keys_wait_for_the_autofocus_to_land(page):
    """A browser applies `autofocus` at its next rendering step, which can come after the load event; a key pressed
    in between went to the body (without the harness's wait ~1 in 6 Enters here were lost, on an idle machine)."""
    page.route("http://harness.test/", lambda route: route.fulfill(body=LATE_AUTOFOCUS, content_type="text/html"))
    for attempt in range(30):
        page.goto("http://harness.test/", wait_until="load")
        page.keyboard.press("Enter")
        assert page.evaluate("document.body.dataset.handled") == "yes", f"Enter lost on attempt {attempt + 1}"


def test_a_thread_keeps_its_django_connection_when_playwright_marks_its_loop_running():
    """Playwright's sync API marks its event loop as the thread's running loop between calls; Django's connections
    (asgiref's thread-critical Local) are then looked up in a context variable, so without the harness's step the
    test went on with a second connection, outside its transaction (tests/browser/conftest.py). Checked in a thread
    of its own, where no loop runs yet, whatever this worker's browser has done to the main thread."""
    import asyncio
    import threading

    from django.db import connections

    from tests.browser.conftest import _the_same_django_connections

    seen = {}

    def run():
        loop = asyncio.new_event_loop()
        try:
            before = connections["default"]
            with _the_same_django_connections():
                asyncio._set_running_loop(loop)  # what Playwright's start leaves behind
            seen["same"] = connections["default"] is before
            asyncio._set_running_loop(None)
            seen["plain view"] = connections["default"] is before
        finally:
            asyncio._set_running_loop(None)
            loop.close()
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == {"same": True, "plain view": True}


RADIOS = """<!doctype html><a href="#top">top</a>
<fieldset><input type="radio" name="g" value="1" checked><input type="radio" name="g" value="2">
<input type="radio" name="g" value="3"></fieldset>
<input id="before"><button id="target">Save</button><input id="after">
<button id="out" tabindex="-1">Not by Tab</button>"""


def test_tab_to_reaches_its_target_by_tab_and_stops_there(page):
    """tab_to presses Tabs in runs as long as the page's guess; the guess counts the three radios of a group, which
    Tab enters once, so the run is two Tabs too long: the focus must still end on the target, not beyond it."""
    from tests.browser.helpers import tab_to

    page.route("http://harness.test/", lambda route: route.fulfill(body=RADIOS, content_type="text/html"))
    page.goto("http://harness.test/")
    page.evaluate("() => document.addEventListener('keydown', e => window.tabs = (window.tabs || 0) + 1)")
    tab_to(page, "#target")
    assert page.evaluate("document.activeElement.id") == "target"
    # the link, the radio group, the field before: 4 Tabs moved the focus; the guess was 6, the guard swallowed 2
    assert page.evaluate("window.tabs") == 4
    page.keyboard.press("Tab")  # the guard is gone: the next Tab moves on
    assert page.evaluate("document.activeElement.id") == "after"
    with pytest.raises(AssertionError, match="#out never received the keyboard focus"):
        tab_to(page, "#out", limit=10)


def test_a_screenshot_for_a_person_is_taken_only_when_asked_for(page, tmp_path, monkeypatch):
    from tests.browser.helpers import keep_screenshot

    page.set_content("<h1>Table 1</h1>")
    monkeypatch.delenv("SCREENSHOTS", raising=False)
    keep_screenshot(page, tmp_path / "not-asked.png")
    monkeypatch.setenv("SCREENSHOTS", "1")
    keep_screenshot(page.locator("h1"), tmp_path / "shots" / "asked.png")
    assert [path.name for path in tmp_path.rglob("*.png")] == ["asked.png"]
    assert (tmp_path / "shots" / "asked.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
