"""The round's board of a table game at the referee table, by keyboard: hands a table sent from its link are
confirmed from the board, and back on it, with nothing left to confirm, the focus says so."""

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_links, token_of
from tests.browser.helpers import confirm_the_last_from_the_board, login_by_keyboard
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_back_on_the_board_after_confirming_the_last_sheet_the_focus_is_on_nothing_awaits(
        live_server, page, domino_of_four, director):
    """Walking the evening (issue 27): a domino table sent its first hand; confirmed from the board (Enter,
    Enter), the board came back with the focus on nothing."""
    link = issue_links(Round.objects.get(stage__tournament=domino_of_four, number=1), by=director)[0]
    first_hand = {"h1-out": "1", "h1-pips-1": "0", "h1-pips-2": "10", "h1-pips-3": "20", "h1-pips-4": "30"}
    assert Client().post(reverse("table:entry", args=[token_of(link)]), first_hand).status_code in (200, 302)
    assert PendingSheet.objects.filter(table=link.table).exists()

    login_by_keyboard(page, live_server.url, director, f"/manage/{domino_of_four.slug}/table/board/")
    confirm_the_last_from_the_board(page)
    expect(page.locator(".messages")).to_contain_text("confirmed")
    expect(page.locator("h1")).to_contain_text("Round board: Round 1")
    assert ScoreSheet.objects.filter(table=link.table).exists() and not PendingSheet.objects.exists()
