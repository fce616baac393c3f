"""Real browser: the referee table's list keeps what was typed until it is saved (static/scoring/draft.js).

A reload, a page left by mistake or a crashed browser in the middle of a list loses nothing; the typing never lands
on another table's or round's list, goes once the list is saved, and is never put over a list someone else saved
meanwhile unasked."""

import re

import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf import services
from scoring.games.schafkopf.forms import grid_values
from scoring.models import ScoreSheet
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot
from tests.browser.test_language_switch import switch_language
from tests.schafkopf.test_browser_entry import log_in, type_row
from tournament.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DRAFTS = "Object.keys(window.localStorage).filter(function (k) { return k.indexOf('sheet-draft:') === 0; })"


def sheet_url(live_server, tournament, round_number, table):
    return f"{live_server.url}/manage/{tournament.slug}/schafkopf/rounds/{round_number}/tables/{table}/"


def shown_rows(page, games):
    return [{key: page.locator(f"input[name={key}{n}]").input_value() for key in "tdprxi"} for n in games]


def typed(entries, games):
    return [{key: grid_values(entries[n - 1])[key] for key in "tdprxi"} for n in games]


def test_a_half_typed_list_survives_a_reload_and_goes_once_saved(live_server, page, director, drawn, a_list):
    entries = a_list(seed=5)
    log_in(page, live_server, director)
    page.goto(sheet_url(live_server, drawn, 1, 3))
    expect(page.locator("input[name=t1]")).to_be_focused()
    for entry in entries[:5]:
        type_row(page, grid_values(entry))

    page.reload()
    expect(page.locator("input[name=t1]")).to_have_value(grid_values(entries[0])["t"])
    assert shown_rows(page, range(1, 6)) == typed(entries, range(1, 6)), "the five games typed are back"
    assert page.locator("input[name=t6]").input_value() == ""
    expect(page.locator("#draft-note")).to_be_hidden()
    expect(page.locator("#draft-kept")).to_be_visible()  # the page says it is not saved yet
    expect(page.locator("#g5 .sk-pts .sk-p").first).not_to_be_empty()  # added up again, as typed
    keep_screenshot(page, ARTIFACTS / "schafkopf_draft_after_reload.png", full_page=True)

    # never on another table's or round's list
    for round_number, table in ((1, 2), (2, 3)):
        page.goto(sheet_url(live_server, drawn, round_number, table))
        expect(page.locator("input[name=t1]")).to_be_focused()
        assert page.locator("input[name=t1]").input_value() == ""

    # the language switch (static/forms/keep.js) and the kept typing agree, before and after another reload
    page.goto(sheet_url(live_server, drawn, 1, 3))
    expect(page.locator("input[name=t5]")).to_have_value(grid_values(entries[4])["t"])
    page.locator("input[name=t6]").click()
    type_row(page, grid_values(entries[5]))
    switch_language(page, "de")
    expect(page.locator("#sk-save")).to_have_text("Liste speichern")
    assert shown_rows(page, range(1, 7)) == typed(entries, range(1, 7))
    page.reload()
    expect(page.locator("input[name=t6]")).to_have_value(grid_values(entries[5])["t"])
    assert shown_rows(page, range(1, 7)) == typed(entries, range(1, 7))
    switch_language(page, "en")

    page.locator("input[name=t7]").click()
    for entry in entries[6:]:
        type_row(page, grid_values(entry))
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("list saved")
    assert ScoreSheet.objects.get(table__round__number=1, table__number=3).entries == entries

    page.goto(sheet_url(live_server, drawn, 1, 3))
    expect(page.locator("input[name=t1]")).to_have_value(grid_values(entries[0])["t"])
    expect(page.locator("#draft-note")).to_be_hidden()
    expect(page.locator("#draft-kept")).to_be_hidden()
    assert page.evaluate(DRAFTS) == [], "nothing kept once the list is saved"
    page.reload()
    expect(page.locator("input[name=t1]")).to_have_value(grid_values(entries[0])["t"])
    expect(page.locator("#draft-note")).to_be_hidden()
    assert page.evaluate(DRAFTS) == []


def test_a_draft_of_a_list_saved_meanwhile_is_offered_never_put_over_it(live_server, page, director, drawn,
                                                                         sk_assistant, a_list):
    mine, theirs = a_list(seed=7), a_list(seed=8)
    assert grid_values(mine[0]) != grid_values(theirs[0])
    log_in(page, live_server, director)
    for number in (1, 2):
        page.goto(sheet_url(live_server, drawn, 1, number))
        expect(page.locator("input[name=t1]")).to_be_focused()
        for entry in mine[:3]:
            type_row(page, grid_values(entry))
        # meanwhile the list is entered at another laptop
        table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=number)
        services.enter_sheet(table, by=sk_assistant, mode="games", entries=theirs)

    # table 1: the saved list is shown, the typing offered; put back, it is the form's again
    page.goto(sheet_url(live_server, drawn, 1, 1))
    expect(page.locator("#draft-note")).to_be_visible()
    assert shown_rows(page, range(1, 4)) == typed(theirs, range(1, 4)), "the saved list, not the typing"
    keep_screenshot(page, ARTIFACTS / "schafkopf_draft_offered.png", full_page=True)
    page.locator("#draft-restore").click()
    expect(page.locator("#draft-note")).to_be_hidden()
    assert shown_rows(page, range(1, 4)) == typed(mine, range(1, 4))
    assert page.locator("input[name=t4]").input_value() == ""
    page.locator("#id_reason").fill("Checked against the paper list")  # a correction's reason is kept too
    page.reload()
    expect(page.locator("input[name=t1]")).to_have_value(grid_values(mine[0])["t"])
    expect(page.locator("#id_reason")).to_have_value("Checked against the paper list")
    expect(page.locator("#draft-note")).to_be_hidden()
    expect(page.locator("#draft-kept")).to_be_visible()

    # ... and dropped there: the saved list again, added up, and nothing kept
    page.locator("#draft-discard").click()
    expect(page.locator("#draft-kept")).to_be_hidden()
    assert shown_rows(page, range(1, 4)) == typed(theirs, range(1, 4))
    expect(page.locator("tfoot .sk-total").first).not_to_be_empty()
    expect(page.locator("#id_reason")).to_have_value("")
    assert not [key for key in page.evaluate(DRAFTS) if re.search(r":r1:t1:", key)]
    page.reload()
    assert shown_rows(page, range(1, 4)) == typed(theirs, range(1, 4))
    expect(page.locator("#draft-kept")).to_be_hidden()

    # table 2: dropped, the saved list stays and nothing is offered any more
    page.goto(sheet_url(live_server, drawn, 1, 2))
    expect(page.locator("#draft-note")).to_be_visible()
    page.locator("#draft-drop").click()
    expect(page.locator("#draft-note")).to_be_hidden()
    assert shown_rows(page, range(1, 4)) == typed(theirs, range(1, 4))
    page.reload()
    expect(page.locator("input[name=t1]")).to_have_value(grid_values(theirs[0])["t"])
    expect(page.locator("#draft-note")).to_be_hidden()
    assert not [key for key in page.evaluate(DRAFTS) if re.search(r":r1:t2:", key)]
