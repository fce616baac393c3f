"""The audit log as a German director reads it, by keyboard alone: filter by action, search, sort, open a long
value. Everything on it in German words: the actions, the objects, the fields and their values."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tournament.models import Table

from .helpers import keep_screenshot, login_by_keyboard, page_of, tab_to

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def german_page(browser):
    with page_of(browser, locale="de-DE") as page:
        yield page


def test_a_german_director_walks_the_audit_log_by_keyboard(live_server, german_page, make_director):
    from scoring.games import get_game
    from tournament.services.audit import log_action

    page = german_page
    director = make_director("boss")
    with translation.override("en"):  # written by an English session: read in German all the same
        tournament = get_game("schafkopf").demo(director, seed=1, players=16, results=True)
        table = Table.objects.filter(round__stage__tournament=tournament).order_by("round__number", "number").first()
        log_action("sheet.correction", by=director, tournament=tournament, obj=(table.round, table),
                   before={"entries": [{"game_type": "ruf", "won": True}]},
                   after={"entries": [{"game_type": "wenz", "won": False}]}, reason="Spiel 3 falsch gelesen")
    login_by_keyboard(page, live_server.url, director, f"/manage/{tournament.slug}/audit/")
    expect(page.locator("h1")).to_have_text("Änderungsprotokoll")
    main = page.locator("main")
    expect(main).to_contain_text("Ergebnis korrigiert")
    expect(main).to_contain_text("Runde 1, Tisch 1")
    expect(main).to_contain_text("Spielart: Wenz")
    expect(main).to_contain_text("Startgeld: 15,00")
    expect(main).to_contain_text("Preise: 30%, 20%, 10%, 50")
    for raw in ("ruf", "wenz", "percent", "standard", "Table 1", "Seating", "sheet.entry"):
        assert not re.search(rf"(?<![\w.]){re.escape(raw)}(?![\w.])", main.inner_text()), raw
    keep_screenshot(page, ARTIFACTS / "audit-de.png", full_page=True)

    # the action filter: its choices in words, picked by typing
    tab_to(page, "#id_action")
    page.keyboard.type("Ergebnis korr")
    tab_to(page, "form[role=search] button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"action=sheet\.correction"))
    expect(page.locator("td.action")).to_have_text(["Ergebnis korrigiert"])

    # the search finds the object in German words, though an English session wrote it
    tab_to(page, "#id_q")
    page.keyboard.press("Control+a")
    page.keyboard.type("Tisch 1")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"q=Tisch"))
    expect(page.locator("td.object").first).to_contain_text("Tisch 1")

    # show all again, sort by the action's words
    tab_to(page, "form[role=search] a")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/audit/$"))
    tab_to(page, 'thead a:text-is("Aktion")')
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"sort=action"))
    actions = page.locator("td.action").all_inner_texts()
    assert actions == sorted(actions, key=str.casefold)

    # a folded value opens from the keyboard
    tab_to(page, "details.unchanged summary >> nth=0")
    page.keyboard.press("Enter")
    expect(page.locator("details.unchanged").first).to_have_attribute("open", "")
    keep_screenshot(page, ARTIFACTS / "audit-de-sorted.png", full_page=True)
