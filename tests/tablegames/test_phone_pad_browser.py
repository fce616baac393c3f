"""A domino table enters its hands on a phone (390 x 844) by the number pad only: taps on the pad's keys, no typing.
One player at a time with his name large, the running totals as the keys are tapped, who went out picked by name;
the sheet is sent and the referee table's confirmation shows the same hands."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_links, token_of
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import axe_violations, keep_screenshot, login_by_keyboard, new_phone, tab_to
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Pad:
    """The pad's keys, tapped; `taps` counts them (the figure of docs/performance.md)."""

    def __init__(self, phone):
        self.phone, self.taps = phone, 0

    def key(self, key: str) -> None:
        self.phone.locator(f"#np button[data-key='{key}']").tap()
        self.taps += 1

    def number(self, value: int) -> None:
        for digit in str(value):
            self.key(digit)

    def pick(self, label: str) -> None:
        self.phone.locator("#np-choices button", has_text=label).tap()
        self.taps += 1

    def hand(self, pips: list[int], out: str) -> None:
        for value in pips:
            self.number(value)
            self.key("next")  # next player; after the last, who went out
        self.pick(out)


def test_a_domino_sheet_by_the_number_pad_only_is_sent_and_confirmed(live_server, browser, page, domino_of_four,
                                                                    director):
    link = issue_links(Round.objects.get(stage__tournament=domino_of_four, number=1), by=director)[0]
    seats = {seat.number: seat for seat in link.table.seats.select_related("participant")}
    names = {number: seat.participant.name for number, seat in seats.items()}
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token_of(link)}/")
        pad = Pad(phone)
        expect(phone.locator("#np")).to_be_visible()
        expect(phone.locator("#np-who")).to_have_text(names[1])  # the first player, his name large
        expect(phone.locator("#np-what")).to_have_text("Hand 1 · Pips left")
        assert phone.locator("input[name='h1-pips-1']").get_attribute("inputmode") == "none"  # no phone keyboard
        for key in phone.locator("#np button:visible").all():
            box = key.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, "keys for one thumb"
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390

        for value in (0, 10, 20):
            pad.number(value)
            pad.key("next")
        pad.number(30)
        expect(phone.locator(".np-next")).to_have_text("Next")  # seat 4's pips, then who went out
        pad.key("next")
        expect(phone.locator("#np-who")).to_have_text("Out of tiles (empty: blocked)")
        pad.pick(names[1])
        expect(phone.locator(".np-next")).to_have_text("Next hand")
        # the running totals as the keys are tapped, before anything is sent
        expect(phone.locator("#np-totals")).to_contain_text(f"{names[1]} 60")
        expect(phone.locator(".ph-totals .ph-total").first).to_have_text("60")
        keep_screenshot(phone, ARTIFACTS / "phone-pad-domino-hand.png")
        pad.key("next")
        expect(phone.locator("#np-what")).to_have_text("Hand 2 · Pips left")
        pad.hand([0, 15, 15, 15], names[1])
        expect(phone.locator("#np-note")).to_have_text("The game is over on this sheet: send it.")
        expect(phone.locator(".np-next")).to_have_text("Done")
        pad.key("next")
        expect(phone.locator("#ph-send")).to_be_focused()  # after the game's last hand: the send, no third hand
        expect(phone.locator(".ph-totals .ph-total").first).to_have_text("105")
        expect(phone.locator("#h2 .tg-sum").first).to_contain_text("105")
        assert not PendingSheet.objects.exists()  # nothing stored while tapping
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "phone-pad-domino-totals.png", full_page=True)
        # a hand already typed is corrected the same way: its field tapped, the pad writes into it
        phone.locator("input[name='h1-pips-2']").tap()
        expect(phone.locator("#np-who")).to_have_text(names[2])
        pad.key("back")
        pad.key("back")
        pad.number(12)
        expect(phone.locator(".ph-totals .ph-total").first).to_have_text("107")
        phone.locator("#ph-send").tap()
        pad.taps += 2  # the field tapped, the send

        expect(phone.locator("#sent-note")).to_be_visible()
        assert PendingSheet.objects.get().entries == [
            {"out": 1, "pips": {"1": 0, "2": 12, "3": 20, "4": 30}},
            {"out": 1, "pips": {"1": 0, "2": 15, "3": 15, "4": 15}}]
        print(f"\nnumber pad: two hands of four players and one correction in {pad.taps} taps")

        login_by_keyboard(page, live_server.url, director,
                          f"/manage/{domino_of_four.slug}/table/rounds/1/tables/1/")
        expect(page.locator("#pending-note")).to_contain_text("sent by the table")
        expect(page.locator("input[name='h1-pips-2']")).to_have_value("12")  # the same hands as sent
        expect(page.locator("input[name='h2-pips-4']")).to_have_value("15")
        tab_to(page, "#confirm-entry")
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("The sheet is confirmed and counts now.")
        sheet = ScoreSheet.objects.get()
        assert sheet.derived["finished"] and sheet.derived["totals"]["1"] == 107
    finally:
        phone.context.close()


