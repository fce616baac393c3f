"""A second person re-types a Voms slip by keyboard, is shown the one field that differs, and fixes it."""

import pytest
from playwright.sync_api import expect

from scoring.models import PendingSheet, ScoreSheet
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard, tab_to
from tournament.models import AuditEntry, Role, TournamentRole


@pytest.mark.django_db(transaction=True)
def test_second_entry_differs_by_one_field_and_is_fixed_by_keyboard(live_server, page, make_game,
                                                                     django_user_model):
    game = make_game("voms")
    game.tournament.double_entry = True
    game.tournament.save()
    users = []
    for name in ("anna", "bert"):
        user = django_user_model.objects.create_user(username=name, password=f"pw-{name}-Secret-1")
        user.raw_password = f"pw-{name}-Secret-1"
        TournamentRole.objects.create(tournament=game.tournament, user=user, role=Role.ASSISTANT)
        users.append(user)
    anna, bert = users
    game.service.record_slip(game.place, by=anna, entry={"lus_a": 9, "lus_b": 3})
    table = str(game.place.table_number)

    login_by_keyboard(page, live_server.url, bert, f"/manage/{game.tournament.slug}/voms/enter/")
    expect(page.locator("#pending-slips")).to_contain_text("anna")
    expect(page.locator("#id_table")).to_be_focused()
    page.keyboard.type(table)
    page.keyboard.press("Tab")
    page.keyboard.type("9")
    page.keyboard.press("Tab")
    page.keyboard.type("4")  # the paper says 3: a typing slip
    page.keyboard.press("Enter")

    versions = page.locator("#two-versions")
    expect(versions).to_contain_text("The two entries differ")
    expect(versions.locator("tr.tv-diff")).to_have_count(1)
    expect(versions.locator("tr.tv-diff")).to_contain_text("Lus team B")
    expect(page.locator("#id_lus_b")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_lus_a")).not_to_have_attribute("aria-invalid", "true")
    assert not ScoreSheet.objects.exists()
    keep_screenshot(page, ARTIFACTS / "double-entry-differences.png", full_page=True)

    # the focus is on the field that differs (issue 12: after an error the focus goes to the field in error)
    expect(page.locator("#id_lus_b")).to_be_focused()
    page.keyboard.press("Control+a")
    page.keyboard.type("3")
    page.keyboard.press("Enter")

    expect(page.locator(".messages")).to_contain_text("Confirmed (same as the first entry)")
    expect(page.locator("#two-versions")).to_have_count(0)
    sheet = ScoreSheet.objects.get()
    assert sheet.entries == [{"lus_a": 9, "lus_b": 3}] and sheet.entered_by == anna
    assert not PendingSheet.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_director_decides_by_keyboard_and_enter_in_a_field_never_decides(live_server, page, make_game, director,
                                                                          django_user_model):
    """The director retypes a slip differently: Enter in the marked field saves again (still different: nothing
    counts, no decision is taken for them); Shift+Tab reaches "let the first entry count", Enter presses it."""
    game = make_game("voms")
    game.tournament.double_entry = True
    game.tournament.save()
    anna = django_user_model.objects.create_user(username="anna", password="pw-anna-Secret-1")
    TournamentRole.objects.create(tournament=game.tournament, user=anna, role=Role.ASSISTANT)
    game.service.record_slip(game.place, by=anna, entry={"lus_a": 9, "lus_b": 3})

    login_by_keyboard(page, live_server.url, director, f"/manage/{game.tournament.slug}/voms/enter/")
    expect(page.locator("#id_table")).to_be_focused()
    page.keyboard.type(str(game.place.table_number))
    page.keyboard.press("Tab")
    page.keyboard.type("9")
    page.keyboard.press("Tab")
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    expect(page.locator("#two-versions")).to_contain_text("The two entries differ")
    expect(page.locator("#keep-first")).to_be_visible()
    expect(page.locator("#id_lus_b")).to_be_focused()

    page.keyboard.press("Control+a")
    page.keyboard.type("6")  # still not what the first entry says
    page.keyboard.press("Enter")
    expect(page.locator("#two-versions")).to_contain_text("The two entries differ")
    expect(page.locator("#two-versions")).to_contain_text("6")
    assert not ScoreSheet.objects.exists() and not AuditEntry.objects.filter(action="sheet.decided").exists()

    expect(page.locator("#id_lus_b")).to_be_focused()
    for _ in range(12):  # back through the form to the decision buttons above it
        if page.evaluate("document.activeElement.id") == "keep-first":
            break
        page.keyboard.press("Shift+Tab")
    expect(page.locator("#keep-first")).to_be_focused()
    keep_screenshot(page, ARTIFACTS / "double-entry-decide-by-keyboard.png", full_page=True)
    page.keyboard.press("Enter")

    expect(page.locator(".messages")).to_contain_text("The first entry counts, not yours")
    assert ScoreSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 3}]
    audit = AuditEntry.objects.get(action="sheet.decided")
    assert audit.after["decision"] == "first" and audit.before["entries"] == [{"lus_a": 9, "lus_b": 6}]


@pytest.mark.django_db(transaction=True)
def test_patience_results_second_person_by_keyboard_confirm_then_the_differing_field(live_server, page, director,
                                                                                   django_user_model):
    """A deal whose results await confirmation: for the second person Confirm has the focus (nothing had it when the
    page was not opened from the round board); a differing entry puts the focus on the differing field (it went to
    the first row)."""
    import dataclasses

    from django.test import Client
    from django.urls import reverse

    from scoring.games.tablegames.config import settings_of
    from tests.tablegames.conftest import new_game, register_players

    patience = new_game(director, "domino_patience")
    seated_services.update_settings(patience, dataclasses.replace(settings_of(patience), finish_time=True), by=director)
    register_players(patience, director, 4)
    seated_services.draw_seating(patience, by=director)
    patience.double_entry = True
    patience.save()
    anna = django_user_model.objects.create_user(username="anna", password="pw-anna-Secret-1")
    TournamentRole.objects.create(tournament=patience, user=anna, role=Role.ASSISTANT)
    sheet_path = reverse("tournament:tablegames:sheet", args=[patience.slug, 1, 1])
    typed = {"r1-tiles_left": "0", "r1-finish_time": "41:10", "r2-tiles_left": "3", "r2-finish_time": "45",
             "r3-tiles_left": "5", "r3-finish_time": "45:30", "r4-tiles_left": "0", "r4-finish_time": "44:02"}
    first = Client()
    first.force_login(anna)
    first.post(sheet_path, {"version": "0", **typed})
    assert PendingSheet.objects.exists()

    login_by_keyboard(page, live_server.url, director, sheet_path)
    expect(page.locator("#confirm-entry")).to_be_focused()
    tab_to(page, "input[name=r3-finish_time]")
    page.keyboard.press("Control+a")
    page.keyboard.type("45:03")  # the paper says 45:30
    tab_to(page, "#tg-add")
    page.keyboard.press("Enter")
    expect(page.locator("#two-versions")).to_contain_text("The two entries differ")
    field = page.locator("input[name=r3-finish_time]")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    keep_screenshot(page, ARTIFACTS / "double-entry-patience-differs.png", full_page=True)
    page.keyboard.press("Control+a")
    page.keyboard.type("45:30")
    tab_to(page, "#tg-add")
    page.keyboard.press("Enter")
    expect(page.locator("#two-versions")).to_have_count(0)
    expect(page.locator("#tg-next")).to_be_focused()
    assert ScoreSheet.objects.filter(table__round__stage__tournament=patience).exists()
    assert not PendingSheet.objects.exists()
