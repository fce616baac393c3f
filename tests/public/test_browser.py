"""Real-browser journeys: a phone (390×844) and a 1920×1080 screen find a seat and watch the standings change
live (Voms, Schafkopf and a table game), the beamer (1920×1080) shows the clock and signals time up, and the QR
code on the page decodes to the page.

Screenshots land in test-artifacts/ (one per browser context, named after the test and its screen size), for a
person to look at.
"""

import datetime
import io
import re

import pytest
import zxingcpp
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect

from scoring.seated import services as seated_services
from tests.browser.conftest import ACTION_TIMEOUT, ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard
from tournament.models import Match, Participant, Round
from tournament.services import clock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
BEAMER = {"width": 1920, "height": 1080}
#: the screens the player-facing pages are tried at: a phone, and a full-HD screen (a laptop or the hall's monitor)
SCREENS = {"phone": PHONE, "desktop": {"width": 1920, "height": 1080}}
screens = pytest.mark.parametrize("screen", list(SCREENS))


@pytest.fixture
def open_page(browser, request):
    """open_page(name, viewport) -> a page in its own browser context; its screenshot kept when
    the test ends with SCREENSHOTS=1."""
    opened = []

    def open_page(name, viewport, **options):
        phone = viewport["width"] < 600
        context = browser.new_context(viewport=viewport, locale="en-GB", is_mobile=phone, has_touch=phone,
                                      **options)
        page = context.new_page()
        page.set_default_timeout(ACTION_TIMEOUT)
        opened.append((name, context, page))
        return page

    yield open_page
    for name, context, page in opened:
        keep_screenshot(page, ARTIFACTS / f"{request.node.name}-{name}.png", full_page=name in SCREENS)
        context.close()


@pytest.fixture
def fast_polls(settings):
    settings.PUBLIC_POLL_SECONDS = 1


def fits_across(page, screen):
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[screen]["width"]


@screens
def test_player_finds_the_next_voms_game_by_number_and_by_part_of_the_name(
    live_server, open_page, voms, publish, screen
):
    publish(voms, "schedule", "standings")
    soren = Participant.objects.get(tournament=voms, number=3)
    team = soren.teams.get()
    match = Match.objects.filter(stage__tournament=voms, round__number=1, team_b__isnull=False).filter(
        team_a=team).first() or Match.objects.get(stage__tournament=voms, round__number=1, team_b=team)
    opponent = match.team_b if match.team_a_id == team.pk else match.team_a

    player = open_page(screen, SCREENS[screen])
    player.goto(f"{live_server.url}/p/{voms.slug}/")
    expect(player.locator(".pub-tabs")).to_contain_text("Standings")
    expect(player.locator(".pub-tabs")).not_to_contain_text("Results")  # not published: no tab
    player.locator("#q").fill("3")
    player.keyboard.press("Enter")
    card = player.locator(".card.found")
    expect(card).to_contain_text("Søren Møller")
    expect(card.locator(".where .big")).to_have_text(f"Table {match.table_number}")
    expect(card.locator(".opponent")).to_have_text(opponent.name)

    player.locator("#q").fill("møl")
    player.keyboard.press("Enter")
    expect(player.locator(".card.found")).to_have_count(1)
    expect(player.locator(".card.found")).to_contain_text("Søren Møller")
    fits_across(player, screen)


@screens
def test_player_finds_table_and_seat_of_every_schafkopf_round(live_server, open_page, schafkopf, publish, screen):
    from scoring.seated.queries import places_by_participant, seated_tables

    publish(schafkopf, "schedule")
    anna = Participant.objects.get(tournament=schafkopf, number=12)
    places = places_by_participant(seated_tables(schafkopf))[anna.pk]
    player = open_page(screen, SCREENS[screen])
    player.goto(f"{live_server.url}/p/{schafkopf.slug}/seat/")
    expect(player.locator("#q")).to_be_focused()
    player.keyboard.type("huber12")
    player.keyboard.press("Enter")
    rows = player.locator(".places-list li")
    expect(rows).to_have_count(2)
    for i, (round_number, (table, seat)) in enumerate(sorted(places.items())):
        expect(rows.nth(i).locator(".big")).to_have_text([str(round_number), str(table), str(seat)])
    fits_across(player, screen)


