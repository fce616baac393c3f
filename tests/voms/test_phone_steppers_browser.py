"""A Voms slip on a phone (390 x 844) by the steppers only: taps on − and +, no typing. The rules' refusal is shown
while tapping (both teams at 9 and no winner), the match points as the lus change; the slip is sent and the referee
table's confirmation counts it with the same points."""

import pytest
from playwright.sync_api import expect

from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_match_links, token_of
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import axe_violations, keep_screenshot, login_by_keyboard, new_phone, tab_to
from tournament.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_voms_slip_by_steppers_only_is_sent_and_confirmed(live_server, browser, page, drawn, director):
    match = Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False) \
        .select_related("team_a", "team_b").order_by("table_number").first()
    token = token_of(issue_match_links(drawn, [match], by=director)[0])
    phone = new_phone(browser)
    taps = 0

    def step(team: str, direction: str, times: int) -> None:
        nonlocal taps
        value = "1" if direction == "+" else "-1"
        button = phone.locator(f".vs-step[data-for=id_g1-lus_{team}][data-step='{value}']")
        for _ in range(times):
            button.tap()
        taps += times

    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        for button in phone.locator(".vs-step").all():
            box = button.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, "a stepper for one thumb"
        phone.locator(".vs-nine[data-for=id_g1-lus_a]").tap()  # the winner's 9 lus at once
        taps += 1
        expect(phone.locator("#id_g1-lus_a")).to_have_value("9")
        step("b", "+", 9)
        refusal = phone.locator("#vs-refusal-g1")
        expect(refusal).to_be_visible()  # both at 9: the slip must say who won (rule 49)
        expect(refusal).to_contain_text("9")
        expect(phone.locator("#vs-points-g1")).to_be_hidden()
        keep_screenshot(phone, ARTIFACTS / "phone-steppers-voms-refusal.png")
        step("b", "-", 5)
        expect(refusal).to_be_hidden()
        print(f"\nsteppers: the slip 9:4 after a refusal in {taps} taps (9:4 straight: 1 + 4 taps)")
        expect(phone.locator("#vs-points-g1")).to_have_text(
            f"Match points — {match.team_a.name}: 2 · {match.team_b.name}: 0")
        step("a", "+", 11)  # + stops at the most lus accepted (20)
        expect(phone.locator("#id_g1-lus_a")).to_have_value("20")
        expect(phone.locator(".vs-step[data-for=id_g1-lus_a][data-step='1']")).to_be_disabled()
        step("a", "-", 11)
        expect(phone.locator("#id_g1-lus_a")).to_have_value("9")
        expect(phone.locator("#vs-points-g1")).to_contain_text(f"{match.team_a.name}: 2")
        assert axe_violations(phone) == []
        keep_screenshot(phone, ARTIFACTS / "phone-steppers-voms-slip.png")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.locator("#ph-send").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        assert PendingSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 4}]

        login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/voms/enter/?round=1")
        expect(page.locator("#pending-slips")).to_contain_text("9")
        tab_to(page, "#pending-slips button")
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("the slip is confirmed and counts now")
        game = ScoreSheet.objects.get().derived["games"][0]
        assert (game["points_a"], game["points_b"]) == ("2", "0")
    finally:
        phone.context.close()
