"""A Voms evening where a team goes home: Team 1 is withdrawn from round 3 by keyboard on its page, after a
confirmation that says what happens; the entry page needs no slip for its games, and the standings, the printouts
(PDF text) and the public pages mark it "withdrawn from round 3" (issue 25, voms.md "a team leaves early")."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.games.voms import entries as voms_entries
from scoring.games.voms.services import slips as voms_slips
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of, tab_to
from tests.pdf_text import page_texts
from tournament.models import Match, Team

MARK = "Team 1 (withdrawn from round 3)"


def pdf_text(page, url: str) -> str:
    response = page.request.get(url)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf", url
    return " ".join(" ".join(text.split()) for text in page_texts(response.body()))


@pytest.mark.django_db(transaction=True)
def test_a_team_withdrawn_from_round_3(live_server, page, browser, drawn, director):
    for match in Match.objects.filter(stage__tournament=drawn, round__number__in=(1, 2), team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))
    team = Team.objects.get(tournament=drawn, name="Team 1")
    base = f"{live_server.url}/manage/{drawn.slug}"
    shots = ARTIFACTS / "voms-withdrawal"

    # The team's page at the desk: the way to withdraw it, by keyboard
    login_by_keyboard(page, live_server.url, director, reverse("tournament:desk_entry", args=[drawn.slug, team.pk]))
    link = f"a[href$='/voms/teams/{team.pk}/leaves/']"
    tab_to(page, link)
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    expect(page.locator("#id_from_round")).to_be_focused()
    expect(page.locator("#id_from_round")).to_have_value("3")  # the round still to play
    keep_screenshot(page, shots / "1-withdraw-page.png", full_page=True)
    page.keyboard.press("Tab")  # to "Withdraw the team"
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    # the confirmation says what happens, and its Yes has the focus
    expect(page.locator("h1")).to_have_text("Withdraw Team 1 from round 3 on?")
    expect(page.locator(".confirm")).to_contain_text("Its results of rounds 1 to 2 stand.")
    expect(page.locator(".confirm")).to_contain_text("count 9:0 for the opponents, without a slip")
    expect(page.locator("#confirm-yes")).to_be_focused()
    keep_screenshot(page, shots / "2-confirmation.png", full_page=True)
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_contain_text("Team 1 is withdrawn from round 3 on")
    expect(page.locator("main, body").first).to_contain_text("withdrawn from round 3")
    assert Team.objects.get(pk=team.pk).withdrawn_from_round == 3

    # No slip to type for its games: the entry page says so for its table, and "Still missing" leaves it out
    game = next(m for m in Match.objects.filter(stage__tournament=drawn, round__number=3, team_b__isnull=False)
                if team.pk in (m.team_a_id, m.team_b_id))
    page.goto(f"{base}/voms/enter/")
    expect(page.locator("#id_table")).to_be_focused()
    page.keyboard.type(str(game.table_number))
    expect(page.locator("#slip-teams")).to_contain_text("counts 9:0 for the opponent")
    expect(page.locator("#slip-teams")).to_contain_text(MARK)
    expect(page.locator("#still-missing")).not_to_contain_text("Team 1")
    keep_screenshot(page, shots / "3-enter-slips.png", full_page=True)

    # The standings mark it, with the forfeits counted
    page.goto(f"{base}/voms/standings/")
    expect(page.locator("table.standings")).to_contain_text(MARK)
    keep_screenshot(page, shots / "4-standings.png", full_page=True)

    # The printouts: standings, results (the forfeit named), cross-table
    assert MARK in pdf_text(page, f"{base}/voms/print/standings.pdf")
    results = pdf_text(page, f"{base}/voms/print/results.pdf")
    assert MARK in results and "forfeit: Team 1 withdrawn" in results
    assert MARK in pdf_text(page, f"{base}/voms/print/crosstables.pdf")

    # The public pages, on a phone
    from tournament.services.publishing import KINDS, set_publication

    set_publication(drawn, by=director, kinds=KINDS)
    with page_of(browser, width=390, height=844) as phone:
        phone.goto(live_server.url + reverse("public:standings", args=[drawn.slug]))
        expect(phone.locator("body")).to_contain_text(MARK)
        keep_screenshot(phone, shots / "5-public-standings-390.png", full_page=True)
        phone.goto(live_server.url + reverse("public:results", args=[drawn.slug]))
        expect(phone.locator("body")).to_contain_text(MARK)
        phone.goto(live_server.url + reverse("public:seat", args=[drawn.slug]) + "?q=P0+One")
        expect(phone.locator("body")).to_contain_text("This team is out of the tournament: withdrawn from round 3.")
        keep_screenshot(phone, shots / "6-public-find-390.png", full_page=True)
