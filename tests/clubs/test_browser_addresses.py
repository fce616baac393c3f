"""Real browser: on a server of two clubs, club B's director works under his club's address (/c/<club>/…) by
keyboard: he creates a tournament of the same name as club A's, and opens its public page; every link he follows
stays in his club."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, tab_to
from tournament.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page, name):
    keep_screenshot(page, ARTIFACTS / f"clubaddr_{name}.png", full_page=True)


def test_a_director_creates_a_tournament_and_opens_its_public_page_under_his_club_s_address(live_server, page, clubs):
    a, b = clubs.a, clubs.b
    prefix = f"/c/{b.club.slug}"
    director = SimpleNamespace(username=b.director.username, raw_password="pw-director_b-1")
    login_by_keyboard(page, live_server.url, director, f"{prefix}/manage/new/")
    expect(page).to_have_url(re.compile(rf"{prefix}/manage/new/$"))
    expect(page.locator("#id_name")).to_be_focused()
    page.keyboard.type(a.tournament.name)  # club A has a tournament of this name and short name
    page.keyboard.press("Tab")
    page.keyboard.type("Schafkopf")
    page.keyboard.press("Tab")
    page.keyboard.type("12052026")
    tab_to(page, "#id_venue")
    page.keyboard.type("Moosach")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"{prefix}/manage/{a.tournament.slug}/"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(a.tournament.name)
    shot(page, "director")
    ours = Tournament.objects.of(b.club).get(slug=a.tournament.slug)
    assert ours.pk != a.tournament.pk and ours.venue == "Moosach"
    # every link of the director's pages stays in club B
    links = page.eval_on_selector_all("main a[href^='/']", "els => els.map(e => e.getAttribute('href'))")
    assert links and all(link.startswith(f"{prefix}/") for link in links), links
    Tournament.objects.filter(pk=ours.pk).update(publish_schedule=True, publish_standings=True)
    page.goto(f"{live_server.url}{prefix}/p/{ours.slug}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(a.tournament.name)
    expect(page.locator("body")).to_contain_text("Moosach")
    assert page.eval_on_selector("link[rel=stylesheet]", "l => l.sheet !== null")  # the static files still load
    shot(page, "public")
