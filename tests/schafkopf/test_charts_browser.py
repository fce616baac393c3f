"""The pictures in a real browser (issue 27): the round board's results arriving, the standings round by round on
the director's page, on a 390 px phone (the top, and the player found by "find my seat") and on the beamer. Each page
carrying a picture is axe-core clean, and the numbers behind a picture open by keyboard alone. Screenshots land in
test-artifacts/charts-*.png with SCREENSHOTS=1."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.games.schafkopf import services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import axe_violations, keep_screenshot, keyboard_phone, login_by_keyboard, page_of, tab_to
from tournament.models import Table
from tournament.services.publishing import set_publication

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def evening(drawn, director, a_list):
    """Round 1 fully entered, round 2 half: a board with arrivals and a ranking over two rounds."""
    for round_number, tables in ((1, (1, 2, 3, 4)), (2, (1, 2))):
        for number in tables:
            table = Table.objects.get(round__stage__tournament=drawn, round__number=round_number, number=number)
            services.enter_sheet(table, by=director, mode="games",
                                 entries=a_list(30, 4, seed=round_number * 10 + number))
    set_publication(drawn, by=director, kinds=("schedule", "standings"))
    return drawn


def test_the_director_sees_the_pictures_and_opens_their_numbers_by_keyboard(live_server, browser, director, evening):
    with page_of(browser) as page:
        board = reverse("tournament:schafkopf:board_part", args=[evening.slug, "1"])
        login_by_keyboard(page, live_server.url, director, board)
        expect(page.locator("#arrivals svg[role=img]")).to_be_visible()
        assert axe_violations(page) == []
        keep_screenshot(page, ARTIFACTS / "charts-board.png", full_page=True)

        page.goto(live_server.url + reverse("tournament:schafkopf:standings", args=[evening.slug]))
        chart = page.locator("#progression")
        expect(chart.locator("svg[role=img] polyline")).to_have_count(8)
        numbers = chart.locator("details.chart-numbers")
        expect(numbers.locator("table")).to_be_hidden()
        tab_to(page, "#progression summary")
        page.keyboard.press("Enter")
        expect(numbers.locator("table")).to_be_visible()
        expect(numbers.locator("tbody tr")).to_have_count(8)
        assert axe_violations(page) == []
        keep_screenshot(chart, ARTIFACTS / "charts-standings-director.png")


def test_a_phone_sees_the_top_and_itself_round_by_round(live_server, browser, evening):
    phone = keyboard_phone(browser)
    try:
        phone.goto(live_server.url + reverse("public:standings", args=[evening.slug]))
        expect(phone.locator("#progression svg[role=img]")).to_be_visible()
        box = phone.locator("#progression svg[role=img]").bounding_box()
        assert box["width"] <= 390  # it fits the phone: nothing to scroll sideways
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "charts-standings-phone.png")

        phone.goto(live_server.url + reverse("public:seat", args=[evening.slug]) + "?q=16")
        expect(phone.locator("#progression .chart-me")).to_be_visible()
        tab_to(phone, "#progression summary")
        phone.keyboard.press("Enter")
        expect(phone.locator("#progression details table")).to_be_visible()
        assert axe_violations(phone) == []
        keep_screenshot(phone.locator("#progression"), ARTIFACTS / "charts-me-phone.png")
    finally:
        phone.context.close()


def test_the_beamer_shows_the_picture_as_one_of_its_pages(live_server, browser, evening):
    with page_of(browser, width=1920, height=1080) as beamer:
        beamer.goto(live_server.url + reverse("public:beamer", args=[evening.slug]))
        slide = beamer.locator("section.slide", has=beamer.locator("#progression"))
        expect(slide).to_have_count(1)
        # shown in turn by the beamer's script; brought forward here rather than waiting for its turn
        beamer.evaluate("""() => document.querySelectorAll('section.slide').forEach(
            s => { s.hidden = !s.querySelector('#progression'); })""")
        expect(slide.locator("svg[role=img]")).to_be_visible()
        # the whole picture and its legend on the screen, above the footer with the address
        legend = slide.locator(".chart-legend").bounding_box()
        assert legend["y"] + legend["height"] <= beamer.locator(".beamer-foot").bounding_box()["y"]
        assert axe_violations(beamer) == []
        keep_screenshot(beamer, ARTIFACTS / "charts-beamer.png")


@pytest.mark.parametrize("width, height", [(1920, 1080), (1280, 720)])
def test_the_beamers_picture_takes_the_height_the_screen_leaves_it(live_server, browser, evening, width, height):
    # it was half the screen's height, with a third of the screen empty below its legend (issue 27)
    with page_of(browser, width=width, height=height) as beamer:
        beamer.goto(live_server.url + reverse("public:beamer", args=[evening.slug]))
        beamer.evaluate("""() => document.querySelectorAll('section.slide').forEach(
            s => { s.hidden = !s.querySelector('#progression'); })""")
        slide = beamer.locator("section.slide", has=beamer.locator("#progression"))
        picture = slide.locator("svg[role=img]")
        expect(picture).to_be_visible()
        legend = slide.locator(".chart-legend").bounding_box()
        foot = beamer.locator(".beamer-foot").bounding_box()
        box = picture.bounding_box()
        assert legend["y"] + legend["height"] <= foot["y"]  # the whole picture and its legend on the screen
        free = foot["y"] - slide.locator("h2").bounding_box()["y"]  # under the slide's heading, above the footer
        assert box["height"] >= 0.7 * free, (box, free)
        keep_screenshot(beamer, ARTIFACTS / f"charts-beamer-{width}.png")
