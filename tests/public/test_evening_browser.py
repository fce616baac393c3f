"""My evening on a phone (390×844): find my seat, follow the personal link, see every round of mine; the table's
list, sent from its link, is confirmed at the referee table in another browser; the phone's page shows the sheet
counted and my rank at its next poll, without a reload. Screenshots land in test-artifacts/."""

import random

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from scoring.games.schafkopf import services as schafkopf_services
from scoring.games.schafkopf.demo import random_list
from scoring.games.schafkopf.standings import standings
from scoring.games.voms.entries import slip_entry
from scoring.games.voms.services.slips import record_slip
from scoring.models import TableLink
from scoring.results.links import issue_links
from scoring.seated.queries import places_by_participant, seated_tables
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import axe_violations, keep_screenshot, login_by_keyboard, new_phone
from tournament.models import Match, Participant, Table, Team
from tournament.public.evening_links import evening_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_follows_the_evening_on_a_phone_and_sees_the_sheet_counted(live_server, browser, page, schafkopf,
                                                                            director, publish, settings):
    settings.PUBLIC_POLL_SECONDS = 1
    publish(schafkopf, "schedule", "standings")
    me = Participant.objects.get(tournament=schafkopf, number=5)
    places = places_by_participant(seated_tables(schafkopf))[me.pk]
    table = Table.objects.get(round__stage__tournament=schafkopf, round__number=1, number=places[1][0])
    issue_links(table.round, by=director)
    schafkopf_services.enter_from_link(TableLink.objects.get(table=table), mode="games",
                                       entries=random_list(random.Random(5), 30, 4))

    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/p/{schafkopf.slug}/seat/")
        phone.locator("#q").fill("5")
        phone.locator("#q").press("Enter")
        follow = phone.get_by_role("link", name="Follow your evening")
        expect(follow).to_be_visible()
        keep_screenshot(phone, ARTIFACTS / "evening-find-my-seat-phone.png", full_page=True)
        follow.tap()
        expect(phone.locator("h1")).to_have_text("My evening")
        assert "/me/" in phone.url
        rounds = phone.locator(".places-list li")
        expect(rounds).to_have_count(2)
        for index, (number, (table_number, seat)) in enumerate(sorted(places.items())):
            expect(rounds.nth(index).locator(".big").nth(0)).to_have_text(str(number))
            expect(rounds.nth(index).locator(".big").nth(1)).to_have_text(str(table_number))
            expect(rounds.nth(index).locator(".big").nth(2)).to_have_text(str(seat))
        expect(rounds.nth(0).locator(".sheet")).to_have_text("List: sent, the referee checks")
        expect(rounds.nth(1).locator(".sheet")).to_have_text("List: not yet")
        expect(phone.locator(".standing")).to_contain_text("Not ranked yet")  # nothing counts yet
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "evening-phone-sent.png", full_page=True)

        # the referee table confirms the list, in its own browser
        login_by_keyboard(page, live_server.url, director,
                          f"/manage/{schafkopf.slug}/schafkopf/rounds/1/tables/{table.number}/")
        expect(page.locator("#pending-note")).to_contain_text("sent by the table")
        page.locator("#confirm-entry").focus()
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("the list is confirmed and counts now")

        # the phone's next poll: counted, and my rank (no reload)
        expect(rounds.nth(0).locator(".sheet")).to_have_text("List: counted")
        expect(phone.locator(".standing")).to_contain_text("Rank")
        rank = next(row.rank for row in standings(schafkopf).rows if row.participant.pk == me.pk)
        expect(phone.locator(".standing .big").first).to_have_text(str(rank))
        expect(phone.locator("figure.chart")).to_be_visible()  # the standings picture with me
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "evening-phone-counted.png", full_page=True)
    finally:
        phone.context.close()



def test_a_voms_teams_evening_on_a_phone(live_server, browser, voms, director, publish):
    publish(voms, "schedule", "standings", "results")
    team = Team.objects.filter(tournament=voms).order_by("number").first()
    first = Match.objects.filter(stage__tournament=voms, round__number=1).filter(
        Q(team_a=team) | Q(team_b=team)).get()
    record_slip(first, by=director, entry=slip_entry(lus_a=9, lus_b=4))
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}{evening_path(voms, team)}")
        expect(phone.locator("h1")).to_have_text("My evening")
        games = phone.locator(".evening-games li")
        expect(games).to_have_count(Match.objects.filter(stage__tournament=voms).filter(
            Q(team_a=team) | Q(team_b=team)).count())
        expect(games.nth(0).locator(".sheet")).to_have_text("Slip: counted")
        expect(games.nth(0)).to_contain_text("Result: 9 : 4")
        expect(phone.locator(".standing")).to_contain_text("Pool A")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "evening-voms-phone.png", full_page=True)
    finally:
        phone.context.close()
