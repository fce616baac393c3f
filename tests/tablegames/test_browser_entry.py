"""Real browser: a director types a rummi table's hands without the mouse, cards and all; the page adds up,
refuses an impossible hand with the rules' message, announces the end of the game and offers the next table."""

import pytest
from playwright.sync_api import expect

from scoring.models import ScoreSheet
from scoring.rules.rummi import RummiRound, play
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: (who went out, hand rummi, each seat's penalty as typed)
HANDS = [
    (2, False, ["K Q 7 JOKER A", "0", "12", "3 4"]),
    (3, True, ["20", "j q", "0", "2"]),
    (1, False, ["0", "k k k k k", "A A A", "55"]),
    (4, False, ["JOKER JOKER JOKER JOKER JOKER JOKER JOKER JOKER", "100", "90", "0"]),
]


def type_hand(page, number, out, hand_rummi, penalties):
    """Out, Enter, hand rummi (Space ticks it), Enter, then each penalty and Enter; the last Enter saves."""
    page.keyboard.type(str(out))
    page.keyboard.press("Enter")
    if hand_rummi:
        page.keyboard.press("Space")
    page.keyboard.press("Enter")
    for typed in penalties[:-1]:
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
    page.keyboard.type(penalties[-1])
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_director_types_a_rummi_table_by_keyboard(live_server, page, director, drawn):
    target = f"/manage/{drawn.slug}/table/rounds/1/tables/1/"
    login_by_keyboard(page, live_server.url, director, next_path=target)
    expect(page.locator("input[name='h1-out']")).to_be_focused()

    for number, (out, hand_rummi, penalties) in enumerate(HANDS[:3], start=1):
        type_hand(page, number, out, hand_rummi, penalties)
        expect(page.locator(".messages")).to_contain_text(f"Hand {number} saved.")
        expect(page.locator(f"input[name='h{number + 1}-out']")).to_be_focused()

    expected = play([RummiRound(out, dict(enumerate(p, start=1)), hand_rummi) for out, hand_rummi, p in HANDS[:3]])
    totals = page.locator("tfoot .tg-total").all_inner_texts()
    assert [int(t) for t in totals] == [expected.totals[s] for s in range(1, 5)], "running totals by the rules"
    assert page.locator("#h2 .tg-sum .tg-p").all_inner_texts() == ["40", "40", "0", "4"], "hand rummi doubles"

    # A winner with cards left is refused: the row keeps what was typed and says why; typing again replaces it.
    type_hand(page, 4, 4, False, ["5", "5", "5", "9"])
    expect(page.locator("tr.tg-new.tg-bad")).to_be_visible()
    expect(page.locator(".tg-msg")).to_contain_text("went out, so their penalty must be 0, not 9")
    expect(page.locator("input[name='h4-out']")).to_be_focused()
    assert ScoreSheet.objects.get().version == 3, "nothing saved"
    keep_screenshot(page, ARTIFACTS / "tablegames_rummi_refused.png", full_page=True)

    type_hand(page, 4, *HANDS[3][:2], HANDS[3][2])
    expect(page.locator("#tg-outcome")).to_contain_text("Game over after 4 hands")
    expect(page.locator("#tg-next")).to_be_focused()
    keep_screenshot(page, ARTIFACTS / "tablegames_rummi_sheet.png", full_page=True)

    sheet = ScoreSheet.objects.get()
    assert sheet.entries[0]["penalties"]["1"] == "K Q 7 JOKER A" and sheet.derived["finished"]
    assert not sheet.corrected and sheet.entered_by == director
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 2")
