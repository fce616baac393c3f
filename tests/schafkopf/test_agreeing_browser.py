"""Two agreeing reports count, in the browser: two players' phones (390 x 844) on two seats' links of one table.
The same list from both counts with no click at the referee table (the standings change); two different lists
reach the referee table, which sees both side by side and lets one count by keyboard."""

import pytest
from playwright.sync_api import expect

from scoring.models import LinkReport, PendingSheet, ScoreSheet, TableLink
from scoring.results.links import issue_links, token_of
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, new_phone, tab_to
from tournament.models import AuditEntry, Round

from .test_tablelink_browser import tap_and_type

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def type_list(phone, *, second_won: bool) -> None:
    """Two games: seat 1 wins a Rufspiel with seat 2; seat 3 plays a Farbsolo, lost (or won). Typed on the grid
    (the phone's other view, the buttons, is proven in test_phone_tap_browser.py)."""
    phone.locator("#sk-view-grid:visible, input[name=t1]:visible").first.wait_for()
    if phone.locator("#sk-view-grid").is_visible():  # the tab keeps the view it chose last
        phone.locator("#sk-view-grid").tap()
    for name, text in (("t1", "r"), ("d1", "1"), ("p1", "2"), ("r1", "+"), ("t2", "S"), ("d2", "3"),
                       ("r2", "+" if second_won else "-")):
        tap_and_type(phone, name, text)
    expect(phone.locator("#sk-sum")).to_have_text("sum 0 ✓")
    phone.locator("#sk-save").tap()


@pytest.fixture
def seat_tokens(short_list, director):
    short_list.agreeing_reports_count = True
    short_list.save()
    issue_links(Round.objects.get(stage__tournament=short_list, number=1), by=director)
    return {(link.table.number, link.holder): token_of(link)
            for link in TableLink.objects.filter(table__round__number=1).select_related("table")}


def standings_text(page, base: str, slug: str) -> str:
    page.goto(f"{base}/manage/{slug}/schafkopf/standings/")
    return page.locator("main table").first.inner_text()


def test_two_agreeing_phones_count_and_two_differing_ones_reach_the_referee(live_server, browser, page, short_list,
                                                                           seat_tokens, director):
    login_by_keyboard(page, live_server.url, director, f"/manage/{short_list.slug}/schafkopf/standings/")
    expect(page.locator("main table").first).to_be_visible()
    before = page.locator("main table").first.inner_text()
    first, second = new_phone(browser), new_phone(browser)
    try:
        # table 1: seats 1 and 3 send the same list; it counts, nobody at the referee table clicks anything
        first.goto(f"{live_server.url}/t/{seat_tokens[(1, 1)]}/")
        expect(first.locator("h1")).to_contain_text("Seat 1")
        type_list(first, second_won=False)
        expect(first.locator("#sent-note")).to_contain_text("it counts as soon as another link of your table")
        keep_screenshot(first, ARTIFACTS / "agreeing-phone-sent.png", full_page=True)
        assert not ScoreSheet.objects.exists()
        second.goto(f"{live_server.url}/t/{seat_tokens[(1, 3)]}/")
        type_list(second, second_won=False)
        expect(second.locator("#counted")).to_be_visible()
        keep_screenshot(second, ARTIFACTS / "agreeing-phone-counted.png", full_page=True)
        sheet = ScoreSheet.objects.get(table__number=1)
        assert len(sheet.entries) == 2 and not PendingSheet.objects.exists()
        assert AuditEntry.objects.get(action="sheet.confirmed").reason == \
            "counted: two agreeing reports from seats 1 and 3"
        assert standings_text(page, live_server.url, short_list.slug) != before  # the standings changed

        # table 2: seats 1 and 2 differ; the phones say the referee table compares, which decides
        first.goto(f"{live_server.url}/t/{seat_tokens[(2, 1)]}/")
        type_list(first, second_won=False)
        expect(first.locator("#sent-note")).to_be_visible()
        second.goto(f"{live_server.url}/t/{seat_tokens[(2, 2)]}/")
        type_list(second, second_won=True)
        expect(second.locator("#sent-note")).to_contain_text("The referee table compares the two and decides")
        keep_screenshot(second, ARTIFACTS / "agreeing-phone-differs.png", full_page=True)
        assert not ScoreSheet.objects.filter(table__number=2).exists()
        report = LinkReport.objects.get(table__number=2, holder=2)

        page.goto(f"{live_server.url}/manage/{short_list.slug}/schafkopf/rounds/1/tables/2/")
        expect(page.locator("#pending-note")).to_contain_text("sent from the link of seat 1")
        expect(page.locator(f"#report-{report.pk}")).to_contain_text("Report of seat 2")
        expect(page.locator(f"#report-{report.pk} .tv-diff").first).to_be_visible()
        keep_screenshot(page, ARTIFACTS / "agreeing-referee-two-reports.png", full_page=True)
        tab_to(page, "#confirm-report-2")
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("the list is confirmed and counts now")
        counted = ScoreSheet.objects.get(table__number=2)
        assert counted.entries == report.entries and counted.revisions.get().source_link_id == report.link_id
        second.reload()
        expect(second.locator("#counted")).to_be_visible()
    finally:
        first.context.close()
        second.context.close()
