"""The referee table's pages on a phone (390 x 844, issue 27): the page itself never scrolls sideways. A score list's
grid (a 5-player table with its Laufende column is about 950 px wide) scrolls inside its own region; the round's
list of tables fits."""

import dataclasses

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.games.schafkopf import services
from scoring.games.schafkopf.config import settings_of
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of
from tournament.models import Table

from .conftest import register_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_WIDTH = "document.documentElement.scrollWidth"


@pytest.fixture
def four_and_five(schafkopf, director, a_list):
    """Nine players: a table of four and one of five, counting the Laufende; table 1's list entered."""
    settings = settings_of(schafkopf)
    settings = dataclasses.replace(settings, tariff=dataclasses.replace(settings.tariff, laufende_from=3))
    seated_services.update_settings(schafkopf, settings, by=director)
    register_players(schafkopf, director, 9)
    seated_services.draw_seating(schafkopf, by=director, seed=7)
    table = Table.objects.get(round__stage__tournament=schafkopf, round__number=1, number=1)
    size = table.seats.count()
    services.enter_sheet(table, by=director, mode="games", entries=a_list(settings.games_at(size), size, seed=3))
    return schafkopf


def test_the_referee_pages_fit_a_phone_and_the_list_scrolls_in_its_own_region(live_server, browser, director,
                                                                                four_and_five):
    slug = four_and_five.slug
    with page_of(browser) as page:
        login_by_keyboard(page, live_server.url, director, reverse("tournament:schafkopf:overview", args=[slug]))
        expect(page.locator("h1")).to_contain_text("Schafkopf cup")
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(live_server.url + reverse("tournament:schafkopf:round", args=[slug, 1]))
        expect(page.locator("h1")).to_have_text("Score lists of round 1")
        assert page.evaluate(PAGE_WIDTH) <= 391
        keep_screenshot(page, ARTIFACTS / "phone-width-round.png", full_page=True)
        for number in (1, 2):
            page.goto(live_server.url + reverse("tournament:schafkopf:sheet", args=[slug, 1, number]))
            grid = page.locator("table.sk-grid")
            expect(grid).to_be_visible()
            assert page.evaluate(PAGE_WIDTH) <= 391
            assert grid.bounding_box()["width"] > 390  # the grid keeps its width: its region scrolls
            keep_screenshot(page, ARTIFACTS / f"phone-width-list-{number}.png", full_page=True)
        page.locator("input[name=t1]").focus()  # typing reaches the grid as before, the region scrolls to it
        expect(page.locator("input[name=t1]")).to_be_focused()
