"""The entry pages under double entry: messages, the Confirm button, the differences table, the setting."""

import html
import re

import pytest
from django.urls import reverse

from scoring.models import PendingSheet, ScoreSheet
from scoring.seated import services as seated_services
from tests.schafkopf.test_views import grid_post
from tests.tablegames.test_views import hand_post
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def login(client, user):
    client.force_login(user)
    return client


# --- Voms: the slip entry page ---------------------------------------------------------------------------------


@pytest.fixture
def voms_double(make_game, django_user_model):
    from tests.doubleentry.conftest import _helper

    game = make_game("voms")
    game.tournament.double_entry = True
    game.tournament.save()
    return game, _helper(django_user_model, game.tournament, "first"), _helper(
        django_user_model, game.tournament, "second")


def slip(game, lus_b=3, **extra):
    match = game.place
    return {"round": match.round.number, "table": match.table_number, "lus_a": "9", "lus_b": str(lus_b), **extra}


def test_voms_first_entry_then_difference_then_fixed(voms_double, client):
    game, first, second = voms_double
    enter = reverse("tournament:voms:enter", args=[game.tournament.slug])
    response = login(client, first).post(enter, slip(game), follow=True)
    page = text(response)
    assert "first entry saved" in page and "Awaiting confirmation" in page
    assert "your entry: someone else confirms it" in page and not ScoreSheet.objects.exists()

    response = login(client, second).post(enter, slip(game, lus_b=4))
    page = text(response)
    assert response.status_code == 200 and "The two entries differ" in page
    assert "Your entry differs from the first entry by first" in page
    assert 'data-field="lus_b"' in page and "<mark>3</mark>" in page and "<mark>4</mark>" in page
    assert 'data-field="lus_a"' not in page
    assert "Differs from the first entry." in page and not ScoreSheet.objects.exists()
    assert "Director: let my entry count" not in page

    response = client.post(enter, slip(game), follow=True)
    assert "Confirmed (same as the first entry)" in text(response)
    assert ScoreSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 3}]


def test_voms_confirm_button(voms_double, director, client):
    game, first, second = voms_double
    enter = reverse("tournament:voms:enter", args=[game.tournament.slug])
    login(client, first).post(enter, slip(game))
    pending = PendingSheet.objects.get()
    confirm = {"action": "confirm", "match": game.place.pk, "pending_version": pending.version}
    assert "yourself" in text(client.post(enter, confirm, follow=True))
    assert not ScoreSheet.objects.exists()
    page = text(login(client, second).get(enter))
    assert "Awaiting confirmation" in page and "Confirm" in page and "first" in page
    assert "counts now" in text(client.post(enter, confirm, follow=True))
    assert ScoreSheet.objects.get().entered_by == first
    correct = reverse("tournament:voms:correct", args=[game.tournament.slug, game.place.pk])
    assert "first · confirmed by second" in text(login(client, director).get(correct))


def test_voms_director_lets_their_entry_count(voms_double, director, client):
    game, first, _second = voms_double
    enter = reverse("tournament:voms:enter", args=[game.tournament.slug])
    login(client, first).post(enter, slip(game))
    page = text(login(client, director).post(enter, slip(game, lus_b=5)))
    assert "Director: let my entry count" in page and "Director: let the first entry count" in page
    client.post(enter, slip(game, lus_b=5, decide="mine"))
    assert ScoreSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 5}]
    assert AuditEntry.objects.filter(action="sheet.decided", user=director).exists()


def test_voms_director_deciding_for_their_entry_is_not_told_it_was_the_same(voms_double, director, client):
    """The table sent 9:3, the director typed 9:5 and let their entry count: the message says so, not "Confirmed
    (same as the first entry)", which would hide that the two versions differed."""
    game, first, _second = voms_double
    enter = reverse("tournament:voms:enter", args=[game.tournament.slug])
    login(client, first).post(enter, slip(game))
    page = text(login(client, director).post(enter, slip(game, lus_b=5, decide="mine"), follow=True))
    assert "Your entry counts, not the first entry" in page and "same as the first entry" not in page
    assert ScoreSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 5}]


