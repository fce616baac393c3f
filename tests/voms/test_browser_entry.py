"""A director enters slips by keyboard at the referee table and sees the standings change."""

import pytest
from playwright.sync_api import expect

from scoring.models import ScoreSheet
from tests.browser.helpers import login_by_keyboard


@pytest.mark.django_db(transaction=True)
def test_director_enters_slips_by_keyboard(live_server, page, drawn, director):
    login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/voms/enter/")

    expect(page.locator("#id_table")).to_be_focused()
    page.keyboard.type("1")
    expect(page.locator("#slip-teams")).to_contain_text("A:")
    page.keyboard.press("Tab")
    page.keyboard.type("9")
    page.keyboard.press("Tab")
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("9 : 0")
    expect(page.locator("#id_table")).to_be_focused()

    # both teams at 9 or more: the winner is asked, nothing is saved until it is given
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("10")
    page.keyboard.press("Tab")
    page.keyboard.type("9")
    page.keyboard.press("Enter")
    expect(page.locator(".f-winner .error")).to_be_visible()
    assert ScoreSheet.objects.count() == 1
    page.locator("#id_winner").focus()
    page.keyboard.type("a")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("10 : 9")
    assert ScoreSheet.objects.count() == 2

    page.goto(f"{live_server.url}/manage/{drawn.slug}/voms/standings/")
    first = page.locator("table.standings tbody tr").first
    expect(first).to_contain_text("2.5")
