"""A Rummi evening where a player goes home in round 2 and a substitute takes his seat in round 3 (issues 24, 25),
walked in a real browser by keyboard: Lis3 leaves his round-2 table after hand 3 (his seat is empty from then on);
Lis9, registered late, takes Lis3's round-3 seat on the seating page, the points credited to her; the seating page
links what to print again; the round-3 score sheet names "Lis3 Holm, played by Lis9 Holm"; the standings (screen
and PDF) say who played whose seat; the public standings on a phone say it too.
Screenshots (SCREENSHOTS=1) land in test-artifacts/substitute-rummi-*.png."""

import os

import pytest
from playwright.sync_api import expect

from scoring.games.tablegames import services
from scoring.models import ScoreSheet
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of, tab_to
from tests.pdf_text import page_texts
from tournament.models import Seat, Table
from tournament.services.participants import add_participant
from tournament.services.publishing import set_publication

from .helpers import play_table, rummi_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk_page(browser):
    with page_of(browser, width=1366, height=768) as page:
        yield page


def shot(page, name: str) -> None:
    keep_screenshot(page, ARTIFACTS / f"substitute-rummi-{name}.png", full_page=True)


def seats_of(table, *, skip=()) -> list[int]:
    return [n for n in sorted(table.seats.values_list("number", flat=True)) if n not in skip]


def pdf_text(page, address: str, name: str) -> list[str]:
    """The PDF's text page by page; kept in test-artifacts/ (SCREENSHOTS=1) to be looked at."""
    response = page.request.get(address)
    assert response.ok
    if os.environ.get("SCREENSHOTS") == "1":
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"substitute-rummi-{name}.pdf").write_bytes(response.body())
    return [" ".join(text.split()) for text in page_texts(response.body())]