def test_voms_stale_correction_shows_both_versions(make_game, director, client):
    game = make_game("voms")
    sheet = game.enter(director)
    game.correction(director, expected_version=1, reason="first fix")
    correct = reverse("tournament:voms:correct", args=[game.tournament.slug, game.place.pk])
    response = login(client, director).post(correct, {"lus_a": "9", "lus_b": "2", "reason": "mine",
                                                      "version": sheet.version})
    page = text(response)
    assert response.status_code == 200 and "Two versions" in page and "Saved meanwhile (version 2)" in page
    assert "<mark>7</mark>" in page and "<mark>2</mark>" in page
    assert 'name="version" value="2"' in page


# --- Schafkopf: the list page ------------------------------------------------------------------------------------


@pytest.fixture
def sk_double(make_game, django_user_model):
    from tests.doubleentry.conftest import _helper

    game = make_game("schafkopf")
    game.tournament.double_entry = True
    game.tournament.save()
    return game, _helper(django_user_model, game.tournament, "first"), _helper(
        django_user_model, game.tournament, "second")


def sk_url(game, name, *args):
    return reverse(f"tournament:schafkopf:{name}", args=[game.tournament.slug, *args])


def test_schafkopf_first_entry_confirm_and_differences(sk_double, client):
    game, first, second = sk_double
    sheet_url = sk_url(game, "sheet", 1, 1)
    page = text(login(client, first).post(sheet_url, grid_post(game.entries()), follow=True))
    assert "first entry saved" in page and not ScoreSheet.objects.exists()
    assert "awaiting confirmation: entered by first" in text(client.get(sk_url(game, "round", 1)))
    assert "You made this entry" in text(client.get(sheet_url))

    page = text(login(client, second).get(sheet_url))
    assert "Awaiting confirmation" in page and "Confirm the first entry" in page and "type-blind" in page
    blank = text(client.get(sheet_url + "?blank=1"))
    assert 'name="t1" value=""' in blank and "Show the first entry" in blank

    response = client.post(sheet_url, grid_post(game.entries(1)))
    page = text(response)
    assert response.status_code == 200 and "The two entries differ" in page
    assert 'data-field="r7"' in page and "Game 7" in page and "Won (+) or lost (−)" in page
    assert not ScoreSheet.objects.exists()

    pending = PendingSheet.objects.get()
    page = text(client.post(sheet_url, {"action": "confirm", "pending_version": pending.version}, follow=True))
    assert "the list is confirmed and counts now" in page
    assert ScoreSheet.objects.get().entered_by == first


@pytest.mark.parametrize(("language", "field", "wrong"),
                         [("de", "Feld", "Teilnehmerfeld"), ("da", "Felt", "Deltagere")])
def test_the_differences_table_heads_the_entry_field_as_a_field(sk_double, client, language, field, wrong):
    """The differences table's "Field" is a field of the form, not the field of participants (a patience's)."""
    game, first, second = sk_double
    sheet_url = sk_url(game, "sheet", 1, 1)
    login(client, first).post(sheet_url, grid_post(game.entries()))
    page = text(login(client, second).post(sheet_url, grid_post(game.entries(1)), HTTP_ACCEPT_LANGUAGE=language))
    assert f'<th scope="col">{field}</th>' in page
    assert wrong not in page


def test_schafkopf_first_person_cannot_confirm(sk_double, client):
    game, first, _second = sk_double
    sheet_url = sk_url(game, "sheet", 1, 1)
    login(client, first).post(sheet_url, grid_post(game.entries()))
    page = text(client.post(sheet_url, {"action": "confirm", "pending_version": 1}, follow=True))
    assert "a second person has to confirm it" in page and not ScoreSheet.objects.exists()


def test_schafkopf_stale_list_uses_the_shared_two_versions_table(make_game, director, client):
    game = make_game("schafkopf")
    game.enter(director)
    response = login(client, director).post(sk_url(game, "sheet", 1, 1),
                                            grid_post(game.entries(1), version="0", reason="typed again"))
    page = text(response)
    assert "Two versions" in page and 'id="two-versions"' in page and 'data-field="r7"' in page


# --- table games: the sheet page -------------------------------------------------------------------------------


