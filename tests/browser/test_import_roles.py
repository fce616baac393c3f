"""Importing a tournament file by keyboard: upload, then choose which of the file's roles to keep."""

import pytest
from playwright.sync_api import expect

from tests.ops.conftest import seated  # noqa: F401 - fixtures shared with the transfer tests
from tournament.models import Role, Tournament, TournamentRole
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
    tab_to(page, "main button[type=submit]:not([name=cancel])")
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/schafkopf-night-2/")
    copy = Tournament.objects.get(slug="schafkopf-night-2")
    roles = dict(TournamentRole.objects.filter(tournament=copy).values_list("user__username", "role"))
    assert roles == {"director": Role.DIRECTOR, "helper": Role.ASSISTANT}
