"""Changing the screen language in the middle of typing keeps what was typed (static/forms/keep.js)."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import login_by_keyboard
from tournament.services.participants import add_participant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def switch_language(page, code: str) -> None:
    page.select_option("#language-select", code)
    with page.expect_navigation():
        page.locator("form.lang button").click()


def test_the_new_tournament_form_keeps_what_was_typed_across_the_language_switch(live_server, page, director):
    login_by_keyboard(page, live_server.url, director, "/manage/new/")
    page.fill("#id_name", "Schafkopf club evening")
    page.select_option("#id_game", "schafkopf")
    page.fill("#id_venue", "Gasthof Krone")
    switch_language(page, "de")
    expect(page.locator("h1")).to_have_text("Neues Turnier")
    expect(page.locator("#id_name")).to_have_value("Schafkopf club evening")
    expect(page.locator("#id_game")).to_have_value("schafkopf")
    expect(page.locator("#id_venue")).to_have_value("Gasthof Krone")
    # only once: the next visit of the page starts empty
    page.reload()
    expect(page.locator("#id_name")).to_have_value("")


def test_the_desk_keeps_a_half_typed_player_across_the_language_switch(live_server, page, director,
                                                                      make_tournament):
    t = make_tournament(director, name="Evening", game="schafkopf")
    add_participant(t, by=director, first_name="Anna", last_name="Huber")
    login_by_keyboard(page, live_server.url, director, f"/manage/{t.slug}/desk/")
    page.fill("#id_first_name", "Sepp")
    page.fill("#id_last_name", "Maier")
    switch_language(page, "da")
    expect(page.locator("#id_first_name")).to_have_value("Sepp")
    expect(page.locator("#id_last_name")).to_have_value("Maier")
    assert t.participants.count() == 1  # nothing was registered by the switch