@screens
def test_standings_change_without_reload_when_the_director_enters_a_result(
    live_server, open_page, voms, director, publish, fast_polls, screen
):
    publish(voms, "standings")
    player = open_page(screen, SCREENS[screen])
    player.goto(f"{live_server.url}/p/{voms.slug}/standings/")
    expect(player.locator("table.standings tbody tr")).to_have_count(6)
    expect(player.locator("table.standings")).not_to_contain_text("2.5")
    player.evaluate("window.stillTheSamePage = true")

    desk = open_page("director", {"width": 1280, "height": 900})
    login_by_keyboard(desk, live_server.url, director, f"/manage/{voms.slug}/voms/enter/")
    expect(desk.locator("#id_table")).to_be_focused()
    desk.keyboard.type("1")
    desk.keyboard.press("Tab")
    desk.keyboard.type("9")
    desk.keyboard.press("Tab")
    desk.keyboard.type("0")
    desk.keyboard.press("Enter")
    expect(desk.locator(".messages")).to_contain_text("9 : 0")

    winner = Match.objects.get(stage__tournament=voms, round__number=1, table_number=1).team_a.name
    first = player.locator("table.standings tbody tr").first
    expect(first).to_contain_text(winner, timeout=8_000)
    expect(first.locator("td.strong")).to_have_text("2.5")
    assert player.evaluate("window.stillTheSamePage") is True  # updated in place, not reloaded
    fits_across(player, screen)


def test_beamer_shows_the_clock_counting_and_then_time_up(live_server, open_page, voms, director, publish, fast_polls):
    """The beamer counts on between polls by itself: the page's clock is Playwright's fake one, moved by hand,
    so the test never waits for the half minute that the count takes."""
    publish(voms, "schedule", "standings")
    round1 = Round.objects.get(stage__tournament=voms, number=1)
    clock.start_clock(round1, by=director, now=timezone.now() - datetime.timedelta(minutes=12, seconds=30))
    beamer = open_page("beamer", BEAMER)
    beamer.clock.install()
    beamer.goto(f"{live_server.url}/p/{voms.slug}/beamer/")
    clock_face = beamer.locator("[data-clock]")
    expect(clock_face).to_contain_text("Round 1")
    expect(clock_face.locator("[data-clock-time]")).to_have_text(re.compile(r"^7:[0-2]\d$"))  # counting down from 7:30
    expect(beamer.locator("[data-slide]:visible h2")).to_contain_text("Round 1: who plays where")
    assert beamer.evaluate("document.documentElement.scrollHeight") <= BEAMER["height"]  # nothing to scroll
    keep_screenshot(beamer, ARTIFACTS / "beamer-clock-running.png")

    # The director set the slot to 13 minutes: 12:30 have passed, so half a minute is left at the next poll.
    clock.set_slot_minutes(round1, 13, by=director)
    expect(clock_face).to_have_attribute("data-remaining", re.compile(r"^(30|[12]\d|[1-9])$"))
    expect(clock_face).not_to_have_class(re.compile("time-up"))
    # Half a minute later by the page's clock, without a new answer from the server (polls answer "204 nothing
    # new": the clock's settings did not change), the page has counted down to time up on its own.
    beamer.clock.fast_forward("00:31")
    expect(clock_face).to_have_class("clock clock-running time-up")
    expect(clock_face).to_contain_text("Time is up")
    expect(clock_face.locator("[data-clock-time]")).to_have_text("0:00")


def test_beamer_cycles_through_its_pages(live_server, open_page, voms, director, publish):
    from tournament.services.publishing import set_publication

    set_publication(voms, by=director, kinds=["schedule", "standings"], beamer_seconds=5)
    beamer = open_page("beamer", BEAMER)
    # The page's clock stands still (no page turns while the machine is slow) and is moved by hand below.
    start = datetime.datetime(2026, 12, 5, 19, 0, tzinfo=datetime.UTC)
    beamer.clock.install(time=start)
    beamer.clock.pause_at(start + datetime.timedelta(seconds=1))
    beamer.goto(f"{live_server.url}/p/{voms.slug}/beamer/")
    visible = beamer.locator("[data-slide]:visible h2")
    expect(visible).to_contain_text("Round 1: who plays where")
    beamer.clock.fast_forward(4_000)
    expect(visible).to_contain_text("Round 1: who plays where")  # not yet: a page stays 5 s
    beamer.clock.fast_forward(1_100)
    expect(visible).to_contain_text("Pool A")


