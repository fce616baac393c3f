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


@pytest.mark.django_db(transaction=True)
def test_back_after_the_last_slip_of_a_round_does_not_refill_the_form_for_the_next_round(
        live_server, page, drawn, director):
    """The entry page is opened from the menu and the last slip of round 1 saved. A tired director presses Back
    and Save again; the page opened anew is at round 2, the current round: the browser used to put the typed table
    and lus back into it, and Save recorded them as round 2's slip of that table - a game nobody had played. The
    slip fields are not refilled."""
    from scoring.games.voms import entries as voms_entries
    from scoring.games.voms.services import slips as voms_slips
    from tournament.models import Match

    round_one = list(Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False)
                     .order_by("table_number"))
    for match in round_one[:-1]:
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))
    last = round_one[-1]
    login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/voms/enter/")
    expect(page.locator("#id_table")).to_be_focused()
    page.keyboard.type(str(last.table_number))
    page.keyboard.press("Tab")
    page.keyboard.type("9")
    page.keyboard.press("Tab")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("9 : 2")

    page.go_back()  # the entry page as opened from the menu: now at round 2, the current round
    page.wait_for_load_state()
    expect(page.locator("#id_round")).to_have_value("2")
    expect(page.locator("#id_lus_a")).to_have_value("")
    expect(page.locator("#id_lus_b")).to_have_value("")
    page.locator("#slip-form button[type=submit]").click()
    page.wait_for_load_state()
    assert not ScoreSheet.objects.filter(match__round__number=2).exists()
