"""Real browser: a club's admin invites a director by keyboard; the new director chooses a password through the
one-time link and creates a tournament, which is the club's."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of, start_tournament_by_keyboard, tab_to
from tournament.models import MemberRole, Role, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page, name):
    keep_screenshot(page, ARTIFACTS / f"clubs_{name}.png", full_page=True)


def test_an_admin_invites_a_director_who_sets_a_password_and_creates_a_tournament(live_server, page, browser, clubs):
    a = clubs.a
    a.admin.raw_password = "pw-admin_a-1"
    login_by_keyboard(page, live_server.url, a.admin)
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))

    tab_to(page, "header a[href='/manage/club/']")  # the top bar links the club page on a server of clubs
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("SK Isartal")
    tab_to(page, "#id_username")
    page.keyboard.type("nina")
    page.keyboard.press("Tab")
    page.keyboard.type("Nina")
    page.keyboard.press("Tab")
    page.keyboard.type("Neu")
    page.keyboard.press("Tab")
    expect(page.locator("#id_role")).to_be_focused()  # a director, the role offered first
    tab_to(page, "button:has-text('Invite')")
    page.keyboard.press("Enter")
    link = page.locator("#password-link")
    expect(link).to_be_focused()
    expect(page.locator(".messages")).to_contain_text("nina is a member of the club now")
    expect(page.locator("table.grid").first).to_contain_text("Nina Neu")
    shot(page, "invited")
    address = link.input_value()
    assert address.startswith(live_server.url + "/accounts/password/")

    with page_of(browser) as own:  # the new director, on her own device
        own.goto(address)
        tab_to(own, "#id_new_password1")
        own.keyboard.type("Nina-waehlt-7-Worte")
        own.keyboard.press("Tab")
        own.keyboard.type("Nina-waehlt-7-Worte")
        own.keyboard.press("Enter")
        expect(own).to_have_url(re.compile(r"/accounts/login/"))
        expect(own.locator(".messages")).to_contain_text("Your password is set")
        shot(own, "password_set")
        nina = SimpleNamespace(username="nina", raw_password="Nina-waehlt-7-Worte")
        start_tournament_by_keyboard(own, live_server.url, nina, name="Ninas Abend", game="Schafkopf",
                                     venue="Vereinsheim")
        own.keyboard.press("Enter")
        expect(own.get_by_role("heading", level=1)).to_contain_text("Ninas Abend")
        expect(own.locator("header")).not_to_contain_text("Club")  # a director manages no members
        shot(own, "tournament")
        own.goto(address)
        expect(own.get_by_role("alert")).to_contain_text("used up")  # the link opens once

    tournament = Tournament.objects.get(name="Ninas Abend")
    assert tournament.organisation == a.club
    assert tournament.roles.get().user.username == "nina" and tournament.roles.get().role == Role.DIRECTOR
    assert a.club.memberships.get(user__username="nina").role == MemberRole.DIRECTOR
