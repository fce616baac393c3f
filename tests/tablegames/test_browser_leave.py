"""A Rummi evening where a player goes home (issue 25), walked in a real browser by keyboard: in round 2 player
Lis3 leaves his table after hand 3 — the director marks it below the sheet, confirms, the table plays on without
him; in round 3 his seat is empty (the score sheet says so, the table plays as three); the standings mark him
withdrawn and not eligible for a prize until the director ticks him; the public standings mark him too.
Screenshots (SCREENSHOTS=1) land in test-artifacts/leave-rummi-*.png."""

import pytest
from playwright.sync_api import expect

from scoring.games.tablegames import services
from scoring.models import ScoreSheet
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of, tab_to
from tests.pdf_text import page_texts
from tournament.models import Participant, Seat, Table
from tournament.services.participants import add_participant
from tournament.services.publishing import set_publication

from .helpers import play_table, rummi_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def leave_page(browser):
    with page_of(browser, width=1366, height=768) as page:
        yield page


def shot(page, name: str) -> None:
    keep_screenshot(page, ARTIFACTS / f"leave-rummi-{name}.png", full_page=True)


def submit(page) -> None:
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_a_rummi_evening_where_a_player_goes_home_in_round_2(live_server, leave_page, director, make_game):
    page, url = leave_page, live_server.url
    tournament = make_game("rummi", name="Rummi evening")
    slug = tournament.slug
    for number in range(1, 9):
        add_participant(tournament, by=director, number=number, first_name=f"Lis{number}", last_name="Holm")
    seated_services.draw_seating(tournament, by=director, seed=5)
    set_publication(tournament, by=director, kinds=["schedule", "standings"])
    for table in Table.objects.filter(round__stage__tournament=tournament, round__number=1):
        play_table(table, director, sorted(table.seats.values_list("number", flat=True)))
    gone = tournament.participants.get(number=3)
    seat = Seat.objects.select_related("table").get(participant=gone, table__round__number=2)
    table = seat.table
    others = sorted(n for n in table.seats.values_list("number", flat=True) if n != seat.number)
    numbers = sorted([*others, seat.number])
    hands = [rummi_hand(out, {n: 0 if n == out else 5 + n for n in numbers}) for out in numbers[:3]]
    services.enter_sheet(table, by=director, entries=hands)

    # --- round 2: he leaves after hand 3, marked below the sheet by keyboard ----------------------------------------
    sheet_url = f"/manage/{slug}/table/rounds/2/tables/{table.number}/"
    login_by_keyboard(page, url, director, sheet_url)
    expect(page.locator("#tg-leave")).to_contain_text("A player leaves the table")
    tab_to(page, "#tg-leave-seat", limit=200)
    page.keyboard.type(str(seat.number))  # the option "<seat> · Lis3 Holm"
    tab_to(page, "#tg-leave-after")
    expect(page.locator("#tg-leave-after")).to_have_value("3")
    shot(page, "01-sheet-leave-form")
    submit(page)
    expect(page.locator("h1")).to_contain_text(f"Lis3 Holm left table {table.number} after hand 3?")
    expect(page.locator("#confirm-yes")).to_be_focused()
    shot(page, "02-confirm")
    submit(page)
    expect(page.get_by_role("status").first).to_contain_text("Lis3 Holm left after hand 3 and is withdrawn.")
    expect(page.locator(f'input[name="h4-penalties-{seat.number}"]')).to_have_count(0)
    expect(page.locator(f'input[name="h4-penalties-{others[0]}"]')).to_have_count(1)
    expect(page.locator("tr#h3")).to_contain_text("left the table")
    shot(page, "03-sheet-after-leaving")
    gone.refresh_from_db()
    assert gone.status == Participant.Status.WITHDRAWN

    # the table plays on with three: hand 4 typed by keyboard in the grid (Enter moves on, the last field adds it)
    tab_to(page, "input[name=h4-out]", limit=200)
    page.keyboard.type(str(others[0]))
    for number in others:
        tab_to(page, f'input[name="h4-penalties-{number}"]')
        page.keyboard.type("0" if number == others[0] else "260" if number == others[1] else "7")
    tab_to(page, "#tg-add")
    submit(page)
    expect(page.locator("#tg-outcome")).to_contain_text("Lis3 Holm (left after hand 3)")
    shot(page, "04-sheet-finished")
    derived = ScoreSheet.objects.get(table=table).derived
    assert derived["finished"] and derived["table_points"][str(seat.number)] == "0"
    for other in Table.objects.filter(round__stage__tournament=tournament, round__number=2).exclude(pk=table.pk):
        play_table(other, director, sorted(other.seats.values_list("number", flat=True)))

    # --- round 3: his seat is empty, the score sheet says so, the table plays as three ------------------------------
    later = Seat.objects.select_related("table").get(participant=gone, table__round__number=3)
    pdf = page.request.get(f"{url}/manage/{slug}/table/printouts/score-sheets-3.pdf")
    assert pdf.ok
    text = next(" ".join(t.split()) for t in page_texts(pdf.body()) if f"Table {later.table.number}" in t)
    assert "Lis3 Holm – withdrawn: seat empty" in text
    page.goto(f"{url}/manage/{slug}/table/rounds/3/tables/{later.table.number}/")
    # his seat is empty from hand 1 on, as on the printed sheet: no field for him (there was one until a hand was in)
    expect(page.locator(f'input[name="h1-penalties-{later.number}"]')).to_have_count(0)
    expect(page.locator("input[name^=h1-penalties-]")).to_have_count(later.table.seats.count() - 1)
    shot(page, "05-round-3-sheet")
    for tab in Table.objects.filter(round__stage__tournament=tournament, round__number=3):
        play_table(tab, director, sorted(n for n in tab.seats.values_list("number", flat=True)
                                         if tab.pk != later.table_id or n != later.number))
    assert set(ScoreSheet.objects.get(table=later.table).derived["totals"]) == {
        str(n) for n in later.table.seats.values_list("number", flat=True) if n != later.number}

    # --- standings: withdrawn, not eligible; the director ticks him eligible by keyboard ----------------------------
    page.goto(f"{url}/manage/{slug}/table/standings/")
    mine = page.locator("table.seated-standings tr", has_text="Lis3 Holm")
    expect(mine).to_contain_text("withdrawn, not eligible: did not play every round")
    expect(page.locator("#prize-eligibility")).to_contain_text("3 Lis3 Holm")
    expect(page.locator("#prize-eligibility")).to_contain_text("2, 3")
    shot(page, "06-standings-not-eligible")
    pdf = page.request.get(f"{url}/manage/{slug}/table/printouts/standings.pdf")
    assert "not eligible: did not play every round" in " ".join(" ".join(page_texts(pdf.body())).split())
    tab_to(page, "#prize-eligibility input[name=eligible]", limit=300)
    page.keyboard.press("Space")
    tab_to(page, "#prize-eligibility button[type=submit]")
    submit(page)
    expect(page.get_by_role("status").first).to_contain_text("3 Lis3 Holm is eligible for a prize.")
    expect(page.locator("table.seated-standings tr", has_text="Lis3 Holm")).to_contain_text(
        "eligible by the director's decision")
    shot(page, "07-standings-eligible")

    # --- the public standings mark him -------------------------------------------------------------------------------
    with page_of(page.context.browser, width=390, height=844) as phone:
        phone.goto(f"{url}/p/{slug}/standings/")
        expect(phone.locator("table.standings tr", has_text="Lis3 Holm").first).to_contain_text(
            "withdrawn · did not play every round")
        shot(phone, "08-public")
