"""The first start in a real browser, by keyboard: the start page leads to the one-time set-up page, the director
chooses a password, the demo is made, and the hall page's switch lets the phones in (config.serving's restart is
mocked: the live server runs in this process; the restarted server is the hall setting turned on), then shows the
address, its QR code and the poster."""

import pytest
from playwright.sync_api import expect

from config import serving
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot
from tests.pdf_text import page_texts
from tournament import hall
from tournament.services import first_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Kartenabend-2026!"
SHOTS = ARTIFACTS / "first-start"


@pytest.fixture
def first_start_server(live_server, settings, monkeypatch):
    """A server started by the console command on an empty data folder: set-up in the browser, no account, the
    hall off. One game's demo only (every game's is made by the view tests), to keep the test short."""
    settings.SETUP_IN_BROWSER = True
    settings.HALL = False
    settings.PUBLIC_BASE_URL = ""
    monkeypatch.setattr(first_start, "demo_games", lambda: [game for game in first_start.all_games()
                                                            if game.key == "voms"])
    monkeypatch.setattr(hall, "local_addresses", lambda: ["192.168.1.20"])
    calls = []
    monkeypatch.setattr(serving, "set_hall", lambda on: calls.append(("set_hall", on)))
    monkeypatch.setattr(serving, "request_restart", lambda: calls.append(("request_restart",)) or True)
    live_server.switch_calls = calls
    return live_server


def test_first_start_set_up_demo_and_hall(first_start_server, page, settings):
    server = first_start_server
    port = server.url.rsplit(":", 1)[1]
    page.goto(server.url + "/")
    # the start page leads this computer to the set-up page
    expect(page).to_have_url(server.url + "/setup/")
    expect(page.locator("h1")).to_have_text("Set up the tournament manager")
    expect(page.locator("#id_username")).to_be_focused()
    expect(page.locator("#id_username")).to_have_value("director")
    expect(page.locator("#id_demo")).to_be_checked()
    keep_screenshot(page, SHOTS / "1-setup.png", full_page=True)

    # a password too short: refused, the cursor back in the password field
    page.keyboard.press("Tab")
    page.keyboard.type("short")
    page.keyboard.press("Tab")
    page.keyboard.type("short")
    page.keyboard.press("Enter")
    expect(page.locator(".field.invalid")).to_contain_text("too short")
    expect(page.locator("#id_password1")).to_be_focused()
    keep_screenshot(page, SHOTS / "2-setup-refused.png", full_page=True)

    page.keyboard.type(PASSWORD)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(server.url + "/manage/", timeout=180_000)  # the demo is made meanwhile
    expect(page.locator(".messages")).to_contain_text("you are logged in as director")
    expect(page.locator("table")).to_contain_text("Voms demo")
    keep_screenshot(page, SHOTS / "3-tournaments.png", full_page=True)

    # the set-up page is closed for good: the login page is the way in from now on
    page.goto(server.url + "/setup/")
    expect(page).to_have_url(server.url + "/accounts/login/")

    # the hall page, from the director's menu
    page.goto(server.url + "/manage/")
    page.get_by_role("link", name="Phones in the hall").first.click()
    expect(page.locator("h1")).to_have_text("Phones in the hall")
    expect(page.locator("main")).to_contain_text("Only this computer can open the tournament manager now.")
    expect(page.locator("main")).to_contain_text("allow it for private networks")
    switch = page.get_by_role("button", name="Let phones and other laptops in")
    expect(switch).to_be_focused()
    keep_screenshot(page, SHOTS / "4-hall-off.png", full_page=True)
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Restarting…")
    assert server.switch_calls == [("set_hall", True), ("request_restart",)]
    keep_screenshot(page, SHOTS / "5-restarting.png", full_page=True)

    settings.HALL = True  # the server is back, serving the hall: the waiting page finds out and opens the hall page
    expect(page.locator("h1")).to_have_text("Phones in the hall", timeout=30_000)
    address = f"http://192.168.1.20:{port}"
    expect(page.locator("#hall-address")).to_have_text(address)
    expect(page.locator(".hall-qr svg")).to_be_visible()
    expect(page.locator("#hall-poster")).to_be_focused()  # not the switch: an Enter would shut the phones out
    expect(page.get_by_role("button", name="Only this computer")).to_be_visible()
    keep_screenshot(page, SHOTS / "6-hall-on.png", full_page=True)

    poster = page.locator("#hall-poster")
    response = page.request.get(server.url + poster.get_attribute("href"))
    assert response.headers["content-type"] == "application/pdf"
    text = page_texts(response.body())[0]
    assert address in text and "Åbn denne adresse på din telefon" in text
    if SHOTS.exists():
        (SHOTS / "hall-poster.pdf").write_bytes(response.body())
