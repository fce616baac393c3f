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
