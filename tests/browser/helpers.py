"""Keyboard helpers shared by the real-browser tests."""

from playwright.sync_api import expect


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


def tab_to(page, selector: str, limit: int = 40) -> None:
    """Press Tab until the element matching `selector` has the focus; fail if it never does."""
    target = page.locator(selector)
    for _ in range(limit):
        if target.evaluate("el => el === document.activeElement"):
            return
        page.keyboard.press("Tab")
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