@pytest.fixture
def tg_double(make_game, django_user_model):
    from tests.doubleentry.conftest import _helper

    game = make_game("rummi")
    game.tournament.double_entry = True
    game.tournament.save()
    return game, _helper(django_user_model, game.tournament, "first"), _helper(
        django_user_model, game.tournament, "second")


def tg_url(game, name, *args):
    return reverse(f"tournament:tablegames:{name}", args=[game.tournament.slug, *args])


def test_table_game_hands_pending_then_confirmed(tg_double, client):
    game, first, second = tg_double
    sheet_url = tg_url(game, "sheet", 1, 1)
    page = text(login(client, first).post(sheet_url, hand_post(1, 1, ["0", "100", "90", "80"]), follow=True))
    assert "It counts once a second person confirms the sheet." in page
    page = text(client.post(sheet_url, hand_post(2, 2, ["100", "0", "90", "80"]), follow=True))
    assert "Hand 2 saved" in page and not ScoreSheet.objects.exists()
    assert "awaiting confirmation: 2 rows entered by first" in text(client.get(tg_url(game, "round", 1)))

    page = text(login(client, second).get(sheet_url))
    assert "Confirm the first entry" in page and 'id="tg-add"' not in page
    page = text(client.post(sheet_url, {"action": "confirm", "pending_version": "2"}, follow=True))
    assert "The sheet is confirmed and counts now." in page
    assert len(ScoreSheet.objects.get().entries) == 2


def test_table_game_director_sees_differences(tg_double, director, client):
    game, first, _second = tg_double
    sheet_url = tg_url(game, "sheet", 1, 1)
    login(client, first).post(sheet_url, hand_post(1, 1, ["0", "100", "90", "80"]))
    response = login(client, director).post(sheet_url, hand_post(1, 1, ["0", "100", "95", "80"]))
    page = text(response)
    assert response.status_code == 200 and "The two entries differ" in page
    assert 'data-field="h1-penalties-3"' in page and "<mark>90</mark>" in page and "<mark>95</mark>" in page
    assert 'name="h1-penalties-3" value="95" class="tg-in tg-w16 tg-differs" aria-invalid="true"' in page
    assert "Director: let my entry count" in page


def test_table_game_stale_save_shows_both_versions(make_game, director, client):
    game = make_game("rummi")
    sheet_url = tg_url(game, "sheet", 1, 1)
    login(client, director).post(sheet_url, hand_post(1, 1, ["0", "100", "90", "80"]))
    response = client.post(sheet_url, hand_post(1, 1, ["0", "100", "95", "80"], version=0))
    page = text(response)
    assert "Two versions" in page and "Someone else saved this sheet" in page


# --- the setting ------------------------------------------------------------------------------------------------


