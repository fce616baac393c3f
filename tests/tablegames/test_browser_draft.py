"""Real browser: a table game's hand sheet at the referee table keeps what was typed until it is saved
(static/scoring/draft.js): a half-typed hand survives a reload, never lands on another table's sheet, goes once the
hand is saved, and is never put over hands someone else saved meanwhile unasked."""

import pytest
from playwright.sync_api import expect

from scoring.games.tablegames import services
from tests.browser.helpers import login_by_keyboard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DRAFTS = "Object.keys(window.localStorage).filter(function (k) { return k.indexOf('sheet-draft:') === 0; })"


def sheet_path(tournament, table):
    return f"/manage/{tournament.slug}/table/rounds/1/tables/{table}/"


def start_hand(page):
    """Seat 2 went out, no hand rummi, the first two penalties: half a hand."""
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.keyboard.type("K Q 7")
    page.keyboard.press("Enter")
    page.keyboard.type("0")


def test_a_half_typed_hand_survives_a_reload_and_goes_once_saved(live_server, page, director, drawn):
    login_by_keyboard(page, live_server.url, director, next_path=sheet_path(drawn, 1))
    expect(page.locator("input[name='h1-out']")).to_be_focused()
    start_hand(page)

    page.reload()
    expect(page.locator("input[name='h1-out']")).to_have_value("2")
    expect(page.locator("input[name='h1-penalties-1']")).to_have_value("K Q 7")
    expect(page.locator("input[name='h1-penalties-2']")).to_have_value("0")
    expect(page.locator("#draft-note")).to_be_hidden()
    expect(page.locator("#draft-kept")).to_be_visible()

    page.goto(f"{live_server.url}{sheet_path(drawn, 2)}")
    expect(page.locator("input[name='h1-out']")).to_be_focused()
    assert page.locator("input[name='h1-out']").input_value() == ""

    page.goto(f"{live_server.url}{sheet_path(drawn, 1)}")
    expect(page.locator("input[name='h1-penalties-2']")).to_have_value("0")
    page.locator("input[name='h1-penalties-3']").click()
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    page.keyboard.type("3 4")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    expect(page.locator("input[name='h2-out']")).to_be_focused()
    assert page.evaluate(DRAFTS) == [], "nothing kept once the hand is saved"
    page.reload()
    expect(page.locator("input[name='h1-penalties-1']")).to_have_value("K Q 7")
    assert page.locator("input[name='h2-out']").input_value() == ""
    expect(page.locator("#draft-note")).to_be_hidden()
    expect(page.locator("#draft-kept")).to_be_hidden()


def test_kept_typing_can_be_dropped(live_server, page, director, drawn):
    login_by_keyboard(page, live_server.url, director, next_path=sheet_path(drawn, 2))
    expect(page.locator("input[name='h1-out']")).to_be_focused()
    start_hand(page)
    page.reload()
    expect(page.locator("input[name='h1-out']")).to_have_value("2")
    page.locator("#draft-discard").click()
    expect(page.locator("#draft-kept")).to_be_hidden()
    expect(page.locator("input[name='h1-out']")).to_have_value("")
    assert page.evaluate(DRAFTS) == []
    page.reload()
    expect(page.locator("input[name='h1-out']")).to_be_focused()
    assert page.locator("input[name='h1-penalties-1']").input_value() == ""
    expect(page.locator("#draft-kept")).to_be_hidden()


def test_a_draft_of_a_sheet_saved_meanwhile_is_offered(live_server, page, director, drawn, tg_assistant, table_of):
    login_by_keyboard(page, live_server.url, director, next_path=sheet_path(drawn, 1))
    expect(page.locator("input[name='h1-out']")).to_be_focused()
    start_hand(page)
    table, seated = table_of(drawn, 1, 1)
    theirs = {"out": 3, "hand_rummi": False,
              "penalties": {str(s.number): "0" if s.number == 3 else "5" for s in seated.seats}}
    services.enter_sheet(table, by=tg_assistant, entries=[theirs])

    page.reload()
    expect(page.locator("#draft-note")).to_be_visible()
    expect(page.locator("input[name='h1-out']")).to_have_value("3")
    page.locator("#draft-restore").click()
    expect(page.locator("#draft-note")).to_be_hidden()
    expect(page.locator("input[name='h1-out']")).to_have_value("2")
    expect(page.locator("input[name='h1-penalties-1']")).to_have_value("K Q 7")
