"""Proof of issue 27 for Schafkopf ("tap-first phone entry"), in a real browser at 390 x 844: a whole list of 30 games
chosen with buttons only (game type, declarer and partner by name, won/lost, Schneider/Schwarz), no key typed, at a
4-player and at a 5-player table (where the dealer sits out and is not offered); the list and the running totals
follow every tap; a game is edited and one deleted; the list is sent, and the referee table's confirmation shows the
games and totals the same list typed on the grid gives. The rules' refusal (a tout in the first game) shows as
tapped. The page is axe-clean; the grid stays for those who type."""

import dataclasses
import random
import re

import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.demo import random_list
from scoring.games.schafkopf.forms import TYPE_LETTERS, grid_values, read_games
from scoring.games.schafkopf.services import entry_from_json
from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_links, token_of
from scoring.rules.schafkopf import RUF, score_list, sitting_out
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import axe_violations, keep_screenshot, login_by_keyboard, new_phone
from tournament.models import Round, Table

from .conftest import register_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: a list of 30 games without a tout (a tout needs the supervision's initials, written, not tapped), with every game
#: type, Schneider and Schwarz: the same seed at both tables
SEED = 2


def tap_game(phone, entry: dict) -> int:
    """Choose one game with buttons and go on to the next; the number of taps it took."""
    taps = [f"#sk-tap-type [data-t={TYPE_LETTERS[entry['game_type']]}]",
            f"#sk-tap-declarer [data-d='{entry['declarer']}']"]
    if entry["game_type"] == RUF:
        taps.append(f"#sk-tap-partner [data-p='{entry['partner']}']")
    taps.append(f"#sk-tap-result [data-r='{'+' if entry['won'] else '-'}']")
    if entry["schneider"]:
        taps.append(f"#sk-tap-extra [data-x={'Z' if entry['schwarz'] else 'S'}]")
    taps.append("#sk-tap-next")
    for selector in taps:
        phone.locator(selector).tap()
    return len(taps)


def totals_of(entries: list[dict], size: int, tournament) -> list[int]:
    """What the rules make of the list: each seat's total."""
    result = score_list([entry_from_json(entry) for entry in entries], table_size=size,
                        tariff=settings_of(tournament).tariff)
    return [result.totals[seat] for seat in range(1, size + 1)]


def grid_typed(entries: list[dict], size: int) -> list[dict]:
    """The same list typed on the grid: the grid's fields as the grid's reader reads them."""
    data = {f"{key}{number}": value for number, entry in enumerate(entries, start=1)
            for key, value in grid_values(entry).items()}
    return [row.entry for row in read_games(data, rows=len(entries), table_size=size)]


def enter_by_taps(phone, address: str, entries: list[dict], size: int, shots: str) -> int:
    phone.goto(address)
    expect(phone.locator("#sk-tap")).to_be_visible()
    expect(phone.locator(".ph-scroll")).to_be_hidden()  # the grid is behind the buttons, its fields still posted
    taps = 0
    first_ruf = next(number for number, entry in enumerate(entries, start=1) if entry["game_type"] == RUF)
    for number, entry in enumerate(entries, start=1):
        expect(phone.locator("#sk-tap-title")).to_have_text(f"Game {number} of {len(entries)}")
        out = sitting_out(number, size)
        if out:  # the dealer sits out at a 5-player table: not offered as declarer
            expect(phone.locator(f"#sk-tap-declarer [data-d='{out}']")).to_be_hidden()
        if number == first_ruf:  # the partner is offered once the game has one, never the declarer himself
            phone.locator("#sk-tap-type [data-t=R]").tap()
            phone.locator(f"#sk-tap-declarer [data-d='{entry['declarer']}']").tap()
            expect(phone.locator(f"#sk-tap-partner [data-p='{entry['declarer']}']")).to_be_hidden()
            keep_screenshot(phone.locator("#sk-tap"), ARTIFACTS / f"{shots}-partner.png")
        taps += tap_game(phone, entry)
        # as tapped: the game in the list with its value, the running totals per player
        expect(phone.locator(f"#sk-tap-g{number}")).to_be_visible()
    return taps


def confirm_at_the_referee_table(page, live_server, director, tournament, table, entries, size):
    login_by_keyboard(page, live_server.url, director,
                      f"/manage/{tournament.slug}/schafkopf/rounds/{table.round.number}/tables/{table.number}/")
    expect(page.locator("#pending-note")).to_contain_text("sent by the table")
    totals = totals_of(grid_typed(entries, size), size, tournament)
    expect(page.locator("tfoot .sk-total")).to_have_text([str(total) for total in totals])
    page.locator("#confirm-entry").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("the list is confirmed and counts now")
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.entries == grid_typed(entries, size)
    assert [sheet.derived["totals"][str(seat)] for seat in range(1, size + 1)] == totals
    return totals


def test_a_whole_list_of_30_games_by_taps_only_at_a_4_player_table(live_server, browser, page, drawn, links,
                                                                  director):
    entries = random_list(random.Random(SEED), 30, 4)
    assert not any(entry["tout"] for entry in entries)
    link, token = links[(1, 1)]
    phone = new_phone(browser)
    try:
        taps = enter_by_taps(phone, f"{live_server.url}/t/{token}/", entries, 4, "tap-4")
        expect(phone.locator("#sk-tap-title")).to_have_text("All 30 games are entered: check the totals, "
                                                            "then send the list.")
        expect(phone.locator("#sk-tap-list > li")).to_have_count(30)
        shown = [int(text) for text in phone.locator("#sk-tap-totals .sk-tap-rn").all_inner_texts()]
        assert shown == totals_of(entries, 4, drawn)
        expect(phone.locator("#sk-tap-sum")).to_have_text("after game 30 · sum 0 ✓")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "tap-4-all-in.png", full_page=True)

        # a game is corrected: game 2 opened, its result flipped, kept; the list and the totals follow
        second = entries[1]
        phone.locator("#sk-tap-g2 [data-edit]").tap()
        expect(phone.locator("#sk-tap-title")).to_have_text("Game 2 of 30")
        phone.locator(f"#sk-tap-result [data-r='{'-' if second['won'] else '+'}']").tap()
        phone.locator("#sk-tap-next").tap()
        changed = [dict(entry) for entry in entries]
        changed[1]["won"] = not second["won"]
        expect(phone.locator("#sk-tap-totals .sk-tap-rn")).to_have_text(
            [str(total) for total in totals_of(changed, 4, drawn)])
        # and put back as it was, so that the list sent is the one on paper
        phone.locator("#sk-tap-g2 [data-edit]").tap()
        phone.locator(f"#sk-tap-result [data-r='{'+' if second['won'] else '-'}']").tap()
        phone.locator("#sk-tap-next").tap()
        taps += 6

        phone.reload()  # what was tapped is kept in the phone like what is typed
        expect(phone.locator("#sk-tap-list > li")).to_have_count(30)
        phone.locator("#sk-save").tap()
        taps += 1
        expect(phone.locator("#sent-note")).to_be_visible()
        pending = PendingSheet.objects.get()
        assert pending.entries == grid_typed(entries, 4) == entries
        totals = confirm_at_the_referee_table(page, live_server, director, drawn, link.table, entries, 4)
        assert totals == shown
        print(f"\n[issue 27] taps for a 30-game list at a 4-player table: {taps}")
    finally:
        phone.context.close()


