"""Real browser: a federation's admin merges two members (the same player registered twice) by keyboard, a club's
director links a register entry by member number (a wrong number is said first), and the federation season's
ranking shows one line for each player who played in two clubs."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, tab_to
from tests.clubs.conftest import played_evening
from tournament.models import FederationMember
from tournament.services import federation as fed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS_A = ["Anna Huber", "Bert Maier", "Carl Ott", "Dora Lang", "Emil Berg", "Fritz Koch", "Gina Wolf", "Otto Kurz"]
PLAYERS_B = ["Anna Huber", "Ines Graf", "Jan Beck", "Karl Frey", "Lena Haas", "Max Seidl", "Nina Vogt", "Otto Kurz"]


def shot(page, name):
    keep_screenshot(page, ARTIFACTS / f"federation_{name}.png", full_page=True)


def numbered(world, admin, tournament, last_name):
    person = tournament.participants.get(last_name=last_name).person
    fed.request_number(person, by=world.director)
    return fed.assign_number(person, by=admin), person


def test_merge_link_and_one_line_per_member(live_server, page, federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    league = fed.create_federation_season(federation.federation, by=admin, name="Liga 2026", game="schafkopf",
                                          place_points=["10", "8", "6", "5", "4", "3", "2", "1"])
    evening_a, evening_b = played_evening(a, 3, PLAYERS_A, seed=1), played_evening(b, 4, PLAYERS_B, seed=2)
    for world, evening in ((a, evening_a), (b, evening_b)):
        fed.join_federation_season(evening, league, by=world.director)
    anna, _entry = numbered(a, admin, evening_a, "Huber")  # 1
    otto, _entry = numbered(a, admin, evening_a, "Kurz")  # 2
    twice, _entry = numbered(b, admin, evening_b, "Huber")  # 3: Anna again, asked for by club B
    otto_b = evening_b.participants.get(last_name="Kurz").person

    # the federation's admin merges number 3 into number 1, by keyboard
    admin.raw_password = "pw-fed_admin-1"
    login_by_keyboard(page, live_server.url, admin)
    tab_to(page, "header a[href='/manage/federation/']")  # the top bar of an admin of no club
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Bayerischer Schafkopfverband")
    tab_to(page, f"a[href='/manage/federation/member/{anna.number}/']")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Anna Huber")
    tab_to(page, "#id_other")
    page.keyboard.type(str(twice.number))
    page.keyboard.press("Tab")
    page.keyboard.type("registered by two clubs")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text(f"the number {twice.number} is retired")
    expect(page.locator("dl.facts")).to_contain_text(str(twice.number))  # shown as a retired number
    shot(page, "merged")
    assert FederationMember.objects.get(pk=twice.pk).merged_into_id == anna.pk

    # club B's director links Otto's entry by number: a wrong number first
    with page.context.browser.new_context(locale="en-GB") as context:
        own = context.new_page()
        b.director.raw_password = "pw-director_b-1"
        login_by_keyboard(own, live_server.url, b.director, next_path=f"/manage/register/{otto_b.pk}/")
        expect(own.get_by_role("heading", level=1)).to_contain_text("Otto Kurz")
        tab_to(own, "#id_number")
        own.keyboard.type("99")
        own.keyboard.press("Enter")
        expect(own.locator("#id_number")).to_be_focused()
        expect(own.locator("main")).to_contain_text("Your federation has no member with the number 99.")
        shot(own, "wrong_number")
        own.keyboard.press("Control+A")
        own.keyboard.type(str(otto.number))
        own.keyboard.press("Enter")
        expect(own.locator(".messages")).to_contain_text(f"Linked to the federation's member {otto.number} Otto Kurz")
        shot(own, "linked")
        expect(own).not_to_have_url(re.compile("/manage/federation/"))

    # the season's ranking: one line for Anna and one for Otto, each with two evenings
    page.goto(f"{live_server.url}{league.get_absolute_url()}")
    ranking = page.locator(".season-ranking table")
    expect(ranking.locator("tbody tr")).to_have_count(14)
    for name, number in (("Anna Huber", anna.number), ("Otto Kurz", otto.number)):
        line = ranking.locator("tbody tr", has_text=name)
        expect(line).to_have_count(1)
        expect(line.locator("td").nth(1)).to_have_text(str(number))
    shot(page, "season")
    pdf = page.request.get(f"{live_server.url}/manage/federation/seasons/{league.slug}/season.pdf")
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    (ARTIFACTS / "federation_season.pdf").parent.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "federation_season.pdf").write_bytes(pdf.body())
