"""Importing a tournament file by keyboard: upload, then choose which of the file's roles to keep, or update the
tournament of the file's identity."""

import json

import pytest
from playwright.sync_api import expect

from scoring.models import ScoreSheet
from tests.ops.conftest import seated  # noqa: F401 - fixtures shared with the transfer tests
from tournament.models import Role, Tournament, TournamentRole, TournamentSnapshot
from tournament.transfer import export_tournament

from .helpers import login_by_keyboard, tab_to

pytestmark = pytest.mark.django_db(transaction=True)


def test_import_and_keep_a_role_by_keyboard(live_server, page, seated, director, tmp_path, settings):  # noqa: F811
    file = tmp_path / "night.tournament.json"
    file.write_bytes(export_tournament(seated))
    login_by_keyboard(page, live_server.url, director, "/manage/import/")
    expect(page.locator("#id_file")).to_be_focused()
    page.locator("#id_file").set_input_files(str(file))  # the file dialog itself is the system's
    page.keyboard.press("Tab")
    tab_to(page, "main button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/import/roles/")
    expect(page.get_by_text("helper as Assistant")).to_be_visible()
    expect(page.get_by_label("helper as Assistant")).not_to_be_checked()
    tab_to(page, "input[value=helper]")
    page.keyboard.press("Space")
    # the file's tournament is here (the director directs it): a copy, not the update offered first
    tab_to(page, "input[name=action][value=update]")
    page.keyboard.press("ArrowDown")
    expect(page.locator("input[name=action][value=new]")).to_be_checked()
    tab_to(page, "main button[type=submit]:not([name=cancel])")
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/schafkopf-night-2/")
    copy = Tournament.objects.get(slug="schafkopf-night-2")
    roles = dict(TournamentRole.objects.filter(tournament=copy).values_list("user__username", "role"))
    assert roles == {"director": Role.DIRECTOR, "helper": Role.ASSISTANT}


def test_update_from_an_older_file_by_keyboard(live_server, page, seated, director, tmp_path):  # noqa: F811
    """The file is the tournament here, one score sheet behind: the page names what the update replaces, and the
    older file replaces it only once the director ticks that he wants it."""
    document = json.loads(export_tournament(seated))
    for table in document["models"]:
        if table["model"] in ("scoring.scoresheet", "scoring.sheetrevision"):
            table["rows"] = []
    file = tmp_path / "night.tournament.json"
    file.write_text(json.dumps(document), encoding="utf-8")
    login_by_keyboard(page, live_server.url, director, "/manage/import/")
    page.locator("#id_file").set_input_files(str(file))
    page.keyboard.press("Tab")
    tab_to(page, "main button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/import/roles/")
    expect(page.locator("input[name=action][value=update]")).to_be_checked()
    identity = page.locator("#identity")
    expect(identity).to_contain_text("8 players, 2 rounds, 1 score sheets")
    expect(identity).to_contain_text("The file is older than the tournament here")
    page.screenshot(path=str(tmp_path.parent / "import-update.png"), full_page=True)
    tab_to(page, "main button[type=submit]:not([name=cancel])")
    page.keyboard.press("Enter")  # not confirmed: refused, nothing changed
    expect(page.locator("#identity .error")).to_be_visible()
    assert ScoreSheet.objects.filter(tournament=seated).count() == 1
    tab_to(page, "#id_older_ok")
    page.keyboard.press("Space")
    tab_to(page, "main button[type=submit]:not([name=cancel])")
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/schafkopf-night/")
    expect(page.get_by_text("was updated with the file")).to_be_visible()
    page.screenshot(path=str(tmp_path.parent / "import-updated.png"), full_page=True)
    assert Tournament.objects.count() == 1
    assert not ScoreSheet.objects.filter(tournament=seated).exists()
    assert TournamentSnapshot.objects.filter(tournament_id=seated.pk).count() == 1