def test_a_whole_list_of_30_games_by_taps_only_at_a_5_player_table(live_server, browser, page, schafkopf,
                                                                  director):
    register_players(schafkopf, director, 5)
    seated_services.update_settings(schafkopf, dataclasses.replace(settings_of(schafkopf), games_at_five=30),
                                    by=director)
    seated_services.draw_seating(schafkopf, by=director, seed=3)
    link = issue_links(Round.objects.get(stage__tournament=schafkopf, number=1), by=director)[0]
    entries = random_list(random.Random(SEED), 30, 5)
    assert not any(entry["tout"] for entry in entries)
    phone = new_phone(browser)
    try:
        taps = enter_by_taps(phone, f"{live_server.url}/t/{token_of(link)}/", entries, 5, "tap-5")
        expect(phone.locator("#sk-tap-list > li")).to_have_count(30)
        expect(phone.locator("#sk-tap-sum")).to_have_text("after game 30 · sum 0 ✓")
        keep_screenshot(phone, ARTIFACTS / "tap-5-all-in.png", full_page=True)

        # the last game deleted, then chosen again; the grid stays for those who would rather type
        phone.once("dialog", lambda dialog: dialog.accept())
        phone.locator("#sk-tap-g30 [data-delete]").tap()
        expect(phone.locator("#sk-tap-status")).to_have_text("Game 30 deleted; the games after it moved up.")
        expect(phone.locator("#sk-tap-list > li")).to_have_count(29)
        expect(phone.locator("#sk-tap-title")).to_have_text("Game 30 of 30")
        tap_game(phone, entries[29])
        expect(phone.locator("#sk-tap-list > li")).to_have_count(30)
        phone.locator("#sk-view-grid").tap()
        expect(phone.locator(".ph-scroll")).to_be_visible()
        expect(phone.locator("input[name=t30]")).to_have_value(grid_values(entries[29])["t"])
        phone.locator("#sk-view-tap").tap()
        expect(phone.locator(".ph-scroll")).to_be_hidden()
        phone.locator("#sk-save").tap()
        taps += 1
        expect(phone.locator("#sent-note")).to_be_visible()
        assert PendingSheet.objects.get().entries == grid_typed(entries, 5) == entries
        table = Table.objects.get(pk=link.table_id)
        confirm_at_the_referee_table(page, live_server, director, schafkopf, table, entries, 5)
        print(f"\n[issue 27] taps for a 30-game list at a 5-player table: {taps}")
    finally:
        phone.context.close()


