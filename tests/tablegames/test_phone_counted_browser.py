"""The phone page of a counted table (390 px wide): its hands scroll sideways and nothing in them takes the focus
any more, so the scrolling region itself does (axe: scrollable-region-focusable): a keyboard reaches it by Tab,
hears its name and scrolls it with the arrow keys to the points and totals."""

import pytest
from playwright.sync_api import expect

from scoring.results.links import issue_links, token_of
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.browser.helpers import keyboard_phone, tab_to
from tournament.models import Round

from .helpers import enter_rummi_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_counted_rummi_sheet_scrolls_by_keyboard(live_server, browser, make_game, add_players, director):

    rummi = make_game("rummi")
    add_players(rummi, 4)
    seated_services.draw_seating(rummi, by=director, seed=1)
    table = seated_tables(rummi)[1][0]
    enter_rummi_game(table, director)
    link = issue_links(Round.objects.get(stage__tournament=rummi, number=1), by=director)[0]
    phone = keyboard_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token_of(link)}/")
        expect(phone.locator("#counted")).to_be_visible()
        region = phone.locator(".ph-scroll")
        expect(region).to_have_attribute("role", "region")
        expect(region).to_have_accessible_name("Hands of the score sheet")
        assert region.evaluate("el => el.scrollWidth > el.clientWidth"), "the hands are wider than the phone"
        assert region.evaluate("el => !el.querySelector('input:not([disabled]), button, a[href]')")
        tab_to(phone, ".ph-scroll")
        for _ in range(8):
            phone.keyboard.press("ArrowRight")
        assert region.evaluate("el => el.scrollLeft") > 0, "the arrow keys scroll the focused region"
    finally:
        phone.context.close()
