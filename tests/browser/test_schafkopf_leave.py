"""A Schafkopf evening where a player goes home (issue 25), walked in a real browser by keyboard: after round 1
player 3 withdraws; the seating page opens round 2, its warning links to his seat, a late-comer takes it (the
page names the printouts to print again, and round 2's score list names the substitute); round 2 is played; the
withdrawn player, ranked where his points put him, wins no prize until the director ticks him eligible: the
standings page, the prize list's PDF text and the public standings say so. Screenshots (SCREENSHOTS=1) land in
test-artifacts/leave-schafkopf-*.png."""

import random
import re
from dataclasses import replace
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf import services
from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.demo import random_list
from scoring.games.schafkopf.standings import standings
from scoring.rules.schafkopf import PrizeSpec
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of, tab_to
from tests.pdf_text import page_texts
from tournament.models import Participant, Seat
from tournament.services.participants import add_participant, set_participant_status
from tournament.services.publishing import set_publication

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = 4
#: 16 prizes, 16.00 down to 1.00: the player who went home is in the prizes wherever his points put him
PRIZES = tuple(PrizeSpec("fixed", Decimal(n)) for n in range(16, 0, -1))


@pytest.fixture
def leave_page(browser):
    with page_of(browser, width=1366, height=768, accept_downloads=True) as page:
        yield page


def shot(page, name: str) -> None:
    keep_screenshot(page, ARTIFACTS / f"leave-schafkopf-{name}.png", full_page=True)


def enter_round(tournament, director, number: int) -> None:
    for table in seated_tables(tournament)[number]:
        entries = random_list(random.Random(table.table_id), GAMES, table.size)
        services.enter_sheet(Seat.objects.get(pk=table.seats[0].pk).table, by=director, mode="games",
                             entries=entries)


def submit(page) -> None:
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_a_schafkopf_evening_with_a_substitute_and_an_ineligible_prize_winner(live_server, leave_page, director,
                                                                              make_tournament):
    page, url = leave_page, live_server.url
    tournament = make_tournament(director, name="Schafkopf evening", game="schafkopf")
    slug = tournament.slug
    seated_services.update_settings(tournament, replace(settings_of(tournament), games_per_round=GAMES, games_at_five=5,
                                                 entry_fee=Decimal("10"), prizes=PRIZES), by=director)
    for number in range(1, 17):
        add_participant(tournament, by=director, number=number, first_name=f"Sepp{number}", last_name="Maier")
    seated_services.draw_seating(tournament, by=director, seed=7)
    enter_round(tournament, director, 1)
    gone = tournament.participants.get(number=3)
    set_participant_status(gone, Participant.Status.WITHDRAWN, by=director, reason="went home")
    late = add_participant(tournament, by=director, number=40, first_name="Resi", last_name="Gruber")
    set_publication(tournament, by=director, kinds=["schedule", "standings"])
    seat = Seat.objects.select_related("table").get(participant=gone, table__round__number=2)

    # --- the seating page: round 2 open, round 1 played (no substitute offered there), the warning links ----------
    login_by_keyboard(page, url, director, f"/manage/{slug}/schafkopf/seating/")
    expect(page.locator("details#round-2")).to_have_attribute("open", "")
    expect(page.locator("details#round-1")).not_to_have_attribute("open", "")
    expect(page.locator("details#round-1 a.seated-sub")).to_have_count(0)
    warning = page.locator(".messages li.error", has_text="Withdrawn but seated")
    expect(warning).to_contain_text(f"3 Sepp3 Maier (round 2, table {seat.table.number}, seat {seat.number})")
    shot(page, "01-seating")
    tab_to(page, f".messages a[href$='/seats/{seat.pk}/']")
    submit(page)

    # --- the substitute, by keyboard; the page says what to print again --------------------------------------------
    expect(page.locator("#reprints-title")).to_be_visible()
    expect(page.locator(".seated-reprints")).to_contain_text(f"The score list of round 2, table {seat.table.number}")
    tab_to(page, "#id_substitute")
    page.keyboard.type("40")  # the option "40 Resi Gruber"
    tab_to(page, "#id_reason")
    page.keyboard.type("went home after round 1")
    shot(page, "02-substitute")
    submit(page)
    expect(page.get_by_role("status")).to_contain_text(
        f"Print again: the score list of round 2, table {seat.table.number}")
    seat.refresh_from_db()
    assert seat.substitute == late and not seat.points_to_substitute
    expect(page.locator("details#round-2")).to_contain_text("played by 40 Resi Gruber")
    expect(page.locator(".messages li.error", has_text="Withdrawn but seated")).to_have_count(0)
    shot(page, "03-seating-after")
    lists = page.request.get(f"{url}/manage/{slug}/schafkopf/printouts/score-lists-2.pdf")
    page_text = next(" ".join(text.split()) for text in page_texts(lists.body())
                     if f"table {seat.table.number}" in text)
    assert "No. 40 · Resi Gruber (for no. 3)" in page_text and "Sepp3" not in page_text

    # --- round 2 is played: he is ranked, marked, and his prize goes to the next eligible player -------------------
    enter_round(tournament, director, 2)
    result = standings(tournament)
    row = next(r for r in result.rows if r.participant == gone)
    assert row.rank is not None and row.prize is None and result.final
    page.goto(f"{url}/manage/{slug}/schafkopf/standings/")
    mine = page.locator("table.seated-standings tr", has_text="Sepp3 Maier").first  # then the substitute's row
    expect(mine).to_contain_text("not eligible: did not play every round")
    expect(page.locator("ul.notes")).to_contain_text("No prize for 3 Sepp3 Maier")
    expect(page.locator("#prize-eligibility")).to_contain_text("3 Sepp3 Maier")
    shot(page, "04-standings-not-eligible")
    pdf = page.request.get(f"{url}/manage/{slug}/schafkopf/printouts/ranking.pdf")
    text = " ".join(" ".join(page_texts(pdf.body())).split())
    assert re.search(rf"\b{row.rank} 3 Sepp3 Maier\b", text) and "not eligible: did not play every round" in text
    winners = [r for r in result.rows if r.prize is not None]
    assert winners[0].prize == Decimal("16.00") and gone not in [r.participant for r in winners]

    # --- the public standings mark him ---------------------------------------------------------------------------
    with page_of(page.context.browser, width=390, height=844) as phone:
        phone.goto(f"{url}/p/{slug}/standings/")
        expect(phone.locator("table.standings tr", has_text="Sepp3 Maier").first).to_contain_text(
            "withdrawn, round 2 played by 40 Resi Gruber, did not play every round")
        shot(phone, "05-public")

    # --- the director ticks him eligible, by keyboard: now he wins the prize of his place --------------------------
    tab_to(page, "#prize-eligibility input[name=eligible]", limit=200)
    page.keyboard.press("Space")
    tab_to(page, "#prize-eligibility button[type=submit]")
    submit(page)
    expect(page.get_by_role("status")).to_contain_text("3 Sepp3 Maier is eligible for a prize.")
    expect(page.locator("table.seated-standings tr", has_text="Sepp3 Maier").first).to_contain_text(
        "eligible by the director's decision")
    shot(page, "06-standings-eligible")
    gone.refresh_from_db()
    row = next(r for r in standings(tournament).rows if r.participant == gone)
    assert gone.prize_eligible and row.prize == Decimal(17 - row.rank).quantize(Decimal("0.01"))
    pdf = page.request.get(f"{url}/manage/{slug}/schafkopf/printouts/ranking.pdf")
    assert "No prize for" not in " ".join(page_texts(pdf.body()))
