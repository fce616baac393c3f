"""A whole Rummi evening, from an empty database, by keyboard at 1366×768.

The director creates the tournament, registers twelve players at the desk (one renamed, one typed twice after the
duplicate warning and deleted again), checks in eleven, withdraws the no-show at the seating draw, draws tables of
4, 4 and 3 for three rounds, prints, types every table's hands (a winner with cards left refused, cards typed as
cards), sees the standings labelled provisional, then final, exports Excel and archives.

Screenshots are kept in test-artifacts/rummi-evening/ to be looked at.
"""

import io

import openpyxl
import pytest
from playwright.sync_api import expect

from scoring.seated.queries import seated_tables
from tests.browser.conftest import ACTION_TIMEOUT, ARTIFACTS
from tests.browser.helpers import keep_screenshot, start_tournament_by_keyboard
from tournament.models import Participant, Tournament

SHOTS = ARTIFACTS / "rummi-evening"

PLAYERS = [("Anna", "Berg"), ("Bo", "Dahl"), ("Carl", "Eng"), ("Dorte", "Fisk"), ("Erik", "Gram"),
           ("Frida", "Holm"), ("Gitte", "Ibsen"), ("Hans", "Juul"), ("Ida", "Krog"), ("Jens", "Lund"),
           ("Karen", "Mik"), ("Lars", "Nør")]  # Lars Nør does not come


def shot(page, name):
    keep_screenshot(page, SHOTS / f"{name}.png", full_page=True)


def register(page, first, last, *, duplicate=False):
    expect(page.locator("#id_first_name")).to_be_focused()
    page.keyboard.type(first)
    page.keyboard.press("Tab")
    page.keyboard.type(last)
    page.keyboard.press("Enter")
    if duplicate:
        expect(page.locator("form.desk-duplicate")).to_contain_text("is registered already")
        expect(page.locator("#id_confirm_duplicate")).to_be_focused()
        shot(page, "02-duplicate-asked")
        page.keyboard.press("Space")
        page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text(f"{first} {last} registered with number")


def type_hand(page, out, penalties, *, hand_rummi=False, saves=True):
    """Who went out, Enter, hand rummi (Space ticks it), Enter, each seat's penalty and Enter; the last saves."""
    page.keyboard.type(str(out))
    page.keyboard.press("Enter")
    if hand_rummi:
        page.keyboard.press("Space")
    page.keyboard.press("Enter")
    for typed in penalties[:-1]:
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
    page.keyboard.type(penalties[-1])
    with page.expect_navigation():
        page.keyboard.press("Enter")


def open_pdf(page, url):
    response = page.request.get(url)
    assert response.status == 200, url
    assert response.headers["content-type"] == "application/pdf", url
    assert response.headers["content-disposition"].startswith("inline"), url
    assert response.body()[:5] == b"%PDF-"