def test_a_substitute_takes_the_seat_of_a_player_who_went_home(live_server, desk_page, director, make_game):
    page, url = desk_page, live_server.url
    tournament = make_game("rummi", name="Rummi evening")
    slug = tournament.slug
    for number in range(1, 9):
        add_participant(tournament, by=director, number=number, first_name=f"Lis{number}", last_name="Holm")
    seated_services.draw_seating(tournament, by=director, seed=5)
    set_publication(tournament, by=director, kinds=["schedule", "standings"])
    for table in Table.objects.filter(round__stage__tournament=tournament, round__number=1):
        play_table(table, director, seats_of(table))

    # --- round 2: Lis3 goes home after hand 3, his seat empty from then on (the sheet's form, tested by keyboard in
    # test_browser_leave.py)
    gone = tournament.participants.get(number=3)
    two = Seat.objects.select_related("table").get(participant=gone, table__round__number=2)
    numbers = sorted(two.table.seats.values_list("number", flat=True))
    hands = [rummi_hand(out, {n: 0 if n == out else 5 + n for n in numbers}) for out in numbers[:3]]
    services.enter_sheet(two.table, by=director, entries=hands)
    services.leave_table(two.table, two.number, 3, by=director)
    for table in Table.objects.filter(round__stage__tournament=tournament, round__number=2):
        play_table(table, director, seats_of(table, skip=(two.number,) if table.pk == two.table_id else ()))
    late = add_participant(tournament, by=director, number=9, first_name="Lis9", last_name="Holm")

    # --- round 3: on the seating page, by keyboard, Lis9 takes his seat with the points -----------------------------
    three = Seat.objects.select_related("table").get(participant=gone, table__round__number=3)
    login_by_keyboard(page, url, director, f"/manage/{slug}/table/seating/")
    expect(page.locator("#round-3")).to_have_attribute("open", "")  # the round still to play is open
    expect(page.locator("div.messages")).to_contain_text("Withdrawn, their seats empty: 3 Lis3 Holm (round 3")
    expect(page.locator("div.messages")).to_contain_text("Registered but not seated: 9 Lis9 Holm")
    shot(page, "01-seating")
    tab_to(page, f'#round-3 a.seated-sub[href$="/seating/seats/{three.pk}/"]', limit=300)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Substitute")
    expect(page.locator(".seated-reprints")).to_contain_text(f"The score sheet of round 3, table {three.table.number}")
    tab_to(page, "#id_substitute", limit=60)
    page.keyboard.type("9 Lis9")
    expect(page.locator("#id_substitute")).to_have_value(str(late.pk))
    tab_to(page, "#id_points_to_substitute")
    page.keyboard.press("Space")
    tab_to(page, "#id_reason")
    page.keyboard.type("Lis3 went home")
    shot(page, "02-substitute-page")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.get_by_role("status").first).to_contain_text(
        f"Changes saved. Print again: the score sheet of round 3, table {three.table.number}")
    reprints = page.locator("#reprints")
    sheet_link = reprints.get_by_role("link", name=f"The score sheet of round 3, table {three.table.number}")
    expect(sheet_link).to_have_attribute("href", f"/manage/{slug}/table/printouts/score-sheets-3.pdf")
    expect(page.locator("#round-3")).to_contain_text("played by 9 Lis9 Holm · points to the substitute")
    shot(page, "03-seating-print-again")
    three.refresh_from_db()
    assert three.substitute == late and three.points_to_substitute

    # the round-3 score sheet names the substitute, and the table is no longer smaller
    sheet = next(text for text in pdf_text(page, f"{url}/manage/{slug}/table/printouts/score-sheets-3.pdf",
                                          "score-sheets-3")
                 if f"Table {three.table.number}" in text)
    assert "Lis3 Holm, played by Lis9 Holm" in sheet and "seat empty" not in sheet
    page.goto(f"{url}/manage/{slug}/table/rounds/3/tables/{three.table.number}/")
    expect(page.locator(f'input[name="h1-penalties-{three.number}"]')).to_have_count(1)
    expect(page.locator("table.tg-grid thead")).to_contain_text("played by Lis9 Holm")
    shot(page, "04-round-3-sheet")
    for table in Table.objects.filter(round__stage__tournament=tournament, round__number=3):
        play_table(table, director, seats_of(table))
    derived = ScoreSheet.objects.get(table=three.table).derived
    assert str(three.number) in derived["totals"] and "left" not in derived

    # --- standings: who played whose seat, on both rows; Lis9 ranked with round 3 ---------------------------------
    page.goto(f"{url}/manage/{slug}/table/standings/")
    rows = page.locator("table.seated-standings tr")
    mine = rows.filter(has=page.get_by_role("cell", name="Lis3 Holm", exact=True))
    expect(mine).to_contain_text("withdrawn, round 3 played by 9 Lis9 Holm, not eligible: did not play every round")
    hers = rows.filter(has=page.get_by_role("cell", name="Lis9 Holm", exact=True))
    expect(hers).to_contain_text("played round 3 for 3 Lis3 Holm, not eligible: did not play every round")
    expect(page.locator("#prize-eligibility")).to_contain_text("9 Lis9 Holm")
    shot(page, "05-standings")
    ranking = " ".join(pdf_text(page, f"{url}/manage/{slug}/table/printouts/standings.pdf", "standings"))
    assert "round 3 played by 9 Lis9 Holm" in ranking and "played round 3 for 3 Lis3 Holm" in ranking

    # --- the public standings on a phone -------------------------------------------------------------------------
    with page_of(page.context.browser, width=390, height=844) as phone:
        phone.goto(f"{url}/p/{slug}/standings/")
        names = phone.locator("td.name")
        expect(names.filter(has_text="Lis3 Holm 3")).to_contain_text(
            "withdrawn · round 3 played by 9 Lis9 Holm · did not play every round")
        expect(names.filter(has_text="Lis9 Holm 9")).to_contain_text("played round 3 for 3 Lis3 Holm")
        # nothing wider than the phone
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        shot(phone, "06-public-phone")
