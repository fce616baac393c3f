"""The standings page fits a laptop's 1366 pixels in Danish with a long club (Chromium, no live server: the page and
its static files are served to the browser from the test client and the static folders)."""

import pytest
from django.urls import reverse

from scoring.seated import services as seated_services
from tests.browser.conftest import browser  # noqa: F401
from tests.browser.helpers import served_page
from tournament.services.participants import add_participant

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_the_danish_standings_fit_1366_pixels_with_a_long_club(make_game, add_players, director, client, browser):  # noqa: F811
    tournament = make_game("quadominos")
    add_players(tournament, 3)
    add_participant(tournament, by=director, number=4, first_name="Erik", last_name="Nielsen-Bøgh",
                    club="Dansk Quad-Ominos Klub Nordvestsjælland og Omegn")
    seated_services.draw_seating(tournament, by=director, seed=3)
    client.force_login(director)
    client.cookies["django_language"] = "da"
    page_url = reverse("tournament:tablegames:standings", args=[tournament.slug])
    html = client.get(page_url).content.decode()
    assert "Dansk Quad-Ominos Klub" in html

    with served_page(browser, page_url, html, width=1366, height=768) as page:
        box = page.locator(".seated-scroll")
        widths = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1], widths