def play_table(page, seats, round_number, table_number):
    """Two hands: a small one (seat 1 out, the others' penalties as numbers, once as cards), then one that ends
    the game (the last seat passes 250)."""
    small = ["0"] + [str(round_number * 7 + table_number * seat) for seat in range(2, seats + 1)]
    if (round_number, table_number) == (1, 1):
        small[1] = "K Q 7"  # the cards themselves: 27
    type_hand(page, 1, small)
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    last = ["0"] + ["5"] * (seats - 2) + [str(250 + round_number + table_number)]
    type_hand(page, 1, last)
    expect(page.locator("#tg-outcome")).to_contain_text("Game over after 2 hands")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_whole_rummi_evening(live_server, page, director):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.set_default_timeout(ACTION_TIMEOUT)
    expect.set_options(timeout=20000)  # a loaded machine; no timing is asserted

    # --- a new tournament, by keyboard
    start_tournament_by_keyboard(page, live_server.url, director, name="Rummi night", game="Rum", venue="Club house")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Rummi night")
    t = Tournament.objects.get(name="Rummi night")
    assert t.game == "rummi"
    base = f"{live_server.url}/manage/{t.slug}"

    # --- the desk: twelve players, one typed twice (asked, confirmed, deleted), one renamed
    page.goto(f"{base}/desk/")
    for first, last in PLAYERS[:4]:
        register(page, first, last)
    register(page, "Carl", "Eng", duplicate=True)
    for first, last in PLAYERS[4:]:
        register(page, first, last)
    shot(page, "01-desk")
    twice = Participant.objects.filter(tournament=t, last_name="Eng").order_by("number").last()
    page.goto(f"{base}/desk/entries/{twice.pk}/")
    page.locator("a.button", has_text="Delete this player").click()
    page.locator("#id_reason").fill("typed twice")
    page.locator("button", has_text="Yes, delete").click()
    expect(page.locator(".messages")).to_contain_text("Carl Eng deleted")
    renamed = Participant.objects.get(tournament=t, last_name="Fisk")
    page.goto(f"{base}/desk/entries/{renamed.pk}/")
    page.locator("#id_last_name").fill("Fisker")
    page.locator("#id_last_name").press("Enter")
    expect(page.locator(".messages")).to_contain_text("changes saved")
    expect(page.locator("main")).to_contain_text("Fisker, Dorte")
    shot(page, "03-desk-after-corrections")

    # --- check-in by keyboard: eleven arrive, Lars Nør does not
    page.goto(f"{base}/desk/check-in/")
    for count, (_first, last) in enumerate(PLAYERS[:11], start=1):
        expect(page.locator("#desk-find")).to_be_focused()
        page.keyboard.type(last if last != "Fisk" else "fisker")
        page.keyboard.press("Enter")
        expect(page.locator("#desk-counts")).to_contain_text(f"{count} of 12 arrived")
    shot(page, "04-checkin")

    # --- the seating: the no-show withdrawn in one step, then tables of 4, 4 and 3
    page.goto(f"{base}/table/seating/")
    expect(page.locator("#seating-invitation")).to_be_visible()
    page.locator("button", has_text="Withdraw them before the draw").click()
    expect(page.locator(".messages")).to_contain_text("Lars Nør")
    page.locator("#id_seed").fill("7")
    page.locator("#id_seed").press("Enter")
    expect(page.locator("main")).to_contain_text("Drawn with seed 7")
    shot(page, "05-seating")
    tables = {number: [len(table.seats) for table in tables] for number, tables in seated_tables(t).items()}
    assert tables == {1: [4, 4, 3], 2: [4, 4, 3], 3: [4, 4, 3]}, tables

    # --- printouts: every PDF opens in the browser
    page.goto(f"{base}/table/printouts/")
    shot(page, "06-printouts")
    links = page.locator("main a[href*='/table/printouts/'][href*='.pdf']")
    pdfs = sorted({href for href in (links.nth(i).get_attribute("href") for i in range(links.count()))
                   if "download=1" not in href})
    assert len(pdfs) >= 3, pdfs
    for href in pdfs:
        open_pdf(page, f"{live_server.url}{href}")

    # --- round 1, table 1 by keyboard, with a mistake: the winner still holds cards
    page.goto(f"{base}/table/rounds/1/tables/1/")
    expect(page.locator("input[name='h1-out']")).to_be_focused()
    type_hand(page, 1, ["9", "5", "5", "5"])
    expect(page.locator(".tg-msg")).to_contain_text("went out, so their penalty must be 0, not 9")
    expect(page.locator("input[name='h1-out']")).to_be_focused()
    shot(page, "07-hand-refused")
    for round_number in (1, 2, 3):
        for table_number, seats in enumerate(tables[round_number], start=1):
            page.goto(f"{base}/table/rounds/{round_number}/tables/{table_number}/")
            expect(page.locator("input[name='h1-out']")).to_be_focused()
            play_table(page, seats, round_number, table_number)
            if (round_number, table_number) == (1, 3):
                shot(page, "08-sheet-finished")
        if round_number == 1:
            page.goto(f"{base}/table/standings/")
            expect(page.locator("h1")).to_contain_text("Provisional — after 3 of 9 sheets")
            shot(page, "09-standings-provisional")

    # --- the final standings: the lowest total wins
    page.goto(f"{base}/table/standings/")
    expect(page.locator("h1")).to_have_text("Final ranking")
    shot(page, "10-standings-final")
    first_row = page.locator("table.tg-standings tbody tr").first
    expect(first_row).to_contain_text("1")
    expect(first_row).not_to_contain_text("by lot")
    winner = first_row.locator("td").nth(2).inner_text().strip()
    assert winner
    open_pdf(page, f"{base}/table/printouts/standings.pdf")

    # --- Excel: the same winner first
    response = page.request.get(f"{base}/table/printouts/standings.xlsx")
    assert response.status == 200
    book = openpyxl.load_workbook(io.BytesIO(response.body()), read_only=True)
    rows = [list(row) for row in book.worksheets[0].iter_rows(values_only=True)]
    ranked = next(row for row in rows if row and row[0] == 1)
    assert winner in [str(cell) for cell in ranked], (winner, ranked)

    # --- archive, after a confirmation
    page.goto(f"{base}/")
    expect(page.locator("main")).to_contain_text("Finished")
    page.locator("button", has_text="Archive").click()
    shot(page, "11-archive-asked")
    page.locator("button", has_text="Yes, archive it").click()
    expect(page.locator(".messages")).to_contain_text("archived")
    t.refresh_from_db()
    assert t.archived
