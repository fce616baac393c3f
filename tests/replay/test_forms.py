"""Every form that appends, posted twice with the key it was rendered with: saved once, answered "already saved"."""

import html
import io

import pytest
from django.urls import reverse

from scoring.models import PendingSheet, ScoreSheet, SheetRevision
from tests.doubleentry.conftest import _helper
from tests.replay.conftest import form_keys
from tests.schafkopf.test_views import grid_post
from tests.tablegames.test_views import hand_post
from tournament.models import AuditEntry, Participant, Team

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def twice(client, target, data, *, key, files=None):
    """Post the same form twice (a double click, or back and send again); return both answers."""
    data = {**data, "form_key": key}
    answers = []
    for _n in range(2):
        for upload in (files or {}).values():
            upload.seek(0)
        answers.append(client.post(target, {**data, **(files or {})}, follow=True))
    return answers


# --- Voms -----------------------------------------------------------------------------------------------------


def slip(game, lus_b=3):
    match = game.place
    return {"round": match.round.number, "table": match.table_number, "lus_a": "9", "lus_b": str(lus_b)}


@pytest.mark.parametrize("double_entry", [False, True])
def test_voms_slip_sent_twice(make_game, director, client, double_entry):
    game = make_game("voms")
    game.tournament.double_entry = double_entry
    game.tournament.save()
    client.force_login(director)
    enter = reverse("tournament:voms:enter", args=[game.tournament.slug])
    saved, again = twice(client, enter, slip(game), key=form_keys(client.get(enter))[0])
    assert "Already saved" not in text(saved)
    page = text(again)
    assert again.status_code == 200 and "Already saved" in page and "sent twice" in page
    assert "has been entered already" not in page
    if double_entry:
        assert PendingSheet.objects.get().version == 1 and not ScoreSheet.objects.exists()
    else:
        assert ScoreSheet.objects.get().version == 1 == SheetRevision.objects.count()


def test_voms_slip_entered_meanwhile_shows_both_versions(make_game, django_user_model, client):
    game = make_game("voms")
    first, second = (_helper(django_user_model, game.tournament, name) for name in ("first", "second"))
    enter = reverse("tournament:voms:enter", args=[game.tournament.slug])
    client.force_login(first)
    client.post(enter, slip(game))
    client.force_login(second)
    same = client.post(enter, slip(game), follow=True)
    assert "holds exactly these entries" in text(same)
    other = client.post(enter, slip(game, lus_b=4))
    page = text(other)
    assert other.status_code == 200 and "has been entered already" in page and "Two versions" in page
    assert "<mark>3</mark>" in page and "<mark>4</mark>" in page
    assert ScoreSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 3}] and SheetRevision.objects.count() == 1


def series_url(tournament, match):
    return reverse("tournament:voms:series", args=[tournament.slug, match.pk])


def test_voms_series_game_sent_twice_is_one_game(knockout, director, client):
    """The bug: a knockout game's form sent again recorded it as the next game (two 9:4 decided a best of 3)."""
    tournament, match = knockout
    client.force_login(director)
    page_url = series_url(tournament, match)
    key = form_keys(client.get(page_url))[0]
    saved, again = twice(client, page_url, {"lus_a": "9", "lus_b": "4", "version": "0", "game": "1"}, key=key)
    assert "Game 1 recorded" in text(saved) and "Already saved" in text(again)
    sheet = ScoreSheet.objects.get(match=match)
    assert sheet.entries == [{"lus_a": 9, "lus_b": 4}] and not sheet.derived["finished"]


def test_voms_series_two_assistants_type_the_same_game(knockout, django_user_model, client):
    """Both opened the series before game 2 was saved: the second is told, never adds a third game."""
    tournament, match = knockout
    first, second = (_helper(django_user_model, tournament, name) for name in ("first", "second"))
    page_url = series_url(tournament, match)
    client.force_login(first)
    client.post(page_url, {"lus_a": "9", "lus_b": "4"})
    shown = {"version": "1", "game": "2"}  # what both pages showed: version 1, game 2 to type
    client.post(page_url, {"lus_a": "3", "lus_b": "9", **shown})
    client.force_login(second)
    same = client.post(page_url, {"lus_a": "3", "lus_b": "9", **shown}, follow=True)
    assert "holds exactly these entries" in text(same)
    other = client.post(page_url, {"lus_a": "4", "lus_b": "9", **shown})
    page = text(other)
    assert other.status_code == 200 and "saved meanwhile" in page and "Two versions" in page
    assert 'name="version" value="2"' in page and 'name="game" value="3"' in page  # a fresh form for game 3
    sheet = ScoreSheet.objects.get(match=match)
    assert sheet.entries == [{"lus_a": 9, "lus_b": 4}, {"lus_a": 3, "lus_b": 9}] and sheet.version == 2


@pytest.fixture
def first_voms(director, make_tournament):
    return make_tournament(director, name="Voms registrations", game="voms")


