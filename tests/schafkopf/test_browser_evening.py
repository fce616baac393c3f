"""A whole Schafkopf evening at the referee table, walked in a real browser at 1366x768 from an empty database:
the director creates the tournament, registers the players at the desk (a duplicate name confirmed, a rename, a
mistaken entry deleted), checks them in by keyboard (one stays away), draws (withdrawing the no-show first), opens
the printouts, enters every list of both rounds at the referee table (one typed wholly by keyboard, with an
incomplete list refused and a correction with its reason), sees the provisional then the final ranking, exports
it to Excel and archives the tournament. Screenshots of every stage land in test-artifacts/evening-schafkopf-*.png.

Short lists keep it fast: 4 games a round (5 at the 5-player table), as the settings allow."""

import io
import random

import openpyxl
import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf.demo import random_list
from scoring.games.schafkopf.forms import grid_values
from scoring.games.schafkopf.standings import standings
from scoring.models import ScoreSheet
from tests.browser.conftest import ACTION_TIMEOUT, ARTIFACTS
from tests.browser.helpers import keep_screenshot, start_tournament_by_keyboard, tab_to
from tournament.models import AuditEntry, Participant, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("Sepp", "Maier", "SK Isartal"), ("Resi", "Gruber", "SK Isartal"), ("Toni", "Bauer", "SC Hallertau"),
    ("Vroni", "Huber", "SC Hallertau"), ("Xaver", "Lang", "Trumpf Landshut"), ("Kathi", "Wimmer", ""),
    ("Franz", "Koch", "Trumpf Landshut"), ("Leni", "Brandl", "SK Rosenheim"), ("Korbinian", "Sedlmeier", ""),
    ("Kreszenz", "Obermeier", "Schafkopffreunde Dachau"), ("Alois", "Kainz", "SK Rosenheim"),
    ("Agnes", "Zellner", "Stammtisch Erding"), ("Benedikt", "Holzer", "Stammtisch Erding"),
    ("Magdalena", "Pichler", "Gasthof zur Post"), ("Ludwig", "Aigner", "Gasthof zur Post"),
    ("Regina", "Stadler", ""), ("Florian", "Forster", "SK Isartal"),
]
GAMES, GAMES_AT_FIVE = 4, 5


@pytest.fixture
def evening_page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB", accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    yield page
    context.close()


def shot(page, name: str, *, full: bool = False) -> None:
    keep_screenshot(page, ARTIFACTS / f"evening-schafkopf-{name}.png", full_page=full)


def submit(page, key: str = "Enter") -> None:
    with page.expect_navigation():
        page.keyboard.press(key)


def follow(page, selector: str, limit: int = 80) -> None:
    """Tab to a link or button and press Enter on it, as a director without a mouse does."""
    tab_to(page, selector, limit=limit)
    submit(page)


def status(page):
    return page.get_by_role("status")


def register(page, first: str, last: str, club: str = "") -> None:
    expect(page.locator("#id_first_name")).to_be_focused()
    page.keyboard.type(first)
    page.keyboard.press("Tab")
    page.keyboard.type(last)
    if club:
        page.keyboard.press("Tab")
        page.keyboard.type(club)
    submit(page)


def type_row(page, values: dict) -> None:
    """Enter moves to the next field the row still needs; Tab reaches Schneider/Schwarz and the tout initials."""
    page.keyboard.type(values["t"])
    page.keyboard.press("Enter")
    page.keyboard.type(values["d"])
    page.keyboard.press("Enter")
    if values["p"]:
        page.keyboard.type(values["p"])
        page.keyboard.press("Enter")
    page.keyboard.type(values["r"])
    if values["x"] or values["i"]:
        page.keyboard.press("Tab")
        page.keyboard.type(values["x"])
        if values["i"]:
            page.keyboard.press("Tab")
            page.keyboard.type(values["i"])
    page.keyboard.press("Enter")


#: Fills the grid's fields in the page, row by row, as Playwright's `fill` does (focus, value, an input event, to
#: which the grid's script answers, e.g. by disabling the partner of a solo), in one round trip instead of two a field.
FILL_GRID = """rows => {
  rows.forEach((values, index) => {
    for (const key of 'tdprxi') {
      const field = document.querySelector(`input[name=${key}${index + 1}]`);
      if (!values[key] || field.disabled) continue;
      field.focus();
      field.value = values[key];
      field.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertText', data: values[key]}));
    }
  });
}"""


def fill_list(page, entries: list[dict]) -> None:
    """The faster way through the same grid (typing is the way of the first tables): each field filled, then
    Enter on the save button."""
    page.evaluate(FILL_GRID, [grid_values(entry) for entry in entries])
    page.locator("#sk-save").focus()
    submit(page)


def a_list(table_size: int, seed: int) -> list[dict]:
    return random_list(random.Random(seed), GAMES_AT_FIVE if table_size == 5 else GAMES, table_size)


