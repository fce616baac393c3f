"""The check-in list's buttons at 1366x768 with twenty players: the buttons of one column share a width, so the
columns line up row after row, and none wraps, in German (the longest words) as in English and Danish."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT, ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, tab_to
from tournament.services.participants import add_participant, mark_arrived, mark_paid

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Sepp Maier", "Resi Gruber", "Toni Bauer", "Vroni Huber", "Xaver Lang", "Kathi Wimmer", "Franz Koch",
         "Leni Brandl", "Alois Hartl", "Burgi Stadler", "Girgl Obermeier", "Zenzi Moosbacher", "Hias Reiter",
         "Wastl Fischer", "Traudl Sedlmeier", "Loisl Eder", "Marei Kastner", "Done Hinterberger", "Ferdl Zach",
         "Vevi Oberhuber"]


def evening(director, make_tournament, fee: Decimal | None):
    """Twenty players: some arrived, some paid, some both, so each button column holds both of its labels."""
    t = make_tournament(director, name="Schafkopf evening", game="schafkopf", entry_fee=fee)
    for number, name in enumerate(NAMES, start=1):
        first, last = name.split()
        entry = add_participant(t, by=director, number=number, first_name=first, last_name=last, club="SK Au")
        if number % 3 == 0:
            mark_arrived(entry, by=director)
        if number % 4 == 0:
            mark_paid(entry, by=director, amount=fee)
    return t


def desk_in(browser, live_server, language: str):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    return page




def column_boxes(page, column: str) -> list[dict]:
    """Each row's button in `column`: its box, its label, whether the label runs out of it."""
    return page.eval_on_selector_all(f"#desk-list td.desk-{column} button", """buttons => buttons.map(b => {
        const box = b.getBoundingClientRect();
        return {x: box.x, width: box.width, height: box.height, text: b.firstChild.textContent.trim(),
                overflows: b.scrollWidth > b.clientWidth + 1};
    })""")


@pytest.mark.parametrize(("language", "fee"), [("de", Decimal("10.00")), ("de", None), ("en", Decimal("10.00")),
                                               ("da", Decimal("10.00"))])
def test_the_checkin_buttons_line_up_in_columns_and_do_not_wrap(live_server, browser, director, make_tournament,
                                                                language, fee):
    tournament = evening(director, make_tournament, fee)
    page = desk_in(browser, live_server, language)
    try:
        login_by_keyboard(page, live_server.url, director, f"/manage/{tournament.slug}/desk/check-in/")
        expect(page.locator("#desk-list tbody tr")).to_have_count(20)
        expect(page.locator("#desk-list input.amount")).to_have_count(15 if fee else 0)
        name = f"desk-checkin-buttons-{language}{'' if fee else '-no-fee'}"
        keep_screenshot(page, ARTIFACTS / f"{name}.png", full_page=True)
        for column in ("arrived", "paid"):
            boxes = column_boxes(page, column)
            assert len(boxes) == 20
            assert len({box["text"] for box in boxes}) == 2, "both labels of the column are on the page"
            widths = {round(box["width"]) for box in boxes}
            assert len(widths) == 1, f"{column}: buttons of one column share a width: {boxes}"
            assert len({round(box["x"]) for box in boxes}) == 1, f"{column}: the column lines up: {boxes}"
            assert len({round(box["height"]) for box in boxes}) == 1, f"{column}: one line each: {boxes}"
            assert not any(box["overflows"] for box in boxes), f"{column}: a label runs out of its button"
        heights = page.eval_on_selector_all("#desk-list td.desk-button button", "bs => bs.map(b => b.offsetHeight)")
        assert max(heights) == min(heights), "no label wraps onto a second line"
        # the keyboard still shows where it is: a focused button has its outline
        first = "#desk-list tbody tr:first-child td.desk-arrived button"
        tab_to(page, first)
        outline = page.eval_on_selector(first, "b => getComputedStyle(b).outlineStyle + ' ' "
                                               "+ getComputedStyle(b).outlineWidth")
        assert outline.startswith("solid") and not outline.endswith(" 0px"), outline
        keep_screenshot(page, ARTIFACTS / f"{name}-focus.png")
    finally:
        page.context.close()
