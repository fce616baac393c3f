"""The still-missing box on the Schafkopf entry page, in a real browser (with SCREENSHOTS=1 a screenshot in
test-artifacts)."""

import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf import services
from scoring.seated.queries import seated_tables
from tests.browser.conftest import ARTIFACTS, browser  # noqa: F401
from tests.browser.helpers import keep_screenshot, login_by_keyboard

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_still_missing_box_on_the_entry_page(drawn, director, live_server, browser, a_list):  # noqa: F811
    table = seated_tables(drawn)[1][0]
    services.enter_sheet(table.seats[0].table, by=director, mode="games", entries=a_list())
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(60_000)
    login_by_keyboard(page, live_server.url, director)
    expect(page.locator("header.top")).to_contain_text("director", timeout=60_000)
    page.goto(f"{live_server.url}/manage/{drawn.slug}/schafkopf/rounds/1/")
    box = page.locator("#still-missing")
    expect(box).to_contain_text("Still missing in round 1", timeout=60_000)
    expect(box.locator("#missing-tables")).to_contain_text("Not entered (3 tables)")
    keep_screenshot(page, ARTIFACTS / "state-still-missing.png", full_page=True)
    context.close()