def test_a_tout_in_the_first_game_is_refused_as_it_is_tapped(live_server, browser, short_list, links):
    _link, token = links[(1, 2)]
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        phone.locator("#sk-tap-type [data-t=S]").tap()
        expect(phone.locator("#sk-tap-partner")).to_be_hidden()  # a solo has no partner
        phone.locator("#sk-tap-declarer [data-d='2']").tap()
        phone.locator("#sk-tap-result [data-r='+']").tap()
        phone.locator("#sk-tap-tout [data-tout]").tap()
        expect(phone.locator("#sk-tap-tout [data-tout]")).to_have_attribute("aria-pressed", "true")
        problem = phone.locator("#sk-tap-problem")
        expect(problem).to_contain_text("No tout may be played in the first game of a round")
        keep_screenshot(phone, ARTIFACTS / "tap-refusal.png", full_page=True)
        assert axe_violations(phone) == []
        phone.locator("#sk-tap-next").tap()  # refused: the game stays open
        expect(phone.locator("#sk-tap-title")).to_have_text("Game 1 of 2")
        phone.locator("#sk-tap-tout [data-tout]").tap()  # taken back: the game is a plain Farbsolo won
        expect(problem).to_be_hidden()
        phone.locator("#sk-tap-next").tap()
        expect(phone.locator("#sk-tap-title")).to_have_text("Game 2 of 2")
        expect(phone.locator("#sk-tap-g1")).to_contain_text("Farbsolo")
        expect(phone.locator("#sk-tap-g1 .sk-tap-pt")).to_have_text(["-2", "+6", "-2", "-2"])
        # a tout later on: the supervision's initials are asked for before the game is kept
        phone.locator("#sk-tap-type [data-t=W]").tap()
        phone.locator("#sk-tap-declarer [data-d='3']").tap()
        phone.locator("#sk-tap-result [data-r='+']").tap()
        phone.locator("#sk-tap-tout [data-tout]").tap()
        phone.locator("#sk-tap-next").tap()
        expect(problem).to_contain_text("A tout needs the supervision's initials")
        phone.locator("#sk-tap-initials").fill("KB")
        phone.locator("#sk-tap-next").tap()
        expect(phone.locator("#sk-tap-g2 .sk-tap-pt")).to_have_text(["-6", "-6", "+18", "-6"])
        phone.locator("#sk-save").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        sent = PendingSheet.objects.get().entries
        assert [(game["game_type"], game["tout"], game["tout_initials"]) for game in sent] == [
            ("solo", False, ""), ("wenz", True, "KB")]
    finally:
        phone.context.close()


