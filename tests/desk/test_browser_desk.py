"""The registration desk walked by keyboard in a real browser, for a seated game (Schafkopf) and for Voms:
register (one duplicate warning), rename, delete one, check in and mark paid by keyboard, then the draw
with the no-shows withdrawn first. Screenshots at 1366x768 land in test-artifacts/."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of, tab_to
from tournament.models import AuditEntry, Participant, Team
from tournament.services.participants import add_participant, register_team

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Sepp Maier", "Resi Gruber", "Toni Bauer", "Vroni Huber", "Xaver Lang", "Kathi Wimmer", "Franz Koch",
         "Leni Brandl"]


@pytest.fixture
def desk_page(browser):
    with page_of(browser, width=1366, height=768) as page:
        yield page


def shot(page, name: str) -> None:
    keep_screenshot(page, ARTIFACTS / f"desk-{name}.png")


def submit_focused_form(page) -> None:
    with page.expect_navigation():
        page.keyboard.press("Enter")


def check_in(page, typed: str, *, paid: bool = False) -> None:
    page.keyboard.type(typed)
    expect(page.locator("#desk-list tr.selected")).to_have_count(1)
    with page.expect_navigation():
        page.keyboard.press("Shift+Enter" if paid else "Enter")
    expect(page.locator("#desk-find")).to_be_focused()


def test_a_seated_games_desk_by_keyboard(live_server, desk_page, director, make_tournament):
    page = desk_page
    t = make_tournament(director, name="Schafkopf evening", game="schafkopf", entry_fee=Decimal("10.00"))
    for number, name in enumerate(NAMES, start=1):
        first, last = name.split()
        add_participant(t, by=director, number=number, first_name=first, last_name=last, club="SK Au")
    login_by_keyboard(page, live_server.url, director, f"/manage/{t.slug}/desk/")

    # a second Sepp Maier: the desk asks before registering him
    expect(page.locator("#id_first_name")).to_be_focused()
    page.keyboard.type("sepp")
    page.keyboard.press("Tab")
    page.keyboard.type("MAIER ")
    submit_focused_form(page)
    expect(page.locator(".errors")).to_contain_text("Sepp Maier is registered already (number 1)")
    assert Participant.objects.filter(tournament=t).count() == 8
    shot(page, "schafkopf-duplicate")
    expect(page.locator("#id_confirm_duplicate")).to_be_focused()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    submit_focused_form(page)
    expect(page.get_by_role("status")).to_contain_text("registered with number 9")

    # a mistaken entry, deleted again (before the draw) after a confirmation
    page.keyboard.type("Typo")
    page.keyboard.press("Tab")
    page.keyboard.type("Mistake")
    submit_focused_form(page)
    tab_to(page, "a:has-text('Delete Typo Mistake')", limit=120)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("h1")).to_contain_text("Delete 10 · Typo Mistake?")
    page.keyboard.type("typed by mistake")
    submit_focused_form(page)
    expect(page.get_by_role("status")).to_contain_text("10 Typo Mistake deleted.")
    assert not Participant.objects.filter(tournament=t, number=10).exists()

    # a rename: Resi Gruber is Theresia Gruber-Moser
    tab_to(page, "a:has-text('Change Resi Gruber')", limit=120)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("#id_first_name")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("Theresia")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("Gruber-Moser")
    submit_focused_form(page)
    expect(page.locator("table.grid")).to_contain_text("Gruber-Moser, Theresia")
    shot(page, "schafkopf-register")

    # check-in by keyboard: numbers and names, Enter arrived, Shift+Enter paid; the second Sepp stays away
    tab_to(page, "nav.desk-nav a:has-text('Check-in')", limit=60)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("#desk-find")).to_be_focused()
    for number in ("1", "2", "3", "4"):
        check_in(page, number)
    check_in(page, "wimmer")
    check_in(page, "koch", paid=True)
    check_in(page, "Leni", paid=True)
    check_in(page, "xaver", paid=True)
    expect(page.locator("#desk-counts")).to_have_text("8 of 9 arrived, 3 paid · takings 30.00")
    page.keyboard.type("ma")
    shot(page, "schafkopf-checkin")
    page.keyboard.press("Escape")

    # the draw offers to withdraw the no-show first, then seats the eight
    page.goto(f"{live_server.url}/manage/{t.slug}/schafkopf/seating/")
    expect(page.locator("#no-shows-title")).to_contain_text("1 registered has not arrived")
    tab_to(page, "button:has-text('Withdraw them before the draw')", limit=60)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("1 withdrawn who did not arrive: sepp MAIER")
    expect(page.locator("#no-shows-title")).to_have_count(0)
    tab_to(page, "#id_seed", limit=60)
    submit_focused_form(page)
    assert Participant.objects.get(tournament=t, number=9).status == "withdrawn"
    assert AuditEntry.objects.filter(tournament=t, action__endswith="seating.draw").exists()
    expect(page.locator("body")).to_contain_text("Gruber-Moser")
    shot(page, "schafkopf-seating")


def test_the_voms_desk_by_keyboard(live_server, desk_page, director, make_tournament):
    page = desk_page
    t = make_tournament(director, name="Voms evening", game="voms", entry_fee=Decimal("20.00"))
    for i in range(1, 6):
        register_team(t, by=director, name=f"Team {i}", players=[f"Anna{i} Lynge", f"Malik{i} Kleist"])
    login_by_keyboard(page, live_server.url, director, f"/manage/{t.slug}/desk/")

    # a team called like one already registered: asked first
    expect(page.locator("#id_player1")).to_be_focused()
    page.keyboard.type("Naja Berthelsen")
    page.keyboard.press("Shift+Tab")
    page.keyboard.type("team 1")
    submit_focused_form(page)
    expect(page.locator(".errors")).to_contain_text("There is a team called “Team 1” already")
    expect(page.locator("#id_confirm_duplicate")).to_be_focused()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    submit_focused_form(page)
    expect(page.get_by_role("status")).to_contain_text("registered with number 6")

    # a mistaken team, deleted with its player
    page.keyboard.type("Wrong Entry")
    submit_focused_form(page)
    tab_to(page, "a:has-text('Delete Wrong Entry')", limit=120)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    submit_focused_form(page)
    expect(page.get_by_role("status")).to_contain_text("7 Wrong Entry deleted.")
    assert not Participant.objects.filter(tournament=t, last_name="Entry").exists()

    # rename the second "Team 1"
    tab_to(page, "tr:has-text('Naja Berthelsen') a:has-text('Change')", limit=120)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    tab_to(page, "#id_name")
    shot(page, "voms-team")
    page.keyboard.press("Control+A")
    page.keyboard.type("Polar Bears")
    submit_focused_form(page)
    expect(page.locator("table.grid")).to_contain_text("Polar Bears")
    shot(page, "voms-register")

    # check-in: by team number, team name or a player's name
    tab_to(page, "nav.desk-nav a:has-text('Check-in')", limit=60)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("#desk-find")).to_be_focused()  # typed before the page's script runs, the keys are lost
    check_in(page, "1", paid=True)
    check_in(page, "polar", paid=True)
    check_in(page, "malik3")
    check_in(page, "Team 4")
    expect(page.locator("#desk-counts")).to_have_text("4 of 6 arrived, 2 paid · takings 40.00")
    shot(page, "voms-checkin")

    page.goto(f"{live_server.url}/manage/{t.slug}/voms/draw/")
    expect(page.locator("#no-shows-title")).to_contain_text("2 registered have not arrived")
    tab_to(page, "button:has-text('Withdraw them before the draw')", limit=60)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("2 withdrawn who did not arrive")
    tab_to(page, "#id_pools", limit=60)
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    submit_focused_form(page)
    assert set(Team.objects.filter(tournament=t, withdrawn=True).values_list("name", flat=True)) == {"Team 2",
                                                                                                    "Team 5"}
    drawn = set(t.stages.get().pools.get().teams.values_list("name", flat=True))
    assert drawn == {"Team 1", "Team 3", "Team 4", "Polar Bears"}
    shot(page, "voms-draw")
