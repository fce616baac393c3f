"""Real browser: the season ranking's picture on the director's season page and on the public season page of a
390 px phone, axe-core clean, its numbers opened by keyboard. Screenshots in test-artifacts/charts-season-*.png
with SCREENSHOTS=1."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import axe_violations, keep_screenshot, keyboard_phone, login_by_keyboard, tab_to
from tournament.models import Season
from tournament.services import seasons

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def season(director, evening, names):
    season = seasons.create_season(by=director, name="Season 2026", game="schafkopf", scoring=Season.Scoring.PLACES,
                                   place_points=["10", "8", "6", "5", "4", "3", "2", "1"], best_of=3, language="en")
    for day, seed in ((10, 1), (17, 2), (24, 3), (31, 4)):
        evening(day, names, season=season, seed=seed)
    seasons.set_season_published(season, True, by=director)
    return season


def test_the_season_picture_on_screen_and_on_a_phone(live_server, browser, page, director, season):
    login_by_keyboard(page, live_server.url, director, season.get_absolute_url())
    chart = page.locator("#season-chart")
    expect(chart.locator("svg[role=img] polyline")).to_have_count(8)
    tab_to(page, "#season-chart summary")
    page.keyboard.press("Enter")
    expect(chart.locator("details table tbody tr")).to_have_count(8)
    assert axe_violations(page) == []
    keep_screenshot(chart, ARTIFACTS / "charts-season-director.png")

    phone = keyboard_phone(browser)
    try:
        phone.goto(live_server.url + reverse("public:season", args=[season.slug]))
        expect(phone.locator("#season-chart svg[role=img]")).to_be_visible()
        assert phone.locator("#season-chart svg[role=img]").bounding_box()["width"] <= 390
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "charts-season-phone.png", full_page=True)
    finally:
        phone.context.close()