def test_a_refused_sends_message_shows_where_the_game_is_tapped_again(live_server, browser, short_list, links):
    """Walking the evening (issue 27): a list typed on the grid and refused by the server shows its rows marked;
    back to tapping, the game the buttons open on said nothing of what was wrong with it."""
    _link, token = links[(1, 2)]
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        phone.locator("#sk-view-grid").tap()
        for name, text in (("t1", "R"), ("d1", "9"), ("p1", "2"), ("r1", "+")):
            phone.locator(f"input[name={name}]").fill(text)
        phone.locator("#sk-save").tap()
        expect(phone.locator("#g1")).to_have_class(re.compile(r"\bsk-bad\b"))  # refused by the server, marked
        assert not PendingSheet.objects.exists()
        phone.locator("#sk-view-tap").tap()
        expect(phone.locator("#sk-tap-title")).to_have_text("Game 1 of 2")
        expect(phone.locator("#sk-tap-problem")).to_contain_text("Enter a seat from 1 to 4")
        keep_screenshot(phone, ARTIFACTS / "tap-refused-send.png", full_page=True)
    finally:
        phone.context.close()


def test_without_the_tap_entry_the_grid_is_the_phones_entry(live_server, browser, short_list, links):
    """Without JavaScript the buttons are not shown and the grid is typed and sent as before."""
    _link, token = links[(1, 3)]
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False,
                                  locale="en-GB")
    phone = context.new_page()
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        expect(phone.locator("#sk-tap")).to_be_hidden()
        expect(phone.locator(".ph-scroll")).to_be_visible()
        for name, text in (("t1", "R"), ("d1", "1"), ("p1", "2"), ("r1", "+"), ("t2", "S"), ("d2", "3"), ("r2", "-")):
            phone.locator(f"input[name={name}]").fill(text)
        phone.locator("#sk-save").click()
        expect(phone.locator("#sent-note")).to_be_visible()
        assert [game["game_type"] for game in PendingSheet.objects.get().entries] == ["ruf", "solo"]
    finally:
        context.close()



def test_laufende_are_counted_with_a_stepper_where_the_tariff_counts_them(live_server, browser, short_list, links,
                                                                        director):
    settings = settings_of(short_list)
    tariff = dataclasses.replace(settings.tariff, laufende_from=3, laufende_value=1)
    seated_services.update_settings(short_list, dataclasses.replace(settings, tariff=tariff), by=director)
    _link, token = links[(1, 4)]
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        for selector in ("#sk-tap-type [data-t=R]", "#sk-tap-declarer [data-d='1']", "#sk-tap-partner [data-p='3']",
                         "#sk-tap-result [data-r='+']"):
            phone.locator(selector).tap()
        more = phone.locator("#sk-tap-laufende [data-l='1']")
        expect(more).to_have_accessible_name("One Laufender more")
        for _ in range(5):
            more.tap()
        phone.locator("#sk-tap-laufende [data-l='-1']").tap()
        expect(phone.locator("#sk-tap-l")).to_have_text("4")
        phone.locator("#sk-tap-next").tap()
        expect(phone.locator("#sk-tap-g1")).to_contain_text("4 Laufende")
        expect(phone.locator("#sk-tap-g1 .sk-tap-pt")).to_have_text(["+5", "-5", "+5", "-5"])  # 1 + 4 × 1 each
        expect(phone.locator("input[name=l1]")).to_have_value("4")  # the grid's own field, posted as typed
        expect(phone.locator("#sk-tap-l")).to_have_text("0")  # the next game starts without
    finally:
        phone.context.close()


