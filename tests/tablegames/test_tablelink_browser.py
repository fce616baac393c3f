"""A domino table enters its hands on a phone (390 x 844): the connection drops while they are typed and sent,
the typing is kept, the sheet is sent once back online, the referee table confirms it with one key, the
standings move."""

import pytest
from playwright.sync_api import expect

from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_links, token_of
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, new_phone, tab_to
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap_and_type(phone, name: str, text: str) -> None:
    phone.locator(f"input[name='{name}']").tap()
    phone.keyboard.type(text)


def type_hand(phone, number: int, out: int, pips: list[int]) -> None:
    tap_and_type(phone, f"h{number}-out", str(out))
    for seat, value in enumerate(pips, 1):
        tap_and_type(phone, f"h{number}-pips-{seat}", str(value))


def test_a_domino_table_sends_its_sheet_from_a_phone_offline_then_online_and_it_is_confirmed(
        live_server, browser, page, domino_of_four, director):
    round_ = Round.objects.get(stage__tournament=domino_of_four, number=1)
    link = issue_links(round_, by=director)[0]
    address = f"{live_server.url}/t/{token_of(link)}/"
    phone = new_phone(browser)
    context = phone.context
    try:
        phone.goto(address)
        expect(phone.locator(".ph-seats li")).to_have_count(4)
        type_hand(phone, 1, 1, [0, 10, 20, 30])
        context.set_offline(True)  # the network drops between two hands
        type_hand(phone, 2, 1, [0, 15, 15, 15])
        keep_screenshot(phone, ARTIFACTS / "table-link-domino-phone-typed.png", full_page=True)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, "only the grid scrolls sideways"
        phone.locator("#ph-send").tap(no_wait_after=True)
        expect(phone.locator("#ph-offline")).to_be_visible()  # said on the page; nothing left the phone
        assert not PendingSheet.objects.exists()
        context.set_offline(False)
        phone.goto(address)
        expect(phone.locator("input[name='h1-pips-4']")).to_have_value("30")
        expect(phone.locator("input[name='h2-pips-2']")).to_have_value("15")
        phone.locator("#ph-send").tap()
        expect(phone.locator("#sent-note")).to_be_in_viewport()  # where the table looks after sending
        keep_screenshot(phone, ARTIFACTS / "table-link-domino-phone-sent.png")
        # said once: the note, no message repeating it above
        expect(phone.locator("[role=status]:visible, [role=alert]:visible")).to_have_count(1)
        expect(phone.locator(".ph-total").first).to_have_text("105")
        assert len(PendingSheet.objects.get().entries) == 2

        login_by_keyboard(page, live_server.url, director,
                          f"/manage/{domino_of_four.slug}/table/rounds/1/tables/1/")
        expect(page.locator("#pending-note")).to_contain_text("sent by the table")
        tab_to(page, "#confirm-entry")
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("The sheet is confirmed and counts now.")
        assert ScoreSheet.objects.get().derived["finished"]
        page.goto(f"{live_server.url}/manage/{domino_of_four.slug}/table/standings/")
        first = page.locator("table tbody tr").first
        expect(first).to_contain_text(link.table.seats.get(number=1).participant.last_name)

        phone.reload()
        expect(phone.locator("#counted")).to_be_visible()
        expect(phone.locator("#ph-send")).to_have_count(0)
    finally:
        context.close()
