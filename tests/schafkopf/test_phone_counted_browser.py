"""The phone page of a counted Schafkopf list (390 px wide): the scrolling region of its games takes the focus
(nothing in it does once the list counts), so a keyboard reaches the points by Tab and the arrow keys."""

import random

import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf import services
from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.demo import random_list
from scoring.results.links import issue_links, token_of
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.browser.helpers import keyboard_phone, tab_to
from tournament.models import Round

from .conftest import register_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_counted_schafkopf_list_scrolls_by_keyboard(live_server, browser, schafkopf, director):
    register_players(schafkopf, director, 4)
    seated_services.draw_seating(schafkopf, by=director, seed=1)
    table = seated_tables(schafkopf)[1][0]
    entries = random_list(random.Random(3), settings_of(schafkopf).games_at(4), 4)
    services.enter_sheet(table.seats[0].table, by=director, mode="games", entries=entries)
    link = issue_links(Round.objects.get(stage__tournament=schafkopf, number=1), by=director)[0]
    phone = keyboard_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token_of(link)}/")
        region = phone.locator(".ph-scroll")
        expect(region).to_have_accessible_name("Games of the score list")
        assert region.evaluate("el => el.scrollWidth > el.clientWidth"), "the games are wider than the phone"
        tab_to(phone, ".ph-scroll")
        for _ in range(8):
            phone.keyboard.press("ArrowRight")
        assert region.evaluate("el => el.scrollLeft") > 0, "the arrow keys scroll the focused region"
    finally:
        phone.context.close()
