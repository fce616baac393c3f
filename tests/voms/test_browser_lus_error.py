"""The lus box's error on the entry page stands below its field without running over the line below (issue 25:
the text of a refused lus overlapped the teams line and the Save button), on a desktop and on a 390 px phone."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of

#: the boxes of the row's errors and of everything below the slip row, read in the page
BOXES = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
                                                                    right: r.right, text: el.textContent}; };
  const errors = [...document.querySelectorAll('.slip-row .error')].map(box);
  const row = document.querySelector('.slip-row');
  const below = [];
  for (let el = row.nextElementSibling; el; el = el.nextElementSibling)
    if (el.getClientRects().length && el.textContent.trim()) below.push(box(el));
  return {errors, below};
}"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [1280, 390])
def test_a_refused_lus_says_why_below_its_box_without_covering_the_next_line(live_server, browser, drawn, director,
                                                                            width):
    with page_of(browser, width=width, height=900) as page:
        login_by_keyboard(page, live_server.url, director, f"/manage/{drawn.slug}/voms/enter/")
        expect(page.locator("#id_table")).to_be_focused()
        page.keyboard.type("1")
        page.keyboard.press("Tab")
        page.keyboard.type("25")
        page.keyboard.press("Tab")
        page.keyboard.type("3")
        page.keyboard.press("Enter")
        error = page.locator(".f-lus_a .error")
        expect(error).to_contain_text("more than any game can reach")
        keep_screenshot(page.locator("#slip-form"), ARTIFACTS / f"voms-lus-error-{width}.png")
        boxes = page.evaluate(BOXES)
        for err in boxes["errors"]:
            assert err["right"] <= width, err  # the whole text on the screen
            for other in boxes["below"]:
                assert err["bottom"] <= other["top"] + 0.5, (err, other)  # above the next line, not over it
