"""Real browser, by keyboard: the club's admin makes an API token on the club's server (a process of its own), the
laptop's director enters it on the laptop's "Club server" page, and the tournament page's button sends the evening;
the page says what happened. Then the server is gone (offline at the venue): the page says nothing was sent."""

from __future__ import annotations

import json
import re
import urllib.request
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from scoring.games import get_game
from tests.browser.conftest import ARTIFACTS, browser, page  # noqa: F401  (real-browser fixtures)
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of, tab_to
from tests.hostile.conftest import demo_options
from tests.ops.test_serving import free_port
from tournament.models import ApiToken, ClubServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(target, name):
    keep_screenshot(target, ARTIFACTS / f"push_{name}.png", full_page=True)


def test_a_token_made_on_the_server_lets_the_laptops_button_send_the_evening(
        club_server_process, live_server, page, browser, director):  # noqa: F811
    server = club_server_process
    game = get_game("schafkopf")
    evening = game.demo(director, **demo_options(game, results=True))

    # on the club's server: its admin makes a token for the laptop
    login_by_keyboard(page, server["url"], SimpleNamespace(username="boss", raw_password="pw-Boss-12345"))
    tab_to(page, "header a[href='/manage/club/']")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Server club")
    tab_to(page, "#token-name")
    page.keyboard.type("Laptop at the venue")
    page.keyboard.press("Tab")
    expect(page.locator("#token-scopes_0")).to_be_focused()
    expect(page.locator("#token-scopes_0")).to_be_checked()  # "Send tournament files", offered ticked
    tab_to(page, "button:has-text('Make the token')")
    page.keyboard.press("Enter")
    shown = page.locator("#new-token")
    expect(shown).to_be_focused()
    token = shown.input_value()
    assert token.startswith("tmk_")
    tab_to(page, "button[data-copy='new-token']")
    page.keyboard.press("Enter")
    expect(page.locator("#new-token-copied")).to_be_visible()
    expect(page.locator("table.grid").nth(1)).to_contain_text("Laptop at the venue")
    shot(page, "token_made")
    page.goto(server["url"] + "/manage/club/")
    expect(page.locator("#new-token")).to_have_count(0)  # shown once

    with page_of(browser) as laptop:  # the director's laptop at the venue
        login_by_keyboard(laptop, live_server.url, director, evening.get_absolute_url())
        tab_to(laptop, "a:has-text(\"Set up the club's server\")")
        laptop.keyboard.press("Enter")
        expect(laptop.get_by_role("heading", level=1)).to_have_text("Club server")
        tab_to(laptop, "#id_url")
        laptop.keyboard.type(server["url"])
        laptop.keyboard.press("Tab")
        laptop.keyboard.type(token)
        laptop.keyboard.press("Enter")
        expect(laptop.locator(".messages")).to_contain_text("Changes saved.")
        expect(laptop.locator("dl.facts")).to_contain_text(token[:8] + "…")
        expect(laptop.locator("body")).not_to_contain_text(token)  # masked
        shot(laptop, "club_server")

        laptop.goto(live_server.url + evening.get_absolute_url())
        tab_to(laptop, "button:has-text(\"Send to the club's server\")")
        laptop.keyboard.press("Enter")
        expect(laptop.locator(".messages")).to_contain_text("Sent to the club's server: it made the tournament there")
        # the server's copy is a link to it
        expect(laptop.locator(".messages a")).to_have_attribute("href", re.compile("^" + re.escape(server["url"])))
        shot(laptop, "sent")
        tab_to(laptop, "button:has-text(\"Send to the club's server\")")
        laptop.keyboard.press("Enter")
        expect(laptop.locator(".messages")).to_contain_text("it updated its copy of the tournament")

        # offline at the venue: the server's address answers no more
        ClubServer.objects.update(url=f"http://127.0.0.1:{free_port()}")
        tab_to(laptop, "button:has-text(\"Send to the club's server\")")
        laptop.keyboard.press("Enter")
        expect(laptop.locator(".messages")).to_contain_text(
            "The club's server cannot be reached; nothing was sent. Try again when online.")
        shot(laptop, "offline")

    request = urllib.request.Request(server["url"] + "/api/v1/club",
                                     headers={"Authorization": f"Bearer {server['token']}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        on_server = json.loads(response.read())["tournaments"]
    assert [t["uid"] for t in on_server].count(str(evening.uid)) == 1
    assert not ApiToken.objects.exists()  # the laptop holds no server's token row: it has its "Club server" only
    assert re.fullmatch(r"tmk_[\w-]{43}", token)