def test_a_game_is_chosen_by_keyboard_alone(live_server, browser, short_list, links):
    """A phone with a keyboard (or a screen reader's): the buttons are reached by Tab and pressed by Space or Enter,
    their state is said (aria-pressed), and after "Next game" the focus is on the next game's heading."""
    from tests.browser.helpers import keyboard_phone, tab_to

    _link, token = links[(1, 1)]
    phone = keyboard_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        for selector, key in (("#sk-tap-type [data-t=R]", "Space"), ("#sk-tap-declarer [data-d='2']", "Enter"),
                              ("#sk-tap-partner [data-p='4']", "Space"), ("#sk-tap-result [data-r='-']", "Enter"),
                              ("#sk-tap-extra [data-x=S]", "Space")):
            tab_to(phone, selector)
            phone.keyboard.press(key)
            expect(phone.locator(selector)).to_have_attribute("aria-pressed", "true")
        expect(phone.locator("#sk-tap-partner")).to_have_accessible_name("Partner")
        tab_to(phone, "#sk-tap-next")
        phone.keyboard.press("Enter")
        expect(phone.locator("#sk-tap-title")).to_be_focused()
        expect(phone.locator("#sk-tap-title")).to_have_text("Game 2 of 2")
        expect(phone.locator("#sk-tap-g1 .sk-tap-pt")).to_have_text(["+2", "-2", "+2", "-2"])  # Rufspiel Schneider lost
        assert phone.locator("input[name=x1]").input_value() == "S"
    finally:
        phone.context.close()


def test_after_sending_the_list_the_tap_entry_says_it_was_sent_until_a_game_is_changed(live_server, browser,
                                                                                        short_list, links):
    """Walking the evening (issue 27): after sending, the phone still asked to "check the totals, then send the
    list", as if nothing had gone out; a tired scribe sent again. It says the list is sent until a game changes."""
    _link, token = links[(1, 2)]
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        for declarer in ("2", "3"):
            phone.locator("#sk-tap-type [data-t=S]").tap()
            phone.locator(f"#sk-tap-declarer [data-d='{declarer}']").tap()
            phone.locator("#sk-tap-result [data-r='+']").tap()
            phone.locator("#sk-tap-next").tap()
        title = phone.locator("#sk-tap-title")
        expect(title).to_have_text("All 2 games are entered: check the totals, then send the list.")
        phone.locator("#sk-save").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        expect(title).to_have_text("All 2 games are entered and sent. To correct one, tap Edit, then send the list "
                                   "again.")
        phone.locator("#sk-tap-list [data-edit='2']").tap()
        phone.locator("#sk-tap-result [data-r='-']").tap()
        phone.locator("#sk-tap-next").tap()
        expect(title).to_have_text("All 2 games are entered: check the totals, then send the list.")
    finally:
        phone.context.close()


@pytest.mark.parametrize("language", ["de", "da"])
def test_a_games_edit_and_delete_buttons_fit_the_phone_in_every_language(live_server, browser, short_list, links,
                                                                         language):
    """Walking the evening (issue 27): in German the button beside each game read "Bearbeiten", wider than its
    column: the word ran out of the button and the page scrolled sideways on a 390 px phone."""
    short_list.language = language
    short_list.save(update_fields=["language"])
    _link, token = links[(1, 2)]
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        phone.locator("#sk-tap-type [data-t=S]").tap()
        phone.locator("#sk-tap-declarer [data-d='2']").tap()
        phone.locator("#sk-tap-result [data-r='+']").tap()
        phone.locator("#sk-tap-next").tap()
        buttons = phone.locator("#sk-tap-g1 .sk-tap-actions button")
        expect(buttons).to_have_count(2)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert buttons.evaluate_all("all => all.filter(b => b.scrollWidth > b.clientWidth).map(b => b.textContent)") \
            == []
    finally:
        phone.context.close()
