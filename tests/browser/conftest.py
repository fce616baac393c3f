"""Real-browser tests: Playwright driving Debian's Chromium, never a downloaded browser.

Debian's `chromium-headless-shell` (/usr/bin/chromium-headless-shell, the same Chromium release as the `chromium`
package, built as the headless-only shell that Playwright itself runs for headless tests) when it is installed
(`make test` installs it): the browser tests cost it 40 % less CPU than the full browser at /usr/bin/chromium
(measured: 148 against 261 CPU seconds for the browser tests, docs/development.md). `CHROMIUM=/usr/bin/chromium`
runs them in the full browser."""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest

DEBIAN_CHROMIUMS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
CHROMIUM = os.environ.get("CHROMIUM") or next((path for path in DEBIAN_CHROMIUMS if Path(path).exists()),
                                              DEBIAN_CHROMIUMS[-1])
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]


_started: dict = {}

#: Playwright's timeouts: generous, because CI's two cores run two browsers and two live servers at once; a passing
#: test never waits for them, a failing one just reports later.
ACTION_TIMEOUT = 20_000
EXPECT_TIMEOUT = 15_000


class _KeyboardAfterLoad:
    """`page.keyboard`, but every key waits until the page has loaded (its scripts have run) before it is typed.

    Without this a test races the page: an `autofocus` field has the focus while the page's script is still being
    fetched, so an Enter typed then submits the form the way a browser without JavaScript does (seen on CI: a rummi
    hand saved before its last field, the next navigation never came). A person would wait for the page; so do the
    tests."""

    _WAITING = ("type", "press", "insert_text", "down")

    def __init__(self, page, keyboard):
        self._page, self._keyboard = page, keyboard

    @property
    def plain(self):
        """Playwright's own keyboard, for a loop of keys on a page known to be loaded (saves a round trip a key)."""
        return self._keyboard

    def __getattr__(self, name):
        action = getattr(self._keyboard, name)
        if name not in self._WAITING:
            return action

        def after_load(*args, **kwargs):
            self._page.wait_for_load_state("load")
            _wait_for_the_autofocus(self._page)
            return action(*args, **kwargs)

        return after_load


#: Waits (a few frames at most) while the page has a visible `autofocus` element and the focus is still on the body.
AUTOFOCUS_SETTLED = """async () => {
  const pending = () => document.activeElement === document.body
    && [...document.querySelectorAll("[autofocus]")].some(element => element.getClientRects().length);
  for (let frame = 0; frame < 5 && pending(); frame++)
    await new Promise(done => { requestAnimationFrame(done); setTimeout(done, 50); });
}"""


def _wait_for_the_autofocus(page) -> None:
    """Before the first key on each new document, let its `autofocus` land.

    A browser moves the focus to an `autofocus` element at its next rendering step, which on a busy machine can come
    after the load event: an Enter pressed then went to the page's body and the form was never sent (seen on CI: the
    desk's "Delete" confirmation waited 20 s for a navigation). A person sees the focus before typing; so do the
    tests. Checked once per document (a round trip), not per key."""
    if not getattr(page, "_navigations_watched", False):
        page._navigations_watched = True
        page.on("framenavigated", lambda frame: frame.parent_frame is None and setattr(page, "_focus_settled", False))
    if not getattr(page, "_focus_settled", False):
        from playwright.sync_api import Error

        try:
            page.evaluate(AUTOFOCUS_SETTLED)
        except Error as error:  # the page went on to another while we waited: its own turn comes with the next key
            if "context was destroyed" not in str(error):
                raise
            return
        page._focus_settled = True


def _keys_wait_for_load():
    """Make `page.keyboard` and a locator's `press`/`type`/`press_sequentially` wait for the page's load event."""
    from playwright.sync_api import Locator, Page

    if getattr(Page, "_keys_wait_for_load", False):
        return
    plain_keyboard = Page.keyboard.fget
    Page.keyboard = property(lambda page: _KeyboardAfterLoad(page, plain_keyboard(page)))
    for name in ("press", "type", "press_sequentially"):
        plain = getattr(Locator, name)

        def after_load(locator, *args, _plain=plain, **kwargs):
            locator.page.wait_for_load_state("load")
            return _plain(locator, *args, **kwargs)

        setattr(Locator, name, after_load)
    Page._keys_wait_for_load = True


@contextmanager
def _the_same_django_connections():
    """Keep Django's database connections of this thread across Playwright's start.

    Playwright's sync API marks its event loop as the thread's running loop between its calls (`wait_for_future`),
    and from then on asgiref's thread-critical Local, which holds Django's connections, looks them up in a context
    variable instead of the thread's storage: the rest of the worker's tests got a second connection to the test
    database. A test's transaction begun before the browser started was left behind (what the test wrote after it
    was committed at once), and at the end the test database could not be dropped (`DROP DATABASE` on PostgreSQL
    waited 5 s for that connection, then failed). The connections made before the browser are put in its view."""
    from django.db import connections

    before = {alias: connections[alias] for alias in connections}
    yield
    for alias, wrapper in before.items():
        connections[alias] = wrapper
    assert all(connections[alias] is wrapper for alias, wrapper in before.items())


@pytest.fixture(scope="session")
def browser(request):
    """One Chromium for the whole session, even when other conftests import this fixture too
    (a second sync Playwright inside the first one's event loop would fail)."""
    from playwright.sync_api import sync_playwright

    if "browser" not in _started:
        if not Path(CHROMIUM).exists():
            pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test`, which installs Debian's chromium "
                        "and chromium-headless-shell.")
        from playwright.sync_api import expect

        _keys_wait_for_load()
        expect.set_options(timeout=EXPECT_TIMEOUT)
        with _the_same_django_connections():
            playwright = sync_playwright().start()
            _started["browser"] = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                             args=CHROMIUM_ARGS)

        def stop():
            _started.pop("browser").close()
            playwright.stop()

        request.session.config.add_cleanup(stop)
    return _started["browser"]


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    yield page
    # The page as the test left it, for whoever looks into a failure (every test's with SCREENSHOTS=1): a full-page
    # screenshot costs the browser more than many a test's own steps.
    failed = getattr(request.node, "rep_call", None) is None or request.node.rep_call.failed
    if failed or os.environ.get("SCREENSHOTS") == "1":
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True, timeout=ACTION_TIMEOUT)
    context.close()


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
