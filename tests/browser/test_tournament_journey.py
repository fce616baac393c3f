"""A director logs in by keyboard, creates a tournament and sees it listed, in each language."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import login_by_keyboard, tab_to
from tournament.models import Tournament

CASES = [
    # language, "Log in" button, list heading, created-message start, game shown
    ("en", "Log in", "My tournaments", "Tournament", "Voms"),
    ("de", "Anmelden", "Meine Turniere", "Turnier", "Schafkopf"),
    ("da", "Log ind", "Mine turneringer", "Turneringen", "Voms"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language,login_label,heading,created,game_label", CASES)
def test_director_creates_tournament_by_keyboard(
    live_server, page, make_director, language, login_label, heading, created, game_label
):
    director = make_director()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/accounts/login/")
    expect(page.get_by_role("button", name=login_label)).to_be_visible()
    login_by_keyboard(page, live_server.url, director)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)

    tab_to(page, "a.button[href$='/manage/new/']")
    page.keyboard.press("Enter")
    expect(page.locator("#id_name")).to_be_focused()
    page.keyboard.type(f"Winter cup {language}")
    page.keyboard.press("Tab")  # game
    page.keyboard.type(game_label[:3])
    page.keyboard.press("Tab")  # date
    page.keyboard.type("12052026")  # headless Chromium shows the date field as mm/dd/yyyy
    tab_to(page, "#id_venue")  # Chromium's date field has a Tab stop per part and one for its picker
    page.keyboard.type("Club house")
    page.keyboard.press("Enter")

    expect(page.locator(".messages")).to_contain_text(created)
    tournament = Tournament.objects.get(name=f"Winter cup {language}")
    assert tournament.game == game_label.lower()
    assert tournament.venue == "Club house"
    assert tournament.date.isoformat() == "2026-12-05"
    assert tournament.language == language

    page.goto(f"{live_server.url}/manage/")
    row = page.locator("table.grid tbody tr", has_text=f"Winter cup {language}")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(re.compile(game_label))
