"""Proof of issue 13 for Schafkopf, in a real browser at 390 x 844: a table types its whole list of 30 games on
the phone page, game by game; the connection drops half-way; sending without a connection loses nothing, nor
does reloading; back online the list is sent; the referee table opens it from the round's board with one key,
confirms it with one more, is back on the board, and the standings move."""

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scoring.games.schafkopf.forms import grid_values
from scoring.models import PendingSheet, ScoreSheet
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, new_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def type_game(phone, number: int, entry: dict) -> None:
    """A game as the scribe types it: a tap on each field the game needs, then its letters or digits."""
    for key, text in grid_values(entry).items():
        if text:
            phone.locator(f"input[name={key}{number}]").tap()
            phone.keyboard.type(text)


def test_a_whole_list_survives_a_dropped_connection_and_is_confirmed_from_the_board(
        live_server, browser, page, drawn, links, a_list, director):
    entries = a_list(30, 4, seed=13)
    _link, token = links[(1, 1)]
    address = f"{live_server.url}/t/{token}/"
    phone = new_phone(browser)
    context = phone.context
    try:
        phone.goto(address)
        expect(phone.locator(".ph-seats li")).to_have_count(4)
        phone.locator("#sk-view-grid").tap()  # typed on the grid (kept for the tab); by taps: test_phone_tap_browser
        for number, entry in enumerate(entries[:15], start=1):
            type_game(phone, number, entry)
        expect(phone.locator("#sk-sum")).to_have_text("sum 0 ✓")

        context.set_offline(True)  # the hall's wifi drops
        for number, entry in enumerate(entries[15:], start=16):
            type_game(phone, number, entry)
        expect(phone.locator("#sk-sum")).to_have_text("sum 0 ✓")
        phone.locator("#sk-save").tap()
        expect(phone.locator("#ph-offline")).to_be_visible()  # said on the page, not the browser's error page
        expect(phone.locator("input[name=t30]")).to_have_value(grid_values(entries[29])["t"])
        keep_screenshot(phone, ARTIFACTS / "phone-offline-send.png", full_page=True)
        with pytest.raises(PlaywrightError):
            phone.reload()  # no connection: the browser cannot load the page at all
        assert not PendingSheet.objects.exists()

        context.set_offline(False)
        phone.goto(address)  # back online, the scribe opens the link again
        for number in (1, 15, 16, 30):
            for key, text in grid_values(entries[number - 1]).items():
                if text:
                    expect(phone.locator(f"input[name={key}{number}]")).to_have_value(text)
        expect(phone.locator("#sk-sum")).to_have_text("sum 0 ✓")
        expect(phone.locator("#ph-offline")).to_be_hidden()
        phone.locator("#sk-save").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        pending = PendingSheet.objects.get()
        assert pending.entries == entries and pending.source_link_id is not None
        keep_screenshot(phone, ARTIFACTS / "phone-offline-sent.png", full_page=True)

        login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/schafkopf/standings/")
        expect(page.locator("h1")).to_contain_text("after 0 of 8 score lists")
        page.goto(f"{live_server.url}/manage/{drawn.slug}/schafkopf/board/")
        expect(page.locator("#bd-summary")).to_have_text("0 counted, 1 awaiting confirmation, 3 missing")
        expect(page.locator("#confirm-next")).to_be_focused()
        expect(page.locator("#table-1")).to_contain_text("arrived from the table")
        keep_screenshot(page, ARTIFACTS / "board-awaiting.png", full_page=True)
        page.keyboard.press("Enter")  # one key: the list the table sent, with Confirm ready
        expect(page.locator("#pending-note")).to_contain_text("sent by the table")
        expect(page.locator("#confirm-entry")).to_be_focused()
        page.keyboard.press("Enter")  # checked against the paper: confirmed
        expect(page.locator(".messages")).to_contain_text("the list is confirmed and counts now")
        expect(page.locator("h1")).to_contain_text("Round board: Round 1")
        expect(page.locator("#bd-summary")).to_have_text("1 counted, 3 missing")
        expect(page.locator("#confirm-none")).to_be_focused()  # the last one confirmed: the focus says so
        keep_screenshot(page, ARTIFACTS / "board-confirmed.png", full_page=True)
        sheet = ScoreSheet.objects.get()
        assert sheet.entries == entries and not PendingSheet.objects.exists()

        page.goto(f"{live_server.url}/manage/{drawn.slug}/schafkopf/standings/")
        expect(page.locator("h1")).to_contain_text("after 1 of 8 score lists")
        best = max(sheet.derived["totals"].values())
        expect(page.locator("table.seated-standings tbody tr").first).to_contain_text(str(best))

        phone.reload()
        expect(phone.locator("#counted")).to_be_visible()
    finally:
        context.close()


