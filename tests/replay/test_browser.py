"""In a real browser: a knockout game's "Save game" double-clicked is one game, with and without JavaScript.

Without JavaScript a browser may send the form twice (a second click cancels the first navigation,
not the first request): the server's key recognises the second. (On the in-memory SQLite test database the
two are answered one after the other: `overlap_safe_server_url` in tests/conftest.py says why; on PostgreSQL
they overlap, and tests/replay/test_concurrent.py sends twelve at once.) With JavaScript (static/forms/once.js)
the second click sends nothing.
"""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import ScoreSheet
from tests.browser.conftest import ARTIFACTS, browser  # noqa: F401  (the real-browser fixture)
from tests.browser.helpers import keep_screenshot, login_by_keyboard
from tournament.models import SentForm

#: two requests at once reach the database together on PostgreSQL only: CI runs this on both (.ci/run)
pytestmark = [pytest.mark.browser, pytest.mark.both_databases]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("javascript", [True, False])
def test_series_game_double_clicked_is_one_game(overlap_safe_server_url, browser, knockout, director,  # noqa: F811
                                                javascript):
    tournament, match = knockout
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB",
                                  java_script_enabled=javascript)
    page = context.new_page()
    page.set_default_timeout(30_000)  # the shared test machine can be slow to answer
    try:
        path = f"/manage/{tournament.slug}/voms/knockout/{match.pk}/"
        if javascript:
            login_by_keyboard(page, overlap_safe_server_url, director, path)
        else:
            _login(page, overlap_safe_server_url, path)
        page.fill("#id_lus_a", "9")
        page.fill("#id_lus_b", "4")
        page.locator("#series-form button[type=submit]").dblclick()
        # without JavaScript whether the browser sends the second click is its own affair: one game either way,
        # and the page shown is the answer to the first ("Game 1 …") or to the second ("Already saved …"). Waiting
        # for that answer (not for any message) keeps the context from closing before the server has saved.
        expected = "Game 1" if javascript else re.compile("Game 1|Already saved")
        expect(page.locator(".messages")).to_contain_text(expected)
        keep_screenshot(page, ARTIFACTS / f"replay-series-double-click-js-{javascript}.png", full_page=True)
    finally:
        context.close()
    sheet = ScoreSheet.objects.get(match=match)
    assert sheet.entries == [{"lus_a": 9, "lus_b": 4}] and sheet.version == 1
    assert SentForm.objects.count() == 1


def _login(page, server_url, path):
    page.goto(f"{server_url}/accounts/login/?next={path}")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw-Director-1")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
