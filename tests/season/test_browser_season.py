"""Real browser: three evenings of a Schafkopf season with changing attendance, and the season ranking.

The director creates the season, takes each evening's players from the evening before, types a few players
(one picked from the player register's suggestions by keyboard), and reads the season ranking on screen and
on the public page. Check-in, the draw and the score lists are filled fast through the services: their own
browser tests live with the game."""

import datetime
import random
import re

import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf.demo import enter_random_results
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard
from tournament.models import Person, Season
from tournament.services import participants as desk
from tournament.services import seasons
from tournament.services.tournaments import create_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["Anna Huber", "Bert Maier", "Carl Bauer", "Dora Wagner", "Emil Fischer", "Fritz Weber", "Gabi Koch",
         "Hans Wolf"]


def shot(page, name):
    keep_screenshot(page, ARTIFACTS / f"season_{name}.png", full_page=True)


def new_evening(director, day):
    return create_tournament(by=director, name=f"Schafkopf {day}. January", game="schafkopf",
                             date=datetime.date(2027, 1, day), language="en")


def play(evening, director, seed):
    """Check-in is done (no-shows withdrawn); draw and enter every list."""
    seated_services.draw_seating(evening, by=director, seed=seed)
    enter_random_results(evening, director, random.Random(seed))


def type_player(page, first, last, club=""):
    page.locator("#id_first_name").focus()
    page.keyboard.type(first)
    page.keyboard.press("Tab")
    page.keyboard.type(last)
    if club:
        page.keyboard.press("Tab")
        page.keyboard.type(club)
    page.locator("#id_last_name").press("Enter") if not club else page.locator("#id_club").press("Enter")
    expect(page.locator(".messages")).to_contain_text("registered with number")


def add_to_season(page, live_server, season, evening):
    page.goto(f"{live_server.url}/manage/seasons/{season.slug}/")
    page.select_option("#id_tournament", str(evening.pk))
    page.get_by_role("button", name="Add to the season").click()
    expect(page.locator(".messages")).to_contain_text("is an evening of the season now")


def take_over(page, live_server, evening, source):
    page.goto(f"{live_server.url}/manage/{evening.slug}/desk/")
    page.select_option("#id_source", str(source.pk))
    page.get_by_role("button", name="Register them all").click()
    expect(page.locator(".messages")).to_contain_text(f"of “{source.name}” registered")


def check_in(evening, director, absent):
    for player in evening.participants.all():
        if player.name not in absent:
            desk.mark_arrived(player, by=director)
    if absent:
        desk.withdraw_no_shows(evening, by=director)


def test_three_evenings_of_a_schafkopf_season(live_server, page, director):
    login_by_keyboard(page, live_server.url, director)
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))

    # the season: best 2 of the evenings count, ranked from 2 evenings on
    page.goto(f"{live_server.url}/manage/seasons/")
    expect(page.locator("#id_name")).to_be_focused()
    page.keyboard.type("Schafkopf season 2027")
    page.select_option("#id_game", "schafkopf")
    page.select_option("#id_language", "en")
    page.fill("#id_place_points", "10 8 6 5 4 3 2 1")
    page.fill("#id_best_of", "2")
    page.fill("#id_min_evenings", "2")
    page.get_by_role("button", name="Create the season").click()
    expect(page.locator(".messages")).to_contain_text("created")
    season = Season.objects.get()

    # evening 1: eight players, two of them typed at the desk
    first = new_evening(director, 8)
    page.goto(f"{live_server.url}/manage/{first.slug}/desk/")
    type_player(page, "Anna", "Huber", "SK Au")
    type_player(page, "Bert", "Maier")
    for name in FIRST[2:]:
        desk.add_participant(first, by=director, first_name=name.split()[0], last_name=name.split()[1])
    add_to_season(page, live_server, season, first)
    check_in(first, director, absent=())
    play(first, director, seed=1)

    # Erna is in the register already (she played elsewhere); she comes to evening 2
    Person.objects.create(first_name="Erna", last_name="Zeller", club="SK Moosach")

    # evening 2: the players of evening 1 in one step; Carl and Dora do not come, Erna and Ida join
    second = new_evening(director, 15)
    take_over(page, live_server, second, first)
    assert second.participants.count() == 8
    page.locator("#id_first_name").focus()
    page.keyboard.type("Zel")
    suggestion = page.get_by_role("option", name="Erna Zeller (SK Moosach)")
    expect(suggestion).to_be_visible()
    shot(page, "suggestions")
    page.keyboard.press("ArrowDown")
    expect(suggestion).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")  # takes the suggestion: names and club filled in
    expect(page.locator("#id_last_name")).to_have_value("Zeller")
    expect(page.locator("#id_club")).to_have_value("SK Moosach")
    page.locator("#id_club").press("Enter")
    expect(page.locator(".messages")).to_contain_text("Erna Zeller registered")
    type_player(page, "Ida", "Neu")
    assert second.participants.get(last_name="Zeller").person.club == "SK Moosach"
    check_in(second, director, absent=("Carl Bauer", "Dora Wagner"))
    add_to_season(page, live_server, season, second)
    play(second, director, seed=2)

    # evening 3: the players of evening 2 (Carl and Dora withdrawn there: not taken), Carl back, Hans away
    third = new_evening(director, 22)
    add_to_season(page, live_server, season, third)
    take_over(page, live_server, third, second)
    type_player(page, "Carl", "Bauer")
    check_in(third, director, absent=("Hans Wolf",))
    play(third, director, seed=3)

    # Erna was linked to her register entry, not given a second one
    assert Person.objects.filter(last_name="Zeller").count() == 1
    assert third.participants.get(last_name="Bauer").person == first.participants.get(last_name="Bauer").person

    page.goto(f"{live_server.url}/manage/seasons/{season.slug}/")
    ranking = page.locator(".season-ranking table")
    expect(ranking).to_be_visible()
    shot(page, "ranking")
    table = seasons.season_table(season)
    assert [e.final for e in table.evenings] == [True, True, True]
    rows = ranking.locator("tbody tr")
    expect(rows).to_have_count(len(table.rows))
    by_name = {row.person.name: row for row in table.rows}
    # Anna played all three evenings: one result discarded (in brackets), her total the best two
    anna = rows.filter(has_text="Anna Huber")
    cells = [anna.locator("td").nth(i).inner_text() for i in range(5, 8)]
    assert sum(c.startswith("(") for c in cells) == 1
    assert anna.locator("td").nth(3).inner_text() == str(by_name["Anna Huber"].total)
    # Dora played one evening only: listed without a rank
    assert rows.filter(has_text="Dora Wagner").locator("td").first.inner_text() == ""
    assert by_name["Dora Wagner"].rank is None and by_name["Ida Neu"].evenings == 2
    assert by_name["Erna Zeller"].evenings == 2 and by_name["Erna Zeller"].rank is not None

    # published: the same ranking for everyone, on a phone too
    page.get_by_role("button", name="Publish the season ranking").click()
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{live_server.url}/p/seasons/{season.slug}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Season ranking")
    expect(page.locator("table.standings tbody tr")).to_have_count(len(table.rows))
    shot(page, "public_phone")