def test_the_board_updates_itself_when_a_table_sends_its_list(live_server, browser, page, drawn, links, a_list,
                                                             director):
    """The board reloads itself (htmx, on the page's fake clock): a list sent from a phone appears without a
    reload, and the focus stays on "Confirm next"."""
    from scoring.board import BOARD_POLL_SECONDS
    from scoring.games.schafkopf import services
    from scoring.models import TableLink

    page.clock.install()
    login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/schafkopf/board/")
    expect(page.locator("#bd-summary")).to_have_text("0 counted, 4 missing")
    link = TableLink.objects.get(pk=links[(1, 3)][0].pk)
    services.enter_from_link(link, mode="games", entries=a_list(30, 4, seed=4))
    expect(page.locator("#bd-summary")).to_have_text("0 counted, 4 missing")  # until the board's next reload
    page.clock.fast_forward(BOARD_POLL_SECONDS * 1000)
    expect(page.locator("#bd-summary")).to_have_text("0 counted, 1 awaiting confirmation, 3 missing")
    expect(page.locator("#confirm-next")).to_have_text("Confirm next: Table 3")
    page.locator("#confirm-next").focus()
    services.enter_from_link(TableLink.objects.get(pk=links[(1, 2)][0].pk), mode="games",
                             entries=a_list(30, 4, seed=5))
    page.clock.fast_forward(BOARD_POLL_SECONDS * 1000)
    expect(page.locator("#bd-summary")).to_have_text("0 counted, 2 awaiting confirmation, 2 missing")
    expect(page.locator("#confirm-next")).to_be_focused()
    page.keyboard.press("n")
    expect(page.locator("#pending-note")).to_contain_text("sent by the table")


def test_a_table_sends_totals_only_where_the_director_allows_it(live_server, browser, drawn, links, director):
    """Totals only on the phone (a Schafkopf setting): each seat's total and counts, the sum shown as typed."""
    import dataclasses

    from scoring.games.schafkopf.config import settings_of

    seated_services.update_settings(drawn, dataclasses.replace(settings_of(drawn), phone_totals=True), by=director)
    _link, token = links[(1, 2)]
    phone = new_phone(browser)
    context = phone.context
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        phone.locator("#mode-totals").tap()
        for seat, total in ((1, "12"), (2, "-4"), (3, "-6")):
            phone.locator(f"input[name=total{seat}]").tap()
            phone.keyboard.type(total)
        phone.locator("input[name=solo_played1]").tap()
        phone.keyboard.type("2")
        phone.locator("input[name=solo_won1]").tap()
        phone.keyboard.type("1")
        phone.locator("input[name=solo_played3]").tap()
        phone.keyboard.type("1")
        phone.locator("input[name=total4]").tap()
        phone.keyboard.type("-3")
        expect(phone.locator("#sk-sum")).to_have_text("sum -1")
        phone.reload()  # kept in the phone
        expect(phone.locator("input[name=total4]")).to_have_value("-3")
        phone.locator("input[name=total4]").tap()  # selects what is there: typing replaces it
        phone.keyboard.type("-2")
        expect(phone.locator("#sk-sum")).to_have_text("sum 0 ✓")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "the totals form fits the phone's width"
        keep_screenshot(phone, ARTIFACTS / "phone-totals-only.png", full_page=True)
        phone.locator("#sk-save").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        pending = PendingSheet.objects.get()
        assert pending.mode == "totals" and [row["total"] for row in pending.entries] == [12, -4, -6, -2]
    finally:
        context.close()


def test_with_nothing_to_confirm_the_focus_waits_on_the_board_and_moves_to_the_next_entry_when_it_arrives(
        live_server, page, drawn, links, a_list, director):
    """Walking the evening (issue 27): back on the board after confirming the last list, the focus was on nothing
    (Enter did nothing, Tab started at the page's top), and stayed there when the next list arrived. Now it waits on
    "No entry awaits your confirmation." and moves to "Confirm next" when the board's reload brings one."""
    from scoring.board import BOARD_POLL_SECONDS
    from scoring.games.schafkopf import services
    from scoring.models import TableLink

    page.clock.install()
    login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/schafkopf/board/")
    expect(page.locator("#confirm-none")).to_be_focused()
    services.enter_from_link(TableLink.objects.get(pk=links[(1, 2)][0].pk), mode="games",
                             entries=a_list(30, 4, seed=6))
    page.clock.fast_forward(BOARD_POLL_SECONDS * 1000)
    expect(page.locator("#confirm-next")).to_have_text("Confirm next: Table 2")
    expect(page.locator("#confirm-next")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#pending-note")).to_contain_text("sent by the table")
