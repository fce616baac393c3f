"""A table enters its short list on a phone (390 x 844): the typing survives a reload, the list is sent,
the referee table confirms it, and the phone then shows the counted list."""

import pytest
from playwright.sync_api import expect

from scoring.models import PendingSheet, ScoreSheet
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, new_phone


def tap_and_type(phone, name: str, text: str) -> None:
    phone.locator(f"input[name={name}]").tap()
    phone.keyboard.type(text)


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_enters_its_list_on_a_phone_and_the_referee_table_confirms_it(live_server, browser, page,
                                                                              short_list, links, director):
    _link, token = links[(1, 1)]
    phone = new_phone(browser)
    context = phone.context
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        expect(phone.locator(".ph-seats li")).to_have_count(4)
        phone.locator("#sk-view-grid").tap()  # this table types on the grid (kept for the tab, across reloads)
        tap_and_type(phone, "t1", "r")  # typed in lower case: the grid writes it as the referee table does
        tap_and_type(phone, "d1", "1")
        tap_and_type(phone, "p1", "2")
        tap_and_type(phone, "r1", "+")
        expect(phone.locator("#g1 .sk-p").first).to_have_text("1")  # Rufspiel won, standard tariff
        expect(phone.locator("#sk-sum")).to_have_text("sum 0 ✓")
        tap_and_type(phone, "t2", "S")
        tap_and_type(phone, "d2", "3")
        phone.reload()  # the connection dropped, the page was reloaded: nothing typed is lost
        expect(phone.locator("input[name=t1]")).to_have_value("R")
        expect(phone.locator("input[name=p1]")).to_have_value("2")
        expect(phone.locator("input[name=d2]")).to_have_value("3")
        tap_and_type(phone, "r2", "-")
        expect(phone.locator("#sk-sum")).to_have_text("sum 0 ✓")
        expect(phone.locator("#ph-totals .ph-total")).to_have_count(4)
        expect(phone.locator("#ph-totals .ph-total").first).not_to_have_text("")
        keep_screenshot(phone, ARTIFACTS / "table-link-phone-typed.png", full_page=True)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "the page itself never scrolls sideways; only the grid does"
        phone.locator("#sk-save").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        assert PendingSheet.objects.get().entries[0]["game_type"] == "ruf"
        phone.reload()
        expect(phone.locator("input[name=t1]")).to_have_value("R")  # what was sent, from the server
        assert phone.evaluate("Object.keys(window.localStorage).length") == 0

        login_by_keyboard(page, live_server.url, director,
                          f"/manage/{short_list.slug}/schafkopf/rounds/1/tables/1/")
        expect(page.locator("#pending-note")).to_contain_text("sent by the table")
        page.locator("#confirm-entry").focus()
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("the list is confirmed and counts now")
        sheet = ScoreSheet.objects.get()
        assert len(sheet.entries) == 2 and not PendingSheet.objects.exists()

        phone.reload()
        expect(phone.locator("#counted")).to_be_visible()
        expect(phone.locator("#sk-save")).to_have_count(0)
        expect(phone.locator("input[name=t1]")).to_be_disabled()
        keep_screenshot(phone, ARTIFACTS / "table-link-phone-counted.png", full_page=True)
    finally:
        context.close()


def test_the_director_issues_the_links_by_keyboard_and_sees_a_qr_code_per_table(live_server, page, drawn,
                                                                                   director):
    from tests.browser.helpers import tab_to

    login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/schafkopf/rounds/1/")
    tab_to(page, "#table-links")
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_contain_text("Table links of round 1")
    tab_to(page, "#issue-links")
    page.keyboard.press("Enter")
    expect(page.locator(".tl-qr svg")).to_have_count(4)
    expect(page.locator(".tl-url")).to_have_count(4)
    tab_to(page, "#table-2 button[value=reissue]")
    old = page.locator("#table-2 .tl-url").inner_text()
    page.keyboard.press("Enter")
    expect(page.locator("#table-2 .tl-url")).not_to_have_text(old)
    keep_screenshot(page, ARTIFACTS / "table-links-director.png", full_page=True)


def test_a_rows_message_on_the_phone_fits_the_phones_width(live_server, browser, links):
    """The grid scrolls sideways on a 390 px phone; a row's message (at once as typed, and after a refused send)
    spans the whole grid and ran off the right edge mid-sentence. It now wraps within the screen."""
    _link, token = links[(1, 2)]
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        phone.locator("#sk-view-grid").tap()
        for name, text in (("t1", "S"), ("d1", "2"), ("r1", "+"), ("i1", "AB")):  # a tout in game 1
            tap_and_type(phone, name, text)
        for shown in (phone.locator("#g1 + tr.sk-live .sk-msg-text"), None):
            if shown is None:  # sent anyway: the server says it, in the same place
                phone.locator("#sk-save").tap()
                shown = phone.locator("#g1 + tr.sk-msg .sk-msg-text")
            expect(shown).to_contain_text("No tout may be played in the first game of a round")
            box = shown.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert not PendingSheet.objects.exists()
    finally:
        phone.context.close()
