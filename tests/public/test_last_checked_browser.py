"""The public pages' "Last checked" time in the language's own time format (Django's TIME_FORMAT, handed to the
page's script): 12-hour with a.m./p.m. in English, 24-hour in German and Danish, like every other time."""

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT, ARTIFACTS
from tests.browser.helpers import keep_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: 19:05:09 on the phone's clock
EVENING = datetime.datetime(2026, 11, 28, 18, 5, 9, tzinfo=datetime.UTC)


@pytest.mark.parametrize("language,shown", [("en", "Last checked 7:05:09 p.m."), ("de", "19:05:09")])
def test_last_checked_follows_the_languages_time_format(live_server, browser, voms, publish, language, shown):
    publish(voms, "schedule")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB",
                                  timezone_id="Europe/Berlin")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    page.clock.set_fixed_time(EVENING)
    page.goto(f"{live_server.url}/p/{voms.slug}/schedule/")
    expect(page.locator("[data-checked]")).to_contain_text(shown)
    keep_screenshot(page, ARTIFACTS / f"polish-last-checked-{language}.png", full_page=True)
    context.close()


def test_last_checked_is_the_venues_time_on_a_phone_abroad(live_server, browser, voms, publish):
    """The clock is the venue's: a visitor in New York reads the hall's 19:05:09, not the phone's 13:05:09."""
    voms.time_zone = "Europe/Berlin"
    voms.save(update_fields=["time_zone"])
    publish(voms, "schedule")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                  timezone_id="America/New_York")
    context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    page.clock.set_fixed_time(EVENING)
    page.goto(f"{live_server.url}/p/{voms.slug}/schedule/")
    expect(page.locator("[data-checked]")).to_contain_text("19:05:09")
    context.close()
