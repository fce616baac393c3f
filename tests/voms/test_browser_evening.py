"""A whole Voms evening at the referee table, from an empty database, by keyboard at 1366×768.

The director creates the tournament, registers nine teams at the desk (one renamed, one registered twice after
the duplicate warning and deleted again), checks in eight, withdraws the no-show at the draw, draws two pools of
four, prints, types every slip (lus above 12 asked, above 20 refused, a correction with its reason, the third
absence of a team that disqualifies it after a confirmation), sees the standings labelled provisional, plays the
semifinals and the final best of 3, sees the winner and the final ranking, exports Excel and archives.

Screenshots are kept in test-artifacts/voms-evening/ to be looked at.
"""

import io
import re

import openpyxl
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT, ARTIFACTS
from tests.browser.helpers import keep_screenshot, start_tournament_by_keyboard
from tournament.models import Match, Stage, Team, Tournament

SHOTS = ARTIFACTS / "voms-evening"

TEAMS = [  # (team name, player 1, player 2)
    ("Kammen", "Anna Berg", "Bo Dahl"),
    ("Lusene", "Carl Eng", "Dorte Fisk"),
    ("Trumf", "Erik Gram", "Frida Holm"),
    ("Spar Es", "Gitte Ibsen", "Hans Juul"),
    ("Ruder", "Ida Krog", "Jens Lund"),
    ("Klør", "Karen Mik", "Lars Nør"),
    ("Hjerter", "Mette Ohl", "Niels Pan"),
    ("Bønder", "Ole Quist", "Pia Rask"),
    ("Sidste", "Rikke Sand", "Søren Tang"),  # does not come: withdrawn at the draw
]


def shot(page, name):
    keep_screenshot(page, SHOTS / f"{name}.png", full_page=True)


def register(page, name, player1, player2, *, duplicate=False):
    expect(page.locator("#id_player1")).to_be_focused()
    page.keyboard.type(player1)
    page.keyboard.press("Tab")
    page.keyboard.type(player2)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")  # the team name comes first on the form, empty: the players' names
    expect(page.locator("#id_name")).to_be_focused()
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    if duplicate:
        expect(page.locator(".errors, .errorlist").first).to_contain_text("already")
        expect(page.locator("#id_confirm_duplicate")).to_be_focused()
        shot(page, "02-duplicate-asked")
        page.keyboard.press("Space")
        page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text(f"{name} registered with number")


def type_slip(page, round_number, table, lus_a, lus_b):
    page.locator("#id_round").fill(str(round_number))
    page.locator("#id_table").focus()
    page.keyboard.press("Control+a")
    page.keyboard.type(str(table))
    page.keyboard.press("Tab")
    page.keyboard.type(str(lus_a))
    page.keyboard.press("Tab")
    page.keyboard.type(str(lus_b))
    page.keyboard.press("Enter")


def confirm_box(page, field):
    """A question on the slip: the box has the focus, Space ticks it, Enter saves."""
    expect(page.locator(f"#id_{field}")).to_be_focused()
    page.keyboard.press("Space")
    page.keyboard.press("Enter")


def open_pdf(page, url):
    response = page.request.get(url)
    assert response.status == 200, url
    assert response.headers["content-type"] == "application/pdf", url
    assert response.headers["content-disposition"].startswith("inline"), url
    assert response.body()[:5] == b"%PDF-"


