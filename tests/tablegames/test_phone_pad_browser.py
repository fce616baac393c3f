"""A domino table enters its hands on a phone (390 x 844) by the number pad only: taps on the pad's keys, no typing.
One player at a time with his name large, the running totals as the keys are tapped, who went out picked by name;
the sheet is sent and the referee table's confirmation shows the same hands."""

import pytest
from playwright.sync_api import expect

from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_links, token_of
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import axe_violations, keep_screenshot, login_by_keyboard, new_phone, tab_to
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Pad:
    """The pad's keys, tapped; `taps` counts them (the figure of docs/performance.md)."""

    def __init__(self, phone):
        self.phone, self.taps = phone, 0

    def key(self, key: str) -> None:
        self.phone.locator(f"#np button[data-key='{key}']").tap()
        self.taps += 1

    def number(self, value: int) -> None:
        for digit in str(value):
            self.key(digit)

    def pick(self, label: str) -> None:
        self.phone.locator("#np-choices button", has_text=label).tap()
        self.taps += 1

    def hand(self, pips: list[int], out: str) -> None:
        for value in pips:
            self.number(value)
            self.key("next")  # next player; after the last, who went out
        self.pick(out)


def test_a_domino_sheet_by_the_number_pad_only_is_sent_and_confirmed(live_server, browser, page, domino_of_four,
                                                                    director):
    link = issue_links(Round.objects.get(stage__tournament=domino_of_four, number=1), by=director)[0]
    seats = {seat.number: seat for seat in link.table.seats.select_related("participant")}
    names = {number: seat.participant.name for number, seat in seats.items()}
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token_of(link)}/")
        pad = Pad(phone)
        expect(phone.locator("#np")).to_be_visible()
        expect(phone.locator("#np-who")).to_have_text(names[1])  # the first player, his name large
        expect(phone.locator("#np-what")).to_have_text("Hand 1 · Pips left")
        assert phone.locator("input[name='h1-pips-1']").get_attribute("inputmode") == "none"  # no phone keyboard
        for key in phone.locator("#np button:visible").all():
            box = key.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, "keys for one thumb"
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390

        for value in (0, 10, 20):
            pad.number(value)
            pad.key("next")
        pad.number(30)
        expect(phone.locator(".np-next")).to_have_text("Next")  # seat 4's pips, then who went out
        pad.key("next")
        expect(phone.locator("#np-who")).to_have_text("Out of tiles (empty: blocked)")
        pad.pick(names[1])
        expect(phone.locator(".np-next")).to_have_text("Next hand")
        # the running totals as the keys are tapped, before anything is sent
        expect(phone.locator("#np-totals")).to_contain_text(f"{names[1]} 60")
        expect(phone.locator(".ph-totals .ph-total").first).to_have_text("60")
        keep_screenshot(phone, ARTIFACTS / "phone-pad-domino-hand.png")
        pad.key("next")
        expect(phone.locator("#np-what")).to_have_text("Hand 2 · Pips left")
        pad.hand([0, 15, 15, 15], names[1])
        expect(phone.locator("#np-note")).to_have_text("The game is over on this sheet: send it.")
        expect(phone.locator(".np-next")).to_have_text("Done")
        pad.key("next")
        expect(phone.locator("#ph-send")).to_be_focused()  # after the game's last hand: the send, no third hand
        expect(phone.locator(".ph-totals .ph-total").first).to_have_text("105")
        expect(phone.locator("#h2 .tg-sum").first).to_contain_text("105")
        assert not PendingSheet.objects.exists()  # nothing stored while tapping
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "phone-pad-domino-totals.png", full_page=True)
        # a hand already typed is corrected the same way: its field tapped, the pad writes into it
        phone.locator("input[name='h1-pips-2']").tap()
        expect(phone.locator("#np-who")).to_have_text(names[2])
        pad.key("back")
        pad.key("back")
        pad.number(12)
        expect(phone.locator(".ph-totals .ph-total").first).to_have_text("107")
        phone.locator("#ph-send").tap()
        pad.taps += 2  # the field tapped, the send

        expect(phone.locator("#sent-note")).to_be_visible()
        assert PendingSheet.objects.get().entries == [
            {"out": 1, "pips": {"1": 0, "2": 12, "3": 20, "4": 30}},
            {"out": 1, "pips": {"1": 0, "2": 15, "3": 15, "4": 15}}]
        print(f"\nnumber pad: two hands of four players and one correction in {pad.taps} taps")

        login_by_keyboard(page, live_server.url, director,
                          f"/manage/{domino_of_four.slug}/table/rounds/1/tables/1/")
        expect(page.locator("#pending-note")).to_contain_text("sent by the table")
        expect(page.locator("input[name='h1-pips-2']")).to_have_value("12")  # the same hands as sent
        expect(page.locator("input[name='h2-pips-4']")).to_have_value("15")
        tab_to(page, "#confirm-entry")
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("The sheet is confirmed and counts now.")
        sheet = ScoreSheet.objects.get()
        assert sheet.derived["finished"] and sheet.derived["totals"]["1"] == 107
    finally:
        phone.context.close()
