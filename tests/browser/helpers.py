"""Keyboard helpers shared by the real-browser tests."""

import os
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import expect


@contextmanager
def page_of(browser, *, locale: str = "en-GB", width: int = 1280, height: int = 900, **options):
    """A page of its own browser context (its language, window size and `options`), closed afterwards: the body of
    a test's page fixture."""
    from tests.browser.conftest import ACTION_TIMEOUT

    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale, **options)
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    try:
        yield page
    finally:
        context.close()


@contextmanager
def served_page(browser, path: str, html: str, *, width: int, height: int):
    """A page showing `html` (a response the test client got for `path`) with the static files from the static
    folders: a page's layout in Chromium without a live server. Closed afterwards."""
    from django.contrib.staticfiles import finders

    def serve(route):
        found = finders.find(route.request.url.split("/static/", 1)[1].split("?", 1)[0])
        route.fulfill(path=found) if found else route.fulfill(status=404)

    with page_of(browser, width=width, height=height) as page:
        page.route("http://walk.test/static/**", serve)
        page.route(f"http://walk.test{path}", lambda route: route.fulfill(body=html, content_type="text/html"))
        page.goto(f"http://walk.test{path}")
        yield page


def keep_screenshot(target, path: Path, **options) -> None:
    """A screenshot for a person to look at (test-artifacts/), taken when SCREENSHOTS=1 only: each costs the browser a
    rendering of the page, and a failing test's page is kept anyway (the `page` fixture, tests/browser/conftest.py).
    `target` is a page or a locator."""
    if os.environ.get("SCREENSHOTS") != "1":
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(path), **options)


def login_by_keyboard(page, base_url: str, user, next_path: str = "") -> None:
    """Log in by typing, as a director does: the user name field has the focus on arrival."""
    page.goto(f"{base_url}/accounts/login/" + (f"?next={next_path}" if next_path else ""))
    # Typing before the autofocus has landed would lose the first keys.
    expect(page.locator("#id_username")).to_be_focused()
    page.keyboard.type(user.username)
    page.keyboard.press("Tab")
    page.keyboard.type(user.raw_password)
    page.keyboard.press("Enter")
    page.wait_for_load_state()


#: Before a run of Tabs: a guard that keeps the focus on the target once it is there (a Tab pressed then is
#: swallowed), and the page's guess of how many Tabs the target is away: the focusable elements between the focus
#: and the target in document order (0: it has the focus; 1 when the target comes earlier). The guess may count an
#: element the Tab order skips (the second radio of a group): the guard swallows the Tabs too many.
TAB_GUARD = """target => {
  if (!window.tabGuard) {
    window.tabGuard = event => {
      if (event.key === 'Tab' && document.activeElement === window.tabTarget) {
        event.preventDefault(); event.stopImmediatePropagation();
      }
    };
    window.addEventListener('keydown', window.tabGuard, true);
  }
  window.tabTarget = target;
  if (target === document.activeElement) return 0;
  const all = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter(el => !el.disabled && el.tabIndex >= 0 && el.type !== 'hidden' && el.getClientRects().length);
  const from = all.indexOf(document.activeElement), to = all.indexOf(target);
  return to > from ? to - from : 1;
}"""
TAB_GUARD_OFF = """target => {
  window.removeEventListener('keydown', window.tabGuard, true);
  window.tabGuard = window.tabTarget = undefined;
  return target === document.activeElement;
}"""


def tab_to(page, selector: str, limit: int = 40) -> None:
    """Press Tab until the element matching `selector` has the focus; fail if it never does.

    Every Tab is a real key press; they go out in runs as long as the page's guess of the distance (TAB_GUARD), and
    the focus is looked at after each run instead of after each key (a round trip to the browser less per Tab)."""
    target = page.locator(selector)
    page.wait_for_load_state("load")
    keyboard = getattr(page.keyboard, "plain", page.keyboard)  # the page has loaded: no wait before each key
    pressed = 0
    try:
        while (away := target.evaluate(TAB_GUARD)) and pressed < limit:
            for _ in range(min(away, limit - pressed)):
                keyboard.press("Tab")
            pressed += away
    finally:
        reached = target.evaluate(TAB_GUARD_OFF)
    if not reached:
        raise AssertionError(f"{selector} never received the keyboard focus")


def start_tournament_by_keyboard(page, base_url: str, user, *, name: str, game: str, venue: str,
                                 day: str = "12052026") -> None:
    """Log in and fill the new-tournament form by keyboard: the name, the game picked by typing its first letters,
    the date (headless Chromium's date field is mm/dd/yyyy), the venue. Leaves the focus in the venue field, so
    that a caller can go on to more fields or press Enter."""
    login_by_keyboard(page, base_url, user, "/manage/new/")
    expect(page.locator("#id_name")).to_be_focused()
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    page.keyboard.type(game)
    page.keyboard.press("Tab")
    page.keyboard.type(day)
    tab_to(page, "#id_venue")
    page.keyboard.type(venue)


def new_phone(browser):
    """A player's phone in the hall: a touch screen of 390×844 in its own browser context (`phone.context`, to
    drop the network or to close it at the end)."""
    from tests.browser.conftest import ACTION_TIMEOUT

    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  locale="en-GB")
    phone = context.new_page()
    phone.set_default_timeout(ACTION_TIMEOUT)
    return phone


def keyboard_phone(browser):
    """A phone-wide window (390×844) worked by keyboard (a phone with a Bluetooth keyboard, or a screen reader's),
    in its own browser context (`phone.context`, closed at the end)."""
    from tests.browser.conftest import ACTION_TIMEOUT

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    phone = context.new_page()
    phone.set_default_timeout(ACTION_TIMEOUT)
    return phone


def axe_violations(page) -> list[str]:
    """What axe-core finds wrong on the page (the copy axe-playwright-python installs: nothing from the network),
    as "rule: [the first elements]"; [] when it is clean."""
    from axe_playwright_python.sync_playwright import Axe

    return [f"{v['id']}: {[node['target'] for node in v['nodes']][:3]}"
            for v in Axe().run(page).response["violations"]]


def confirm_the_last_from_the_board(page) -> None:
    """On the round's board with one entry awaiting confirmation: Enter opens it, Enter confirms it; back on the
    board, the focus is on "No entry awaits your confirmation." (a keyboard user knows where he is)."""
    expect(page.locator("#confirm-next")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-entry")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_contain_text("Round board: ")
    expect(page.locator("#confirm-none")).to_be_focused()