def enter_series(page, base, match_pk, games):
    page.goto(f"{base}/voms/knockout/{match_pk}/")
    for lus_a, lus_b in games:
        expect(page.locator("#id_lus_a")).to_be_focused()
        page.keyboard.type(str(lus_a))
        page.keyboard.press("Tab")
        page.keyboard.type(str(lus_b))
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("recorded")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_whole_voms_evening(live_server, page, director):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.set_default_timeout(ACTION_TIMEOUT)
    expect.set_options(timeout=20000)  # a loaded machine; no timing is asserted

    # --- a new tournament, by keyboard
    start_tournament_by_keyboard(page, live_server.url, director, name="Voms evening", game="Vom", venue="Klubhuset")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Voms evening")
    t = Tournament.objects.get(name="Voms evening")
    base = f"{live_server.url}/manage/{t.slug}"

    # --- the desk: nine teams, one typed twice (asked, confirmed, then deleted), one renamed
    page.goto(f"{base}/desk/")
    for name, player1, player2 in TEAMS[:3]:
        register(page, name, player1, player2)
    register(page, "Trumf", "Erik Gram", "Frida Holm", duplicate=True)
    for name, player1, player2 in TEAMS[3:]:
        register(page, name, player1, player2)
    shot(page, "01-desk")
    twice = Team.objects.filter(tournament=t, name="Trumf").order_by("number").last()
    page.goto(f"{base}/desk/entries/{twice.pk}/")
    page.locator("a.button", has_text="Delete this team").click()
    page.locator("#id_reason").fill("typed twice")
    page.locator("button", has_text="Yes, delete").click()
    expect(page.locator(".messages")).to_contain_text("Trumf deleted")
    renamed = Team.objects.get(tournament=t, name="Lusene")
    page.goto(f"{base}/desk/entries/{renamed.pk}/")
    page.locator("#id_name").fill("Lusene fra Aarhus")
    page.locator("#id_name").press("Enter")
    expect(page.locator(".messages")).to_contain_text("changes saved")
    expect(page.locator("table.grid tbody tr")).to_have_count(9)
    expect(page.locator("main")).to_contain_text("Lusene fra Aarhus")
    shot(page, "03-desk-after-corrections")

    # --- check-in by keyboard: eight arrive (two pay at once), "Sidste" does not come
    page.goto(f"{base}/desk/check-in/")
    for number, (name, _p1, _p2) in enumerate(TEAMS[:8]):
        find = page.locator("#desk-find")
        expect(find).to_be_focused()
        find.type(name.split()[0] if number != 1 else "aarhus")
        page.keyboard.press("Shift+Enter" if number < 2 else "Enter")
        expect(page.locator("#desk-counts")).to_contain_text(f"{number + 1} of 9 arrived")
    expect(page.locator("#desk-counts")).to_contain_text("8 of 9 arrived, 2 paid")
    shot(page, "04-checkin")

    # --- the draw: the no-show is withdrawn in one step, then two pools of four
    page.goto(f"{base}/voms/draw/")
    expect(page.locator("#no-shows-title")).to_contain_text("1 registered has not arrived")
    page.locator("button", has_text="Withdraw them before the draw").click()
    expect(page.locator(".messages")).to_contain_text("Sidste")
    page.locator("#id_pools").fill("2")
    page.locator("#id_seed").fill("5")
    page.locator("#id_seed").press("Enter")
    expect(page.locator(".messages")).to_contain_text("Pools drawn")
    shot(page, "05-draw")
    expect(page.locator("main")).not_to_contain_text("Sidste")

    # --- printouts: every PDF opens in the browser
    page.goto(f"{base}/voms/print/")
    shot(page, "06-printouts")
    for name in ("slips", "lusboards", "schedule", "pools", "standings", "crosstables"):
        open_pdf(page, f"{base}/voms/print/{name}.pdf" + ("?round=1" if name in ("slips", "lusboards") else ""))
    download = page.locator("#print-pools a.pdf-download")  # beside each PDF: save it instead of opening it
    saved = page.request.get(live_server.url + download.get_attribute("href"))
    assert saved.headers["content-disposition"].startswith("attachment")

    # --- slips, by keyboard
    stage = Stage.objects.get(tournament=t, kind=Stage.Kind.POOLS)
    games = list(Match.objects.filter(stage=stage, team_b__isnull=False).select_related("round", "team_a", "team_b")
                 .order_by("round__number", "table_number"))
    assert len(games) == 12
    absent = games[0].team_a  # absent in all three rounds: disqualified at the third absence
    page.goto(f"{base}/voms/enter/")
    expect(page.locator("#still-missing li")).to_have_count(4)
    first_other = next(m for m in games if m.round.number == 1 and absent.pk not in (m.team_a_id, m.team_b_id))
    type_slip(page, 1, first_other.table_number, 5, 99)  # refused: the limit is named
    expect(page.locator(".f-lus_b .error")).to_contain_text("at most 20")
    expect(page.locator("#id_lus_b")).to_be_focused()
    shot(page, "07-lus-refused")
    page.keyboard.press("Control+a")
    page.keyboard.type("13")
    page.keyboard.press("Enter")  # 13 lus: asked
    expect(page.locator(".f-confirm_high_lus .error")).to_contain_text("13 lus — are you sure?")
    shot(page, "08-lus-asked")
    confirm_box(page, "confirm_high_lus")
    expect(page.locator(".messages")).to_contain_text("5 : 13")
    typed = {first_other.pk}
    for match in games:
        if match.pk in typed:
            continue
        if absent.pk in (match.team_a_id, match.team_b_id):
            side_a = match.team_a_id == absent.pk
            type_slip(page, match.round.number, match.table_number, "x" if side_a else 9, 9 if side_a else "x")
            if match.round.number == 3:
                expect(page.locator(".f-confirm_disqualify .error")).to_contain_text("disqualified in round 3")
                shot(page, "09-disqualify-asked")
                confirm_box(page, "confirm_disqualify")
                expect(page.locator(".messages")).to_contain_text("is disqualified in round 3")
            else:
                expect(page.locator(".messages")).to_contain_text("points")
        else:
            type_slip(page, match.round.number, match.table_number, 9, match.table_number + match.round.number)
            expect(page.locator(".messages")).to_contain_text("points")
        typed.add(match.pk)
        if len(typed) == 6:  # half-way: the standings say they are provisional (of 12 pool games and the knockout)
            page.goto(f"{base}/voms/standings/")
            expect(page.locator("#standings-heading")).to_have_text("Provisional — after 6 of 13 slips")
            expect(page.locator("main")).not_to_contain_text("Final ranking")
            shot(page, "10-standings-provisional")
            page.goto(f"{base}/voms/enter/")
    expect(page.locator("#still-missing")).to_contain_text("Every slip of this round is in.")
    shot(page, "11-entry-complete")

    # --- a correction with its reason: the first slip was 9:5, not 5:13
    page.goto(f"{base}/voms/slip/{first_other.pk}/")
    page.locator("#id_lus_a").fill("9")
    page.locator("#id_lus_b").fill("5")
    page.locator("#id_reason").fill("read the slip upside down")
    page.locator("#id_reason").press("Enter")
    expect(page.locator(".messages")).to_contain_text("Slip corrected")
    shot(page, "12-corrected")

    page.goto(f"{base}/voms/standings/")
    expect(page.locator("main")).to_contain_text(f"{absent.name} (disqualified in round 3)")
    expect(page.locator("main")).not_to_contain_text("provisional")  # no pool is marked incomplete
    # every pool slip is in, yet the evening is not over: the knockout is still to come
    expect(page.locator("#standings-heading")).to_have_text("Provisional — after 12 of 13 slips")
    shot(page, "13-standings-pools-complete")
    page.goto(f"{base}/voms/schedule/")
    expect(page.locator("main")).to_contain_text("disqualified in round 3")
    page.goto(f"{base}/desk/")
    expect(page.locator("main")).to_contain_text("disqualified in round 3")
    shot(page, "14-desk-disqualified")

    # --- the knockout: semifinals A1–B2, B1–A2 and the final, best of 3
    page.goto(f"{base}/voms/knockout/")
    page.locator("button", has_text="Build the knockout").click()
    expect(page.locator("main")).to_contain_text("The knockout was built with:")
    ko = Stage.objects.get(tournament=t, kind=Stage.Kind.KNOCKOUT)
    semis = {m.key: m for m in ko.matches.all()}
    enter_series(page, base, semis["SF1"].pk, [(9, 4), (9, 6)])
    enter_series(page, base, semis["SF2"].pk, [(9, 2), (7, 9), (9, 3)])
    page.goto(f"{base}/voms/standings/")
    expect(page.locator("main")).not_to_contain_text("Final ranking")
    shot(page, "15-standings-before-final")
    final = Match.objects.select_related("team_a", "team_b").get(stage=ko, key="F")
    enter_series(page, base, final.pk, [(3, 9), (9, 1), (4, 9)])
    winner = final.team_b.name
    page.goto(f"{base}/voms/knockout/")
    expect(page.locator("#knockout-winner")).to_contain_text(f"Winner of the tournament: {winner}")
    shot(page, "16-knockout")
    page.locator("#knockout-winner a", has_text=re.compile("^Final ranking$")).click()
    expect(page.locator("main")).to_contain_text("Final ranking")
    expect(page.locator("table.grid").first.locator("tbody tr").first).to_contain_text(winner)
    shot(page, "17-final-ranking")
    open_pdf(page, f"{base}/voms/print/ranking.pdf")
    open_pdf(page, f"{base}/voms/print/bracket.pdf")

    # --- Excel: the winner first in the final ranking
    response = page.request.get(f"{base}/voms/print/standings.xlsx")
    assert response.status == 200
    book = openpyxl.load_workbook(io.BytesIO(response.body()), read_only=True)
    rows = [[cell for cell in row if cell is not None] for row in book.worksheets[0].iter_rows(values_only=True)]
    assert any(row[:2] == [1, winner] for row in rows if len(row) >= 2), rows[:6]

    # --- archive, after a confirmation
    page.goto(f"{base}/")
    expect(page.locator("main")).to_contain_text("Finished")
    page.locator("button", has_text="Archive").click()
    shot(page, "18-archive-asked")
    page.locator("button", has_text="Yes, archive it").click()
    expect(page.locator(".messages")).to_contain_text("archived")
    t.refresh_from_db()
    assert t.archived