def table_size(page) -> int:
    return page.locator("thead th.sk-seat").count()


def test_a_whole_schafkopf_evening(live_server, evening_page, director):
    page = evening_page
    url = live_server.url

    # --- the tournament, created by keyboard -----------------------------------------------------------------
    start_tournament_by_keyboard(page, url, director, name="Schafkopf evening", game="Sch", venue="Gasthof zur Post",
                                 day="11282026")
    tab_to(page, "#id_entry_fee")
    page.keyboard.type("10")
    submit(page)
    tournament = Tournament.objects.get(name="Schafkopf evening")
    slug = tournament.slug
    assert tournament.game == "schafkopf"
    shot(page, "01-created")

    # --- settings: short lists ------------------------------------------------------------------------------
    page.goto(f"{url}/manage/{slug}/schafkopf/settings/")
    tab_to(page, "#id_games_per_round")
    page.keyboard.press("Control+A")
    page.keyboard.type(str(GAMES))
    tab_to(page, "#id_games_at_five")
    page.keyboard.press("Control+A")
    page.keyboard.type(str(GAMES_AT_FIVE))
    submit(page)
    expect(status(page)).to_contain_text("Settings saved")

    # --- the registration desk ------------------------------------------------------------------------------
    page.goto(f"{url}/manage/{slug}/desk/")
    for first, last, club in PLAYERS:
        register(page, first, last, club)
        expect(status(page)).to_contain_text("registered with number")
    # a second Sepp Maier: asked first, then registered
    register(page, "Sepp", "Maier")
    expect(page.locator(".errors")).to_contain_text("Sepp Maier is registered already (number 1)")
    expect(page.locator("#id_confirm_duplicate")).to_be_focused()
    shot(page, "02-duplicate")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    submit(page)
    expect(status(page)).to_contain_text("registered with number 18")
    # a mistaken entry, deleted before the draw
    register(page, "Typo", "Mistake")
    follow(page, "a:has-text('Delete Typo Mistake')", limit=200)
    expect(page.locator("h1")).to_contain_text("Delete 19 · Typo Mistake?")
    page.keyboard.type("typed by mistake")
    submit(page)
    expect(status(page)).to_contain_text("19 Typo Mistake deleted.")
    # a rename: Resi Gruber is Theresia Gruber-Moser
    follow(page, "a:has-text('Change Resi Gruber')", limit=200)
    expect(page.locator("#id_first_name")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("Theresia")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("Gruber-Moser")
    submit(page)
    expect(status(page)).to_contain_text("2 Theresia Gruber-Moser: changes saved.")
    expect(page.locator("table.grid")).to_contain_text("Gruber-Moser, Theresia")
    shot(page, "03-registered")
    assert Participant.objects.filter(tournament=tournament).count() == 18

    # --- check-in: all but the second Sepp Maier; every other one pays ----------------------------------------
    follow(page, "nav.desk-nav a:has-text('Check-in')")
    expect(page.locator("#desk-find")).to_be_focused()
    for number in range(1, 18):
        page.keyboard.type(str(number) if number % 3 else PLAYERS[number - 1][1] if number != 2 else "Gruber")
        expect(page.locator("#desk-list tr.selected")).to_have_count(1)
        submit(page, "Shift+Enter" if number % 2 else "Enter")
        expect(page.locator("#desk-find")).to_be_focused()
    expect(page.locator("#desk-counts")).to_have_text("17 of 18 arrived, 9 paid · takings 90.00")
    shot(page, "04-checkin")

    # --- the draw: the no-show withdrawn first, then 17 players at 3 tables of 4 and one of 5 -----------------
    follow(page, "nav a:text-is('Seating')")
    expect(page.locator("#no-shows-title")).to_contain_text("1 registered has not arrived")
    shot(page, "05-no-shows")
    follow(page, "button:has-text('Withdraw them before the draw')")
    expect(status(page)).to_contain_text("1 withdrawn who did not arrive: Sepp Maier")
    tab_to(page, "#id_seed", limit=80)
    submit(page)
    expect(page.locator(".seated-seed")).to_be_visible()
    expect(page.locator("body")).to_contain_text("17 players at 4 tables")
    expect(page.locator("body")).to_contain_text("Gruber-Moser")
    assert AuditEntry.objects.filter(tournament=tournament, action__endswith="seating.draw").exists()
    shot(page, "06-seating")

    # --- printouts: every PDF opens in the browser ----------------------------------------------------------
    follow(page, "nav a:text-is('Printouts')")
    shot(page, "07-printouts")
    pdf_links = page.locator("a.button:text-is('PDF')")
    assert pdf_links.count() >= 6
    for href in [pdf_links.nth(i).get_attribute("href") for i in range(pdf_links.count())]:
        answer = page.request.get(url + href)
        assert answer.status == 200, href
        assert answer.headers["content-type"] == "application/pdf", href
        assert answer.headers["content-disposition"].startswith("inline"), href
        assert answer.body()[:5] == b"%PDF-", href

    # --- round 1 at the referee table -----------------------------------------------------------------------
    follow(page, "nav a:text-is('Score lists')")
    shot(page, "08-round-1")
    follow(page, "a:has-text('Enter'):has(.sr-only:text-is(' Table 1'))")
    expect(page.locator("input[name=t1]")).to_be_focused()
    first = a_list(table_size(page), seed=101)
    # a tired director: two games typed, then Enter on the empty third row goes to Save: refused as incomplete
    for entry in first[:2]:
        type_row(page, grid_values(entry))
    page.keyboard.press("Enter")
    expect(page.locator("#sk-save")).to_be_focused()
    submit(page)
    expect(page.locator("#sk-error")).to_be_visible()
    expect(page.locator("input[name=t3]")).to_be_focused()
    shot(page, "09-incomplete-refused")
    assert not ScoreSheet.objects.exists()
    for entry in first[2:]:
        type_row(page, grid_values(entry))
    expect(page.locator("#sk-save")).to_be_focused()
    expect(page.locator("#sk-sum")).to_contain_text("sum 0")
    shot(page, "10-typed")
    submit(page)
    expect(status(page)).to_contain_text("Round 1, table 1: list saved.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 2")  # on to the next missing table
    for table in (2, 3, 4):
        expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {table}")
        fill_list(page, a_list(table_size(page), seed=100 + table))
        expect(status(page)).to_contain_text(f"Round 1, table {table}: list saved.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Score lists of round 1")

    # provisional after round 1
    follow(page, "nav a:text-is('Standings')")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Provisional — after 4 of 8 score lists")
    expect(page.locator("body")).not_to_contain_text("Final ranking")
    shot(page, "11-provisional", full=True)

    # a list corrected after hand-in: the reason is asked for
    page.goto(f"{url}/manage/{slug}/schafkopf/rounds/1/tables/1/")
    expect(page.locator("input[name=t1]")).to_be_focused()
    corrected = dict(first[1], won=not first[1]["won"])
    page.locator("input[name=r2]").focus()
    page.keyboard.type(grid_values(corrected)["r"])
    tab_to(page, "#sk-save")
    submit(page)
    expect(page.locator("#sk-error")).to_be_visible()
    expect(page.locator("#id_reason")).to_be_focused()
    shot(page, "12-reason-asked")
    page.keyboard.type("Game 2 was lost; the scribe marked it won")
    page.keyboard.press("Enter")
    expect(page.locator("#sk-save")).to_be_focused()
    submit(page)
    expect(status(page)).to_contain_text("Round 1, table 1: list corrected.")
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=1)
    assert sheet.corrected and sheet.entries[1]["won"] == corrected["won"]

    # --- round 2 ---------------------------------------------------------------------------------------------
    for table in (1, 2, 3, 4):
        page.goto(f"{url}/manage/{slug}/schafkopf/rounds/2/tables/{table}/")
        fill_list(page, a_list(table_size(page), seed=200 + table))
        expect(status(page)).to_contain_text(f"Round 2, table {table}: list saved.")

    # --- the final ranking, exported --------------------------------------------------------------------------
    follow(page, "nav a:text-is('Standings')")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Final ranking")
    expect(page.locator("body")).not_to_contain_text("Provisional")
    shot(page, "13-final", full=True)
    winner = standings(tournament).rows[0]
    tab_to(page, "a:text-is('Excel')")
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    assert download.value.suggested_filename.endswith(".xlsx")
    book = openpyxl.load_workbook(io.BytesIO(download.value.path().read_bytes()), read_only=True)
    titles = [sheet.title for sheet in book.worksheets]
    final = book.worksheets[-1]
    assert titles[-1] == "Final ranking", titles
    header, first_row = list(final.iter_rows(min_row=1, max_row=2, values_only=True))
    top = dict(zip(header, first_row, strict=True))
    assert (top["Rank"], top["No."], top["Name"]) == (1, winner.participant.number, winner.participant.name)
    assert top["Points"] == winner.values["points"]
    book.close()

    # --- archive, after a confirmation ------------------------------------------------------------------------
    page.goto(f"{url}/manage/{slug}/")
    follow(page, "button:text-is('Archive')")
    expect(page.locator("h1")).to_contain_text("Archive “Schafkopf evening”?")
    shot(page, "14-archive-confirm")
    follow(page, "button:has-text('Yes, archive it')")
    expect(status(page)).to_contain_text("Tournament “Schafkopf evening” archived.")
    tournament.refresh_from_db()
    assert tournament.archived and tournament.status == "finished"
    shot(page, "15-archived")
