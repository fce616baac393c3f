"""A Voms table sends its slip from a phone (390 x 844): the connection drops while it is typed and sent, the
typing is kept, it is sent once back online, the referee table confirms it with one key, the standings move."""

import pytest
from playwright.sync_api import expect

from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_match_links, token_of
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, new_phone, tab_to
from tournament.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap_and_type(phone, name: str, text: str) -> None:
    phone.locator(f"input[name={name}]").tap()
    phone.keyboard.type(text)


def test_a_table_sends_its_slip_from_a_phone_offline_then_online_and_the_referee_table_confirms_it(
        live_server, browser, page, drawn, director):
    match = Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False) \
        .select_related("team_a", "team_b").order_by("table_number").first()
    token = token_of(issue_match_links(drawn, [match], by=director)[0])
    address = f"{live_server.url}/t/{token}/"
    phone = new_phone(browser)
    context = phone.context
    try:
        phone.goto(address)
        expect(phone.locator(".ph-teams li")).to_have_count(2)
        expect(phone.locator(".ph-teams")).to_contain_text(match.team_a.name)
        tap_and_type(phone, "g1-lus_a", "9")
        context.set_offline(True)  # the hall's network drops while the slip is typed
        tap_and_type(phone, "g1-lus_b", "4")
        phone.locator("label.ph-choice", has_text=match.team_a.name).tap()
        keep_screenshot(phone, ARTIFACTS / "table-link-voms-phone-typed.png", full_page=True)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        box = phone.locator("#ph-send").bounding_box()
        assert box["height"] >= 44 and box["width"] >= 300, "a target for one thumb"
        phone.locator("#ph-send").tap(no_wait_after=True)  # sent while offline: it cannot arrive
        expect(phone.locator("#ph-offline")).to_be_visible()  # said on the page; nothing left the phone
        assert not PendingSheet.objects.exists()
        context.set_offline(False)
        phone.goto(address)  # back online, the page opened again: the typing is still there
        expect(phone.locator("input[name=g1-lus_a]")).to_have_value("9")
        expect(phone.locator("input[name=g1-lus_b]")).to_have_value("4")
        expect(phone.locator("input[name=g1-winner][value=a]")).to_be_checked()
        phone.locator("#ph-send").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        assert PendingSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 4, "winner": "a"}]
        assert phone.evaluate("Object.keys(window.localStorage).length") == 0

        login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/voms/enter/?round=1")
        expect(page.locator("#pending-slips")).to_contain_text("the table, from its link")
        tab_to(page, "#pending-slips button")
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("the slip is confirmed and counts now")
        assert ScoreSheet.objects.get().derived["games"][0]["points_a"] == "2"
        page.goto(f"{live_server.url}/manage/{drawn.slug}/voms/standings/")
        first = page.locator("table tbody tr").first
        expect(first).to_contain_text(match.team_a.name)
        expect(first).to_contain_text("2")

        phone.reload()
        expect(phone.locator("#counted")).to_be_visible()
        expect(phone.locator("#ph-counted-games")).to_contain_text("9")
        expect(phone.locator("#ph-send")).to_have_count(0)
        keep_screenshot(phone, ARTIFACTS / "table-link-voms-phone-counted.png", full_page=True)
    finally:
        context.close()


def test_a_refused_slip_keeps_its_winner_choice_from_the_lus(live_server, browser, drawn, director):
    """5:4 sent by the steppers is refused (nobody has 9); the page shown again had no winner choice ticked any more:
    the phone's kept typing put back every radio but a chosen one with an empty value ("from the lus")."""
    match = Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False) \
        .order_by("table_number").first()
    token = token_of(issue_match_links(drawn, [match], by=director)[0])
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        expect(phone.locator("input[name=g1-winner][value='']")).to_be_checked()
        for _ in range(5):
            phone.get_by_role("button", name="One lus more for team A").tap()
        for _ in range(4):
            phone.get_by_role("button", name="One lus more for team B").tap()
        phone.locator("#ph-send").tap()
        expect(phone.locator("#ph-slip")).to_contain_text("Neither team has 9 lus (5:4)")
        expect(phone.locator("input[name=g1-lus_a]")).to_have_value("5")
        expect(phone.locator("input[name=g1-winner][value='']")).to_be_checked()
        phone.reload()  # and kept on the phone as typed
        expect(phone.locator("input[name=g1-lus_b]")).to_have_value("4")
        expect(phone.locator("input[name=g1-winner][value='']")).to_be_checked()
        assert not PendingSheet.objects.exists()
    finally:
        phone.context.close()
