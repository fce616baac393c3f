"""Real browser: a director types a whole 30-game list without the mouse; the page adds up as he types."""

import re

import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf.forms import grid_values
from scoring.games.schafkopf.services import entry_from_json
from scoring.models import ScoreSheet
from scoring.rules.schafkopf import TARIFF_PRESETS, score_list
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, user):
    """Log in by keyboard (waits for the autofocus, then for the page after the login)."""
    login_by_keyboard(page, live_server.url, user)
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


def varied_list(a_list):
    """A random list with a Schneider, a Schwarz and a won tout in it."""
    entries = a_list(seed=11)
    entries[2] = {**entries[2], "schneider": True, "schwarz": False}
    entries[4] = {**entries[4], "game_type": "wenz", "partner": None, "won": True, "tout": True,
                  "tout_initials": "MH", "schneider": False, "schwarz": False}
    entries[9] = {**entries[9], "game_type": "ruf", "partner": entries[9]["declarer"] % 4 + 1, "schwarz": True,
                  "schneider": True, "tout": False, "tout_initials": ""}
    return entries


def type_row(page, values):
    """Enter moves to the next field the row still needs; Tab reaches the optional Schneider and tout fields."""
    page.keyboard.type(values["t"])
    page.keyboard.press("Enter")
    page.keyboard.type(values["d"])
    page.keyboard.press("Enter")
    if values["p"]:
        page.keyboard.type(values["p"])
        page.keyboard.press("Enter")
    page.keyboard.type(values["r"])
    if values["x"] or values["i"]:
        page.keyboard.press("Tab")
        page.keyboard.type(values["x"])
        if values["i"]:
            page.keyboard.press("Tab")
            page.keyboard.type(values["i"])
    page.keyboard.press("Enter")  # the row is complete: on to the next game


def test_director_types_a_full_list_by_keyboard(live_server, page, director, drawn, a_list):
    entries = varied_list(a_list)
    expected = score_list([entry_from_json(e) for e in entries], table_size=4, tariff=TARIFF_PRESETS["standard"])
    log_in(page, live_server, director)
    page.goto(f"{live_server.url}/manage/{drawn.slug}/schafkopf/rounds/1/tables/1/")
    expect(page.locator("input[name=t1]")).to_be_focused()

    for entry in entries:
        type_row(page, grid_values(entry))

    expect(page.locator("#sk-save")).to_be_focused()
    totals = page.locator("tfoot .sk-total").all_inner_texts()
    assert [int(t) for t in totals] == [expected.totals[s] for s in range(1, 5)], "live totals match the rules"
    expect(page.locator("#sk-sum")).to_contain_text("0")
    assert page.locator("#g5 .sk-pts .sk-p").all_inner_texts() == [str(expected.rows[4].points[s]) for s in range(1, 5)]
    keep_screenshot(page, ARTIFACTS / "schafkopf_list_typed.png", full_page=True)

    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("list saved")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 2")
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=1)
    assert sheet.entries == entries and sheet.entered_by == director
    assert sheet.derived["totals"] == {str(s): expected.totals[s] for s in range(1, 5)}


def test_a_refused_row_is_shown_and_focused(live_server, page, director, drawn, a_list):
    entries = a_list(seed=3)
    entries[0] = {**entries[0], "game_type": "solo", "partner": None, "tout": True, "tout_initials": "JB"}
    log_in(page, live_server, director)
    page.goto(f"{live_server.url}/manage/{drawn.slug}/schafkopf/rounds/1/tables/2/")
    expect(page.locator("input[name=t1]")).to_be_focused()  # typing before the autofocus would lose keys
    for entry in entries:
        type_row(page, grid_values(entry))
    page.keyboard.press("Enter")
    expect(page.locator("#sk-error")).to_be_visible()
    expect(page.locator(".sk-msg").first).to_contain_text("No tout may be played in the first game")
    expect(page.locator("#g1")).to_have_class(re.compile(r"\bsk-bad\b"))
    expect(page.locator("input[name=t1]")).to_be_focused()
    assert not ScoreSheet.objects.exists()


def test_a_row_the_rules_refuse_says_why_as_it_is_typed(live_server, page, director, schafkopf, add_players):
    """At a 5-table the dealer of game 1 (seat 1) sits out; typed as its declarer, the row says so at once, in the
    words the save would use, and Enter still moves on to game 2 (the next game's keys used to land in the row's
    Schneider field, shifting the rest of the list). A tout in game 1 is said at once too."""
    from scoring.seated.queries import seated_tables

    add_players(schafkopf, 17)
    seated_services.draw_seating(schafkopf, by=director, seed=4)
    tables = seated_tables(schafkopf)[1]
    five = next(t for t in tables if t.size == 5)
    four = next(t for t in tables if t.size == 4)
    log_in(page, live_server, director)
    page.goto(f"{live_server.url}/manage/{schafkopf.slug}/schafkopf/rounds/1/tables/{five.number}/")
    expect(page.locator("input[name=t1]")).to_be_focused()
    for key in ("S", "Enter", "1", "Enter", "+", "Enter"):
        page.keyboard.press(key) if key == "Enter" else page.keyboard.type(key)
    message = page.locator("#g1 + tr.sk-msg")
    expect(message).to_have_text("Seat 1 deals game 1 at this five-player table and sits it out: enter one of the "
                                 "four players of that game.")
    expect(page.locator("input[name=t2]")).to_be_focused()
    expect(page.locator("input[name=x1]")).to_have_value("")
    page.locator("input[name=d1]").fill("2")
    expect(page.locator("tr.sk-msg")).to_have_count(0)
    expect(page.locator("#g1")).not_to_have_class(re.compile(r"\bsk-incomplete\b"))

    page.goto(f"{live_server.url}/manage/{schafkopf.slug}/schafkopf/rounds/1/tables/{four.number}/")
    expect(page.locator("input[name=t1]")).to_be_focused()
    type_row(page, {"t": "W", "d": "2", "p": "", "r": "+", "x": "", "i": "JB"})
    expect(page.locator("#g1 + tr.sk-msg")).to_have_text(
        "No tout may be played in the first game of a round: correct the game.")
    expect(page.locator("input[name=t2]")).to_be_focused()
    assert not ScoreSheet.objects.exists()