def four_at_a_table(make_game, add_players, director, key: str):
    """A tournament of the game `key` with four players, drawn."""
    tournament = make_game(key)
    add_players(tournament, 4)
    seated_services.draw_seating(tournament, by=director, seed=1)
    return tournament


def first_link(tournament, director):
    return issue_links(Round.objects.get(stage__tournament=tournament, number=1), by=director)[0]


def seated_phone(browser, live_server, link):
    """A phone on the link's table, and the names of its players by seat."""
    names = {seat.number: seat.participant.name for seat in link.table.seats.select_related("participant")}
    phone = new_phone(browser)
    phone.goto(f"{live_server.url}/t/{token_of(link)}/")
    expect(phone.locator("#np")).to_be_visible()
    return phone, names


def test_quad_ominos_turn_points_below_zero_by_the_pads_minus(live_server, browser, make_game, add_players, director):
    quad = four_at_a_table(make_game, add_players, director, "quadominos")
    phone, names = seated_phone(browser, live_server, first_link(quad, director))
    try:
        pad = Pad(phone)
        expect(phone.locator("#np-what")).to_have_text("Hand 1 · Points from turns")
        pad.key("minus")
        pad.number(20)  # a tile drawn: -20
        expect(phone.locator("#np-value")).to_have_text("−20")
        expect(phone.locator("input[name='h1-turn_points-1']")).to_have_value("-20")
        pad.key("next")
        expect(phone.locator("#np-what")).to_have_text("Hand 1 · Sum of remaining tiles")
        expect(phone.locator("[data-key=minus]")).to_be_disabled()  # the remaining sum is never negative
        pad.number(12)
        pad.key("next")
        expect(phone.locator("#np-who")).to_have_text(names[2])
        for turns, remaining in ((60, 0), (25, 7), (18, 5)):
            pad.number(turns)
            pad.key("next")
            pad.number(remaining)
            pad.key("next")
        pad.pick(names[2])  # laid all tiles
        totals = phone.locator(".ph-totals .ph-total")
        expect(totals.nth(1)).not_to_have_text("0")  # the winner's points and bonus, as the server counts them
        shown = totals.all_text_contents()
        phone.locator("#ph-send").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        assert PendingSheet.objects.get().entries[0]["turn_points"] == {"1": -20, "2": 60, "3": 25, "4": 18}
        assert totals.all_text_contents() == shown  # the page after the send shows the totals the pad showed
        assert shown[0] == "-20"
    finally:
        phone.context.close()


def test_a_hand_refused_after_next_hand_is_still_said_on_the_pad(live_server, browser, make_game, add_players,
                                                                 director):
    """The winner's remaining tiles typed as 12 (he laid them all: 0): the rules refuse the hand, but their answer came
    after "Next hand" had moved the pad on, and hand 1 was left a pink row with its message nowhere on the pad."""
    quad = four_at_a_table(make_game, add_players, director, "quadominos")
    phone, names = seated_phone(browser, live_server, first_link(quad, director))
    try:
        pad = Pad(phone)
        for turns in (40, 60, 25, 18):
            pad.number(turns)
            pad.key("next")
            pad.number(12)
            pad.key("next")
        pad.pick(names[2])  # laid all tiles, yet 12 remaining typed for him
        pad.key("next")
        expect(phone.locator("#np-what")).to_have_text("Hand 2 · Points from turns")
        expect(phone.locator("#h1")).to_have_class(re.compile(r"\btg-bad\b"))
        expect(phone.locator("#np-error")).to_be_visible()
        expect(phone.locator("#np-error")).to_contain_text(re.compile(r"^Hand 1: \S"))
        pad.key("prev")  # back on hand 1: its refusal, without the hand's name
        expect(phone.locator("#np-what")).to_contain_text("Hand 1")
        expect(phone.locator("#np-error")).not_to_contain_text("Hand 1:")
        expect(phone.locator("#np-error")).to_be_visible()
    finally:
        phone.context.close()


def test_the_pad_says_no_refusal_of_an_answer_older_than_the_typing(live_server, browser, domino_of_four, director):
    """The pad said "“Pips left” is missing for …" of players whose pips were typed since: the answer it showed was
    about the hand as it stood before (the next one still on its way, slow in a busy hall)."""
    phone, names = seated_phone(browser, live_server, first_link(domino_of_four, director))
    try:
        pad = Pad(phone)
        pad.number(0)
        pad.key("next")
        expect(phone.locator("#np-totals")).to_contain_text(f"{names[1]} 0")  # the answer about seat 1 alone is in
        held = []
        phone.route("**/*preview=1*", lambda route: held.append(route))  # the next answers are slow
        for value in (10, 20, 30):
            pad.number(value)
            pad.key("next")
        expect(phone.locator("#np-who")).to_have_text("Out of tiles (empty: blocked)")  # every pips typed
        expect(phone.locator("#np-error")).to_be_hidden()
        for route in held:  # the slow answers arrive
            route.continue_()
        phone.unroute("**/*preview=1*")
        pad.pick(names[1])
        expect(phone.locator("#np-totals")).to_contain_text(f"{names[1]} 60")
        expect(phone.locator("#np-error")).to_be_hidden()
    finally:
        phone.context.close()


