"""The round's board of a Voms pool round at the referee table, by keyboard: the last slip awaiting confirmation
is confirmed from the board, and back on it the focus says that nothing else awaits."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import confirm_the_last_from_the_board, login_by_keyboard


@pytest.mark.django_db(transaction=True)
def test_back_on_the_board_after_confirming_the_last_slip_the_focus_is_on_nothing_awaits(
        live_server, page, drawn, director, assistant_voms):
    from scoring.games.voms import entries as voms_entries
    from scoring.games.voms.services import slips as voms_slips
    from tournament.models import Match

    drawn.double_entry = True
    drawn.save()
    match = Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False).first()
    voms_slips.record_slip(match, by=assistant_voms, entry=voms_entries.slip_entry(lus_a=9, lus_b=4),
                           expected_version=0)
    login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/voms/board/")
    confirm_the_last_from_the_board(page)
    expect(page.locator("h1")).to_contain_text("Round board: Pool round 1")
    expect(page.locator("#bd-summary")).to_contain_text("1 counted")
    page.keyboard.press("Tab")  # the keyboard goes on from the board, not from the page's top
    assert page.evaluate("document.activeElement.closest('#board') !== null || "
                         "document.activeElement.closest('.bd-arrivals') !== null")