def test_voms_team_and_player_registrations_sent_twice(first_voms, director, client):
    client.force_login(director)
    desk = reverse("tournament:desk", args=[first_voms.slug])
    teams = reverse("tournament:voms:teams", args=[first_voms.slug])
    (team_key,) = form_keys(client.get(desk))
    _saved, again = twice(client, desk, {"name": "Alpha", "player1": "Ann One", "player2": "Bo Two"}, key=team_key)
    assert "Already saved: Alpha" in text(again) and "There is a team called" not in text(again)
    for name in ("Cy Three", "Di Four"):
        twice(client, teams, {"action": "single", "single-name": name}, key=form_keys(client.get(teams))[0])
    _single, partners_key, import_key = form_keys(client.get(teams))
    _saved, again = twice(client, teams, {"action": "partners"}, key=partners_key)
    assert "Already saved" in text(again)
    upload = io.BytesIO(b"team;player 1;player 2\nGamma;Ed Five;Flo Six\n")
    upload.name = "teams.csv"
    _saved, again = twice(client, teams, {"action": "import"}, key=import_key, files={"import-file": upload})
    assert "Already saved: teams.csv" in text(again)
    assert Team.objects.count() == 3 and Team.objects.filter(name__in=["Alpha", "Gamma"]).count() == 2
    assert Participant.objects.filter(tournament=first_voms).count() == 6
    assert AuditEntry.objects.filter(action="team.add").count() == 2  # Alpha, and Gamma from the list


def test_voms_new_content_on_an_old_page_is_a_new_registration(first_voms, director, client):
    """Back to the page, a new team typed into the same form: that is not a replay."""
    client.force_login(director)
    desk = reverse("tournament:desk", args=[first_voms.slug])
    (key,) = form_keys(client.get(desk))
    for name in ("Alpha", "Beta"):
        client.post(desk, {"name": name, "player1": f"{name} One", "form_key": key})
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Alpha", "Beta"]


def test_a_refused_form_can_be_sent_again_once_corrected(first_voms, director, client):
    client.force_login(director)
    desk = reverse("tournament:desk", args=[first_voms.slug])
    (key,) = form_keys(client.get(desk))
    data = {"name": "Alpha", "player1": "Ann One", "form_key": key}
    client.post(desk, data)
    refused = client.post(desk, {**data, "name": "alpha", "player1": "Other One"}, follow=True)
    assert "There is a team called" in text(refused) and Team.objects.count() == 1
    confirmed = client.post(desk, {**data, "name": "alpha", "player1": "Other One", "confirm_duplicate": "on"},
                            follow=True)
    assert confirmed.status_code == 200 and Team.objects.count() == 2


# --- Schafkopf and the table games ------------------------------------------------------------------------------


def test_schafkopf_list_sent_twice_is_one_revision(make_game, director, client):
    game = make_game("schafkopf")
    client.force_login(director)
    sheet_url = reverse("tournament:schafkopf:sheet", args=[game.tournament.slug, 1, 1])
    key = form_keys(client.get(sheet_url))[0]
    saved, again = twice(client, sheet_url, grid_post(game.entries()), key=key)
    assert "list saved" in text(saved) and "Already saved" in text(again)
    assert ScoreSheet.objects.get().version == 1 == SheetRevision.objects.count()


def test_schafkopf_list_opened_twice_and_saved_twice_is_one_revision(make_game, director, client):
    """Without a key (two tabs): the same list again is recognised by its entries."""
    game = make_game("schafkopf")
    client.force_login(director)
    sheet_url = reverse("tournament:schafkopf:sheet", args=[game.tournament.slug, 1, 1])
    client.post(sheet_url, grid_post(game.entries()))
    again = client.post(sheet_url, grid_post(game.entries()), follow=True)
    assert "holds exactly these entries" in text(again)
    assert SheetRevision.objects.count() == 1


def test_table_game_hand_sent_twice_is_one_hand(make_game, director, client):
    game = make_game("rummi")
    client.force_login(director)
    sheet_url = reverse("tournament:tablegames:sheet", args=[game.tournament.slug, 1, 1])
    key = form_keys(client.get(sheet_url))[0]
    saved, again = twice(client, sheet_url, hand_post(1, 1, ["0", "100", "90", "80"]), key=key)
    assert "Hand 1 saved" in text(saved) and "Already saved" in text(again)
    sheet = ScoreSheet.objects.get()
    assert len(sheet.entries) == 1 and sheet.version == 1 == SheetRevision.objects.count()


@pytest.mark.parametrize("kind", ["schafkopf", "rummi"])
def test_player_registration_and_import_sent_twice(make_game, director, client, kind):
    game = make_game(kind)
    players = reverse("tournament:desk", args=[game.tournament.slug])
    client.force_login(director)
    before = Participant.objects.filter(tournament=game.tournament).count()
    register_key, import_key = form_keys(client.get(players))
    _saved, again = twice(client, players, {"last_name": "Late", "first_name": "Lou"}, key=register_key)
    assert "Already saved: Lou Late" in text(again)
    upload = io.BytesIO(b"first name;last name\nMia;Import\n")
    upload.name = "players.csv"
    _saved, again = twice(client, reverse("tournament:desk_import", args=[game.tournament.slug]), {},
                          key=import_key, files={"file": upload})
    assert again.redirect_chain[-1][0] == players and "Already saved" in text(again)
    assert Participant.objects.filter(tournament=game.tournament).count() == before + 2