def test_rummi_hand_rummi_is_ticked_on_the_pad(live_server, browser, make_game, add_players, director):
    rummi = four_at_a_table(make_game, add_players, director, "rummi")
    phone, names = seated_phone(browser, live_server, first_link(rummi, director))
    try:
        pad = Pad(phone)
        for penalty in (0, 12, 30, 7):
            pad.number(penalty)
            pad.key("next")
        pad.pick(names[1])  # went out
        pad.key("next")
        expect(phone.locator("#np-who")).to_have_text("Hand rummi")
        pad.pick("yes")
        expect(phone.locator("input[name='h1-hand_rummi']")).to_be_checked()
        expect(phone.locator(".ph-totals .ph-total").nth(1)).to_have_text("24")  # doubled by the hand rummi
        pad.pick("no")
        expect(phone.locator("input[name='h1-hand_rummi']")).not_to_be_checked()
        expect(phone.locator(".ph-totals .ph-total").nth(1)).to_have_text("12")
        keep_screenshot(phone, ARTIFACTS / "phone-pad-rummi-choice.png")
    finally:
        phone.context.close()


def test_the_pad_and_the_grid_by_keyboard(live_server, browser, domino_of_four, director):
    """A phone worked by a keyboard (or a screen reader's): the grid's fields are still typed into, the pad follows
    them; the pad's keys are buttons pressed with Enter, and Next keeps the focus on itself while the pad names
    the next player (aria-live)."""
    from tests.browser.helpers import keyboard_phone

    link = issue_links(Round.objects.get(stage__tournament=domino_of_four, number=1), by=director)[0]
    names = {seat.number: seat.participant.name for seat in link.table.seats.select_related("participant")}
    phone = keyboard_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token_of(link)}/")
        tab_to(phone, "input[name='h1-pips-1']")
        phone.keyboard.type("0")
        expect(phone.locator("#np-value")).to_have_text("0")
        tab_to(phone, "input[name='h1-pips-2']")
        expect(phone.locator("#np-who")).to_have_text(names[2])  # the pad follows the focus
        phone.locator("#np [data-key='2']").focus()
        phone.keyboard.press("Enter")
        expect(phone.locator("input[name='h1-pips-2']")).to_have_value("2")
        phone.locator(".np-next").focus()
        phone.keyboard.press("Enter")
        expect(phone.locator(".np-next")).to_be_focused()
        expect(phone.locator("#np-who")).to_have_text(names[3])
        expect(phone.locator(".np-head")).to_have_attribute("aria-live", "polite")
    finally:
        phone.context.close()


def test_a_player_who_left_has_no_place_on_the_pad(live_server, browser, make_game, add_players, director):
    """Rummi: seat 3 left the table after hand 1 (counted at the referee table): from hand 2 on the pad goes from
    seat 2 to seat 4, and who went out is picked among the three still at the table."""
    from scoring.games.tablegames import services

    rummi = four_at_a_table(make_game, add_players, director, "rummi")
    link = first_link(rummi, director)
    services.enter_sheet(link.table, by=director, entries=[
        {"out": 1, "hand_rummi": False, "penalties": {"1": "0", "2": "10", "3": "20", "4": "30"}}])
    services.leave_table(link.table, 3, 1, by=director)
    phone, names = seated_phone(browser, live_server, link)
    try:
        pad = Pad(phone)
        expect(phone.locator("#np-what")).to_have_text("Hand 2 · Penalty points or cards")
        expect(phone.locator("#np-who")).to_have_text(names[1])
        pad.number(5)
        pad.key("next")
        pad.number(0)
        pad.key("next")
        expect(phone.locator("#np-who")).to_have_text(names[4])  # seat 3 left: no field, no stop
        pad.number(8)
        pad.key("next")
        expect(phone.locator("#np-choices button")).to_have_text([names[1], names[2], names[4]])
        pad.pick(names[2])
        expect(phone.locator(".ph-totals .ph-total").nth(0)).to_have_text("5")
    finally:
        phone.context.close()


def test_without_a_connection_the_pad_types_on_and_says_the_totals_wait(live_server, browser, domino_of_four,
                                                                         director):
    phone, names = seated_phone(browser, live_server, first_link(domino_of_four, director))
    try:
        pad = Pad(phone)
        phone.context.set_offline(True)
        pad.number(0)
        pad.key("next")
        pad.number(10)
        expect(phone.locator("#np-note")).to_contain_text("No connection: the totals follow")
        expect(phone.locator("input[name='h1-pips-2']")).to_have_value("10")
        phone.context.set_offline(False)  # back online: the totals come, the note goes
        pad.key("next")
        pad.number(20)
        expect(phone.locator("#np-note")).to_be_hidden()  # the server's answer arrived and replaced it
        expect(phone.locator("#np-totals")).to_contain_text(f"{names[1]} 0")
    finally:
        phone.context.close()