def test_the_edit_form_switches_double_entry_on_and_it_is_audited(tournament, director, client):
    edit = reverse("tournament:edit", args=[tournament.slug])
    page = text(login(client, director).get(edit))
    assert 'name="double_entry"' in page
    data = {"name": tournament.name, "game": tournament.game, "date": "2026-12-05", "venue": "",
            "language": tournament.language, "status": tournament.status, "double_entry": "on"}
    assert client.post(edit, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.double_entry
    audit = AuditEntry.objects.filter(action="tournament.update").latest("pk")
    assert audit.before["double_entry"] is False and audit.after["double_entry"] is True
    assert 'name="double_entry"' not in text(client.get(reverse("tournament:create")))


# --- Voms: a knockout series game ------------------------------------------------------------------------------


@pytest.fixture
def series_double(director, django_user_model):
    import random

    from scoring.games.voms.demo import demo, random_game
    from scoring.games.voms.services import knockout as voms_knockout
    from scoring.games.voms.services import slips as voms_slips
    from scoring.games.voms.standings import pool_tables
    from tests.doubleentry.conftest import _helper
    from tournament.draw.bracket import Qualifier
    from tournament.models import Match, Stage

    tournament = demo(director, seed=3, teams=8, pools=2)
    rng = random.Random(3)
    for match in Match.objects.filter(stage__tournament=tournament, stage__kind=Stage.Kind.POOLS,
                                      team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry=random_game(rng))
    qualifiers = [Qualifier(pool=t.pool.index, place=row.rank, team=row.participant)
                  for t in pool_tables(tournament) for row in t.rows if row.rank <= 2]
    stage = voms_knockout.create_knockout(tournament, by=director, qualifiers=qualifiers, third_place=False,
                                 semifinal="bracket")
    match = stage.matches.filter(team_a__isnull=False, team_b__isnull=False).order_by("key").first()
    tournament.double_entry = True
    tournament.save()
    return (tournament, match, _helper(django_user_model, tournament, "first"),
            _helper(django_user_model, tournament, "second"))


def test_voms_series_game_first_entry_differences_and_confirm(series_double, client):
    tournament, match, first, second = series_double
    page_url = reverse("tournament:voms:series", args=[tournament.slug, match.pk])
    response = login(client, first).post(page_url, {"lus_a": "9", "lus_b": "4"}, follow=True)
    assert "It counts once a second person" in text(response) and not ScoreSheet.objects.filter(match=match).exists()
    assert PendingSheet.objects.get(match=match).entries == [{"lus_a": 9, "lus_b": 4}]

    page = text(login(client, second).get(page_url))
    assert 'id="pending-games"' in page and "Confirm the first entry" in page

    response = client.post(page_url, {"lus_a": "9", "lus_b": "5"})
    page = text(response)
    assert response.status_code == 200 and "The two entries differ" in page and "Differs from the first entry." in page
    assert not ScoreSheet.objects.filter(match=match).exists(), "a differing entry changes nothing"

    pending = PendingSheet.objects.get(match=match)
    response = client.post(page_url, {"action": "confirm", "pending_version": pending.version}, follow=True)
    assert "confirmed and counts now" in text(response)
    sheet = ScoreSheet.objects.get(match=match)
    assert sheet.entries == [{"lus_a": 9, "lus_b": 4}] and not PendingSheet.objects.filter(match=match).exists()


def test_voms_series_first_enterer_cannot_confirm(series_double, client):
    tournament, match, first, _second = series_double
    page_url = reverse("tournament:voms:series", args=[tournament.slug, match.pk])
    login(client, first).post(page_url, {"lus_a": "9", "lus_b": "4"})
    assert "Confirm the first entry" not in text(client.get(page_url))
    pending = PendingSheet.objects.get(match=match)
    response = client.post(page_url, {"action": "confirm", "pending_version": pending.version}, follow=True)
    assert "a second person has to confirm it" in text(response)
    assert not ScoreSheet.objects.filter(match=match).exists()


def test_voms_series_with_only_a_first_entry_shows_no_empty_table_and_captions_the_pending_games(
        series_double, director, client):
    """The page showed an empty games table (headers only) and below it an uncaptioned table of the same headers
    holding the pending game; once confirmed, its history did not say who confirmed it."""
    tournament, match, first, second = series_double
    page_url = reverse("tournament:voms:series", args=[tournament.slug, match.pk])
    login(client, first).post(page_url, {"lus_a": "9", "lus_b": "4"})
    page = text(login(client, second).get(page_url))
    assert page.count("<th>Game</th>") == 1, "one table of games: the pending one"
    assert 'id="no-games"' in page and "No game counts yet." in page
    assert '<table class="grid" id="pending-games"><caption>Awaiting confirmation</caption>' in page

    pending = PendingSheet.objects.get(match=match)
    client.post(page_url, {"action": "confirm", "pending_version": pending.version})
    page = text(login(client, director).get(page_url))
    assert "No game counts yet." not in page and 'id="pending-games"' not in page
    history = page[page.index("<h2>History</h2>"):]
    assert re.search(r"<td>first · confirmed by second</td><td>9:4</td>", history)


# --- a director decides between two different entries: both buttons post the entry form -------------------------


def decision_post(page: str, form_id: str, decide: str) -> dict:
    """What a decision button below "The two entries differ" sends besides the fields of the entry form it belongs
    to: its own name and value, and the hidden inputs tied to that form (the first entry's version)."""
    assert re.search(rf'<button type="submit" form="{form_id}" name="decide" value="{decide}"', page), decide
    hidden = dict(re.findall(rf'<input type="hidden" form="{form_id}" name="([^"]+)" value="([^"]*)"', page))
    assert "pending_version" in hidden
    return {**hidden, "decide": decide}


def assert_first_counts_and_mine_is_kept(director, first_entries, typed):
    """The first entry counts; the audit entry `sheet.decided` holds both versions, the director's as typed."""
    sheet = ScoreSheet.objects.get()
    assert sheet.entries == first_entries and not PendingSheet.objects.exists()
    audit = AuditEntry.objects.get(action="sheet.decided")
    assert audit.user == director and audit.after["decision"] == "first"
    assert audit.after["entries"] == first_entries and audit.before["entries"] == typed
    assert not AuditEntry.objects.filter(action="sheet.confirmed").exists()


def test_voms_director_lets_the_first_entry_count(voms_double, director, client):
    game, first, _second = voms_double
    enter = reverse("tournament:voms:enter", args=[game.tournament.slug])
    login(client, first).post(enter, slip(game))
    page = text(login(client, director).post(enter, slip(game, lus_b=5)))
    response = client.post(enter, {**slip(game, lus_b=5), **decision_post(page, "slip-form", "first")}, follow=True)
    assert "The first entry counts, not yours (both are in the audit log)." in text(response)
    assert_first_counts_and_mine_is_kept(director, [{"lus_a": 9, "lus_b": 3}], [{"lus_a": 9, "lus_b": 5}])


def test_schafkopf_director_lets_the_first_entry_count(sk_double, director, client):
    game, first, _second = sk_double
    sheet_url = sk_url(game, "sheet", 1, 1)
    login(client, first).post(sheet_url, grid_post(game.entries()))
    first_entries = PendingSheet.objects.get().entries
    page = text(login(client, director).post(sheet_url, grid_post(game.entries(1))))
    assert "The two entries differ" in page
    response = client.post(sheet_url, {**grid_post(game.entries(1)), **decision_post(page, "sk-list", "first")},
                           follow=True)
    assert "table 1: The first entry counts, not yours" in text(response)
    typed = AuditEntry.objects.get(action="sheet.decided").before["entries"]
    assert typed != first_entries and [g["won"] for g in typed] != [g["won"] for g in first_entries]
    assert_first_counts_and_mine_is_kept(director, first_entries, typed)


def test_while_two_entries_differ_the_note_offers_no_confirm_that_would_drop_the_typing(sk_double, director,
                                                                                        client):
    """Beside "The two entries differ", the note's own Confirm button confirmed the first entry as a plain second
    person: the director's differing typing was lost (only the decisions below keep both versions)."""
    game, first, second = sk_double
    sheet_url = sk_url(game, "sheet", 1, 1)
    login(client, first).post(sheet_url, grid_post(game.entries()))
    plain = login(client, director).get(sheet_url).content.decode()
    assert 'name="action" value="confirm"' in plain  # checking against the paper: Confirm, as before
    page = client.post(sheet_url, grid_post(game.entries(1))).content.decode()
    assert "The two entries differ" in page and "Your entry differs from it: see the differences below." in page
    assert 'name="action" value="confirm"' not in page and 'id="keep-first"' in page
    # a helper has no decision to make: Confirm stays theirs, after checking the first entry against the paper
    helper = login(client, second).post(sheet_url, grid_post(game.entries(1))).content.decode()
    assert "The two entries differ" in helper and 'name="action" value="confirm"' in helper


def test_table_game_director_lets_the_first_entry_count(tg_double, director, client):
    game, first, _second = tg_double
    sheet_url = tg_url(game, "sheet", 1, 1)
    login(client, first).post(sheet_url, hand_post(1, 1, ["0", "100", "90", "80"]))
    first_entries = PendingSheet.objects.get().entries
    page = text(login(client, director).post(sheet_url, hand_post(1, 1, ["0", "100", "95", "80"])))
    assert "The two entries differ" in page
    response = client.post(sheet_url, {**hand_post(1, 1, ["0", "100", "95", "80"]),
                                       **decision_post(page, "tg-sheet", "first")}, follow=True)
    assert "The first entry counts, not yours" in text(response)
    typed = AuditEntry.objects.get(action="sheet.decided").before["entries"]
    assert typed[0]["penalties"]["3"] == "95" and first_entries[0]["penalties"]["3"] == "90"
    assert_first_counts_and_mine_is_kept(director, first_entries, typed)


def test_table_game_director_lets_their_entry_count_from_the_page(tg_double, director, client):
    game, first, _second = tg_double
    sheet_url = tg_url(game, "sheet", 1, 1)
    login(client, first).post(sheet_url, hand_post(1, 1, ["0", "100", "90", "80"]))
    page = text(login(client, director).post(sheet_url, hand_post(1, 1, ["0", "100", "95", "80"])))
    response = client.post(sheet_url, {**hand_post(1, 1, ["0", "100", "95", "80"]),
                                       **decision_post(page, "tg-sheet", "mine")}, follow=True)
    assert "Your entry counts, not the first entry (both are in the audit log)." in text(response)
    assert ScoreSheet.objects.get().entries[0]["penalties"]["3"] == "95"
    audit = AuditEntry.objects.get(action="sheet.decided")
    assert audit.after["decision"] == "mine" and audit.before["entries"][0]["penalties"]["3"] == "90"


def test_voms_series_director_lets_the_first_entry_count(series_double, director, client):
    tournament, match, first, _second = series_double
    page_url = reverse("tournament:voms:series", args=[tournament.slug, match.pk])
    login(client, first).post(page_url, {"lus_a": "9", "lus_b": "4"})
    page = text(login(client, director).post(page_url, {"lus_a": "9", "lus_b": "5"}))
    assert "The two entries differ" in page
    response = client.post(page_url, {"lus_a": "9", "lus_b": "5", **decision_post(page, "series-form", "first")},
                           follow=True)
    assert "The first entry counts, not yours" in text(response)
    sheet = ScoreSheet.objects.get(match=match)
    assert sheet.entries == [{"lus_a": 9, "lus_b": 4}] and not PendingSheet.objects.filter(match=match).exists()
    audit = AuditEntry.objects.get(action="sheet.decided")
    assert audit.user == director and audit.after["decision"] == "first"
    assert audit.before["entries"] == [{"lus_a": 9, "lus_b": 5}]
    assert audit.after["entries"] == [{"lus_a": 9, "lus_b": 4}]


def test_voms_series_decision_through_the_service(series_double, director):
    """A knockout series game decided by a director, either way, at the service: both versions in the audit."""
    from scoring.games.voms.services import knockout as voms_knockout

    tournament, match, first, _second = series_double
    pending = voms_knockout.record_series(match, by=first, games=[{"lus_a": 9, "lus_b": 4}])
    sheet = voms_knockout.record_series(match, by=director, games=[{"lus_a": 9, "lus_b": 6}], decide="first",
                               pending_version=pending.version)
    assert sheet.counted and sheet.entries == [{"lus_a": 9, "lus_b": 4}] and sheet.entered_by == first
    pending = voms_knockout.record_series(match, by=first, games=[{"lus_a": 9, "lus_b": 4}, {"lus_a": 2, "lus_b": 9}],
                                 expected_version=sheet.version)
    sheet = voms_knockout.record_series(match, by=director, games=[{"lus_a": 9, "lus_b": 4}, {"lus_a": 3, "lus_b": 9}],
                               decide="mine", expected_version=sheet.version, pending_version=pending.version)
    assert sheet.entries[1] == {"lus_a": 3, "lus_b": 9}
    first_decision, second_decision = AuditEntry.objects.filter(action="sheet.decided").order_by("pk")
    assert (first_decision.after["decision"], first_decision.before["entries"]) == ("first",
                                                                                    [{"lus_a": 9, "lus_b": 6}])
    assert second_decision.after["decision"] == "mine"
    assert second_decision.before["entries"][1] == {"lus_a": 2, "lus_b": 9}


# --- patience results: where the focus is for the second person ----------------------------------------------


@pytest.fixture
def patience_double(director, django_user_model):
    import dataclasses

    from scoring.games.tablegames.config import settings_of
    from tests.doubleentry.conftest import _helper
    from tests.tablegames.conftest import new_game, register_players

    patience = new_game(director, "domino_patience")
    seated_services.update_settings(patience, dataclasses.replace(settings_of(patience), finish_time=True), by=director)
    register_players(patience, director, 4)
    seated_services.draw_seating(patience, by=director)
    patience.double_entry = True
    patience.save()
    return patience, _helper(django_user_model, patience, "first"), _helper(django_user_model, patience, "second")


PATIENCE_RESULTS = {"r1-tiles_left": "0", "r1-finish_time": "41:10", "r2-tiles_left": "3", "r2-finish_time": "45",
                    "r3-tiles_left": "5", "r3-finish_time": "45:30", "r4-tiles_left": "0", "r4-finish_time": "44:02"}


def autofocused(page: str) -> list[str]:
    """The name (or id) of every element of the page with autofocus, in page order."""
    return [re.search(r'(?:name|id)="([^"]+)"', tag)[1] for tag in re.findall(r"<(?:input|button|a)\b[^>]*>", page)
            if re.search(r"\sautofocus\b", tag)]


@pytest.mark.parametrize("who", ["second", "director"])
def test_patience_results_awaiting_confirmation_put_the_focus_on_confirm(patience_double, director, client, who):
    """The second person opening a deal whose results await confirmation: nothing had the focus (Confirm had it
    only when the page was opened from the round board)."""
    patience, first, second = patience_double
    page_url = reverse("tournament:tablegames:sheet", args=[patience.slug, 1, 1])
    login(client, first).post(page_url, {"version": "0", **PATIENCE_RESULTS})
    assert PendingSheet.objects.exists() and not ScoreSheet.objects.exists()
    page = text(login(client, second if who == "second" else director).get(page_url))
    assert "Confirm the first entry" in page
    assert autofocused(page) == ["confirm-entry"]
    assert autofocused(text(login(client, first).get(page_url))) == ["tg-next"], "the first person goes on"


def test_patience_results_awaiting_confirmation_offer_no_typing_again_to_whom_has_no_fields(patience_double, client):
    """The note told an assistant to "type the sheet again", but the results are not editable for them."""
    patience, first, second = patience_double
    page_url = reverse("tournament:tablegames:sheet", args=[patience.slug, 1, 1])
    login(client, first).post(page_url, {"version": "0", **PATIENCE_RESULTS})
    page = text(login(client, second).get(page_url))
    assert 'name="r1-tiles_left"' not in page and "type the sheet again" not in page
    assert "Check it against the paper sheet, then confirm it. If it is wrong, tell the person who entered it" in page


@pytest.mark.parametrize(("changed", "focused"), [({"r3-tiles_left": "4"}, "r3-tiles_left"),
                                                  ({"r4-finish_time": "44:20"}, "r4-finish_time")])
def test_patience_results_that_differ_put_the_focus_on_the_first_differing_field(patience_double, director, client,
                                                                                 changed, focused):
    """After "The two entries differ" the focus went to the first row, not to the marked field that differs."""
    patience, first, _second = patience_double
    page_url = reverse("tournament:tablegames:sheet", args=[patience.slug, 1, 1])
    login(client, first).post(page_url, {"version": "0", **PATIENCE_RESULTS})
    page = text(login(client, director).post(page_url, {"version": "0", **PATIENCE_RESULTS, **changed}))
    assert "The two entries differ" in page
    assert autofocused(page) == [focused]
    field = re.search(rf'<input name="{focused}"[^>]*>', page)[0]
    assert "tg-differs" in field and 'aria-invalid="true"' in field


def test_patience_results_of_a_first_entry_saved_unchanged_by_a_director_count(patience_double, director, client):
    """A director, the second person, saving the first entry's results unchanged was told "Nothing new to save"
    and nothing counted; an identical second entry counts at once."""
    patience, first, _second = patience_double
    page_url = reverse("tournament:tablegames:sheet", args=[patience.slug, 1, 1])
    login(client, first).post(page_url, {"version": "0", **PATIENCE_RESULTS})
    page = text(login(client, director).post(page_url, {"version": "0", **PATIENCE_RESULTS}, follow=True))
    assert "Nothing new to save" not in page
    assert ScoreSheet.objects.get(table__round__stage__tournament=patience).revisions.get().confirmed_by == director
    assert not PendingSheet.objects.exists()
    page = text(client.post(page_url, {"version": "1", **PATIENCE_RESULTS}))
    assert "Nothing new to save" in page, "the counted results saved again unchanged are still nothing new"