def test_qr_code_on_the_page_decodes_to_the_page(live_server, open_page, voms, publish, settings):
    settings.PUBLIC_BASE_URL = ""
    publish(voms, "standings")
    phone = open_page("phone", PHONE)
    phone.goto(f"{live_server.url}/p/{voms.slug}/")
    shot = phone.locator("figure.share svg").screenshot()
    decoded = [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)))]
    assert decoded == [f"{live_server.url}/p/{voms.slug}/"]


def test_unpublished_pages_are_not_found_in_the_browser(live_server, open_page, voms, publish):
    publish(voms, "standings")
    phone = open_page("phone", PHONE)
    for page in ("schedule", "results", "bracket", "seat"):
        response = phone.goto(f"{live_server.url}/p/{voms.slug}/{page}/")
        assert response.status == 404
    assert phone.goto(f"{live_server.url}/p/{voms.slug}/standings/").status == 200


# --- a table game: Rummi ---------------------------------------------------------------------------------

RUMMI_PLAYERS = [("Mette", "Jespersen"), ("Bo", "Lindholm"), ("Kirsten", "Dahl"), ("Preben", "Vestergaard"),
                 ("Lone", "Kjær"), ("Arne", "Thygesen"), ("Birthe", "Overgaard"), ("Jens", "Munk"),
                 ("Hanne", "Bæk"), ("Ove", "Skov"), ("Inge", "Holst"), ("Poul", "Frandsen")]


@pytest.fixture
def rummi(director, make_tournament):
    """Twelve players (numbers 1..12 in RUMMI_PLAYERS order) at three tables of four, three rounds, fixed seed."""
    from tournament.services.participants import add_participant

    t = make_tournament(director, name="Rummi evening", game="rummi")
    for number, (first, last) in enumerate(RUMMI_PLAYERS, start=1):
        add_participant(t, by=director, number=number, first_name=first, last_name=last,
                        club="Rummiklubben Aarhus" if number % 2 else "")
    seated_services.draw_seating(t, by=director, seed=7)
    return t


@screens
def test_rummi_players_find_every_seat_and_watch_the_standings_change(
    live_server, open_page, rummi, director, publish, fast_polls, screen, request
):
    from scoring.games.tablegames.standings import standings
    from scoring.seated.queries import places_by_participant, seated_tables
    from tests.tablegames.helpers import enter_rummi_game

    publish(rummi, "schedule", "standings")
    tables = seated_tables(rummi)
    mette = Participant.objects.get(tournament=rummi, number=1)
    places = sorted(places_by_participant(tables)[mette.pk].items())
    assert len(places) == 3

    player = open_page(screen, SCREENS[screen])
    player.goto(f"{live_server.url}/p/{rummi.slug}/seat/")
    expect(player.locator(".pub-tabs")).to_contain_text("Standings")
    expect(player.locator(".pub-tabs")).not_to_contain_text("Results")  # not published: no tab
    assert player.request.get(f"{live_server.url}/p/{rummi.slug}/results/").status == 404  # and no page
    for query in ("1", "jesper"):  # by participant number, then by part of the name
        player.locator("#q").fill(query)
        player.keyboard.press("Enter")
        card = player.locator(".card.found")
        expect(card).to_have_count(1)
        expect(card.locator("h2")).to_contain_text("Mette Jespersen")
        rows = card.locator(".places-list li")
        expect(rows).to_have_count(3)
        for i, (round_number, (table, seat)) in enumerate(places):
            expect(rows.nth(i).locator(".big")).to_have_text([str(round_number), str(table), str(seat)])
    fits_across(player, screen)
    keep_screenshot(player, ARTIFACTS / f"{request.node.name}-{screen}-seat.png", full_page=True)

    player.locator(".pub-tabs").get_by_role("link", name="Standings").click()
    standings_rows = player.locator("table.standings tbody tr")
    expect(standings_rows).to_have_count(12)
    expect(player.locator("#live")).to_contain_text("Provisional — after 0 of 9 sheets")
    player.evaluate("window.stillTheSamePage = true")

    # A table's sheet is entered (as the director's entry page does): two hands, seat 1 passes 250 and loses.
    enter_rummi_game(tables[1][0], director)
    leader = standings(rummi).rows[0].participant

    expect(player.locator("#live")).to_contain_text("Provisional — after 1 of 9 sheets", timeout=8_000)
    expect(standings_rows.first).to_contain_text(leader.name)
    assert player.evaluate("window.stillTheSamePage") is True  # updated in place, not reloaded
    fits_across(player, screen)
