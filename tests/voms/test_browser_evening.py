"""A Voms evening at the referee table, by keyboard at 1366×768: high lus asked, absurd lus refused, the third
absence disqualifies after a confirmation, the round moves on, the knockout is played to its winner.

Screenshots go to $VOMS_SHOTS (if set) to be looked at."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.games.voms import services
from tests.browser.helpers import login_by_keyboard
from tournament.models import Match, Stage


def shot(page, name):
    folder = os.environ.get("VOMS_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def type_slip(page, table, lus_a, lus_b):
    page.locator("#id_table").fill("")
    page.locator("#id_table").focus()
    page.keyboard.type(str(table))
    page.keyboard.press("Tab")
    page.keyboard.type(str(lus_a))
    page.keyboard.press("Tab")
    page.keyboard.type(str(lus_b))
    page.keyboard.press("Enter")


@pytest.mark.skipif(not os.environ.get("VOMS_SHOTS"), reason="a walk to look at: set VOMS_SHOTS to a folder")
@pytest.mark.django_db(transaction=True)
def test_voms_evening_with_a_disqualification(live_server, page, drawn, director):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.set_default_timeout(30000)
    expect.set_options(timeout=30000)  # a loaded machine; no timing is asserted
    t = drawn
    # Read up front: a read of the test's own while the live server writes locks SQLite's shared in-memory tables.
    team = t.teams.get(name="Team 1")
    stage = Stage.objects.get(tournament=t, kind=Stage.Kind.POOLS)
    pool = list(Match.objects.filter(stage=stage, team_b__isnull=False).select_related("round")
                .order_by("round__number", "table_number"))
    games = [m for m in pool if team.pk in (m.team_a_id, m.team_b_id)]
    first = next(m for m in pool if m.round.number == 1 and m not in games)
    login_by_keyboard(page, live_server.url, director, f"/manage/{t.slug}/voms/enter/")
    expect(page.locator("nav.vo-nav a[aria-current]")).to_have_text("Enter slips")
    expect(page.locator("#still-missing li")).to_have_count(3)

    type_slip(page, first.table_number, 5, 99)  # refused with the limit
    expect(page.locator(".f-lus_b .error")).to_contain_text("at most 20")
    expect(page.locator("#id_lus_b")).to_be_focused()
    shot(page, "01-lus-refused")
    page.locator("#id_lus_b").fill("")
    page.locator("#id_lus_b").focus()
    page.keyboard.type("13")
    page.keyboard.press("Enter")  # 13 lus are asked about
    expect(page.locator(".f-confirm_high_lus .error")).to_contain_text("13 lus — are you sure?")
    expect(page.locator("#id_confirm_high_lus")).to_be_focused()
    shot(page, "02-lus-asked")
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("5 : 13")
    expect(page.locator("#still-missing li")).to_have_count(2)

    page.locator("#id_table").focus()
    page.keyboard.type(str(first.table_number))
    expect(page.locator("#slip-teams")).to_contain_text("already entered 5:13 · Correct")
    shot(page, "03-preview-entered")

    # Team 1 is absent three times: the third absence asks for a confirmation that says so
    for number, match in enumerate(games[:3]):
        page.goto(f"{live_server.url}/manage/{t.slug}/voms/enter/?round={match.round.number}")
        absent_a = match.team_a_id == team.pk
        type_slip(page, match.table_number, "x" if absent_a else 9, 9 if absent_a else "x")
        shot(page, f"04-absence-{number}")
        if number == 2:
            expect(page.locator(".f-confirm_disqualify .error")).to_contain_text("disqualified in round")
            shot(page, "04-disqualify-asked")
            page.keyboard.press("Space")
            page.keyboard.press("Enter")
            expect(page.locator(".messages")).to_contain_text("is disqualified in round")
    # every other game of the pool, typed by keyboard
    for match in pool:
        if match in games or match == first:
            continue
        page.goto(f"{live_server.url}/manage/{t.slug}/voms/enter/?round={match.round.number}")
        type_slip(page, match.table_number, 9, match.round.number)
        expect(page.locator(".messages")).to_contain_text("points")
    page.goto(f"{live_server.url}/manage/{t.slug}/voms/enter/")
    expect(page.locator("#id_round")).to_have_value("5")
    expect(page.locator("#still-missing")).to_contain_text("Every slip of this round is in.")
    shot(page, "05-entry-complete")
    page.goto(f"{live_server.url}/manage/{t.slug}/voms/standings/")
    expect(page.locator("main")).to_contain_text("Team 1 (disqualified in round")
    expect(page.locator("a", has_text="Excel")).to_be_visible()
    shot(page, "06-standings")
    page.goto(f"{live_server.url}/manage/{t.slug}/voms/schedule/")
    shot(page, "07-schedule")

    # knockout: built, played, the winner named
    page.goto(f"{live_server.url}/manage/{t.slug}/voms/knockout/")
    page.locator("button", has_text="Build the knockout").click()
    expect(page.locator("main")).to_contain_text("The knockout was built with:")
    for _series in range(3):  # one pool: the two best play the final
        page.goto(f"{live_server.url}/manage/{t.slug}/voms/knockout/")
        if not page.locator("a", has_text="Enter game").count():
            break
        page.locator("a", has_text="Enter game").first.click()
        for _game in range(2):
            page.locator("#id_lus_a").focus()
            page.keyboard.type("9")
            page.keyboard.press("Tab")
            page.keyboard.type("4")
            page.keyboard.press("Enter")
            expect(page.locator(".messages")).to_contain_text("recorded")
    shot(page, "08-series")
    page.goto(f"{live_server.url}/manage/{t.slug}/voms/knockout/")
    expect(page.locator("#knockout-winner")).to_contain_text("Winner of the tournament")
    shot(page, "09-knockout")
    assert services.disqualifications(t) == {team.pk: games[2].round.number}
