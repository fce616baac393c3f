"""The registration desk's pages: the same for every game, by role, with duplicates, deletion and check-in."""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.games import game_of
from scoring.seated import services as seated_services
from tournament.models import AuditEntry, Participant, Role, Team, TournamentRole
from tournament.services import participants as desk

pytestmark = pytest.mark.django_db


def url(tournament, name="desk", *args):
    return reverse(f"tournament:{name}", args=[tournament.slug, *args])


PLAYER = {"number": "", "first_name": "Anna", "last_name": "Huber", "club": "SK", "group": ""}


@pytest.mark.parametrize("game", ["schafkopf", "rummi", "voms"])
def test_only_the_director_opens_the_desk(request, game, director, make_director, django_user_model, client):
    tournament = request.getfixturevalue(game)
    helper = django_user_model.objects.create_user("helper", password="x")
    TournamentRole.objects.create(tournament=tournament, user=helper, role=Role.ASSISTANT)
    other = make_director("other")
    for name in ("desk", "checkin"):
        target = url(tournament, name)
        assert "/accounts/login/" in client.get(target)["Location"]
        client.force_login(other)
        assert client.get(target).status_code == 404
        client.force_login(helper)
        assert client.get(target).status_code == 404
        assert client.post(url(tournament, "no_shows")).status_code == 404
        client.force_login(director)
        assert client.get(target).status_code == 200
        client.logout()


@pytest.mark.parametrize("game", ["schafkopf", "rummi", "voms"])
def test_every_games_menu_leads_to_the_desk(request, game, director, client):
    tournament = request.getfixturevalue(game)
    client.force_login(director)
    page = client.get(reverse("tournament:detail", args=[tournament.slug])).content.decode()
    assert url(tournament) in page and url(tournament, "checkin") in page


def test_a_duplicate_registration_asks_and_registers_after_the_confirmation(schafkopf, director, client):
    client.force_login(director)
    assert client.post(url(schafkopf), PLAYER).status_code == 302
    response = client.post(url(schafkopf), {**PLAYER, "first_name": "anna ", "last_name": " HUBER"})
    page = response.content.decode()
    assert response.status_code == 200 and "Anna Huber is registered already (number 1)" in page
    assert 'type="checkbox" name="confirm_duplicate"' in page and 'value="HUBER"' not in page.replace(" HUBER", "")
    assert Participant.objects.count() == 1
    response = client.post(url(schafkopf), {**PLAYER, "confirm_duplicate": "on"})
    assert response.status_code == 302 and Participant.objects.count() == 2


def test_a_duplicate_team_asks_too(voms, director, client):
    client.force_login(director)
    team = {"name": "Kings", "player1": "Naja Lynge", "player2": "", "seeded": ""}
    assert client.post(url(voms), team).status_code == 302
    response = client.post(url(voms), {**team, "name": "kings", "player1": "Aka B"})
    assert "There is a team called “Kings” already" in response.content.decode()
    assert client.post(url(voms), {**team, "confirm_duplicate": "on"}).status_code == 302
    assert Team.objects.count() == 2


def test_rename_a_player_and_every_list_shows_the_new_name(schafkopf, director, client, add_players):
    add_players(schafkopf, 8)
    player = Participant.objects.get(number=1)
    client.force_login(director)
    response = client.post(url(schafkopf, "desk_entry", player.pk),
                           {"action": "details", "number": "41", "first_name": "Resi", "last_name": "Gruber",
                            "club": "SK Au", "group": ""})
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.number, player.name) == (41, "Resi Gruber")
    client.post(reverse("tournament:schafkopf:seating", args=[schafkopf.slug]), {"seed": "3"})
    seating = client.get(reverse("tournament:schafkopf:seating", args=[schafkopf.slug])).content.decode()
    assert "Gruber" in seating and "Huber1" not in seating
    pdf = client.get(reverse("tournament:schafkopf:download", args=[schafkopf.slug, "seating-by-name", "xlsx"]))
    assert pdf.status_code == 200


def test_import_reports_rejected_rows_and_imports_nothing(schafkopf, director, client):
    client.force_login(director)
    upload = b"Number;First name;Last name;Club\n1;Anna;Huber;SK\n1;Sepp;Maier;SK\n3;Resi;;SK\n"
    response = client.post(url(schafkopf, "desk_import"), {"file": SimpleUploadedFile("list.csv", upload)})
    page = response.content.decode()
    assert response.status_code == 200 and "Nothing was imported" in page
    assert "Participant number 1 is taken." in page and "The last name is missing." in page
    assert "This field is required." not in page  # the registration form beside it was not posted
    assert not Participant.objects.exists()
    good = b"Number;First name;Last name;Club\n1;Anna;Huber;SK\n5;Sepp;Maier;SK\n"
    response = client.post(url(schafkopf, "desk_import"), {"file": SimpleUploadedFile("list.csv", good)})
    assert response.status_code == 302
    assert list(Participant.objects.values_list("number", flat=True)) == [1, 5]


def test_withdraw_and_exclude_through_the_desk(rummi, director, client, add_players):
    (player,) = add_players(rummi, 1)
    client.force_login(director)
    target = url(rummi, "desk_entry", player.pk)
    response = client.post(target, {"action": "status", "status": "excluded", "reason": ""})
    assert response.status_code == 200 and "Say why the player is excluded." in response.content.decode()
    client.post(target, {"action": "status", "status": "excluded", "reason": "cheat"})
    player.refresh_from_db()
    assert player.status == "excluded" and player.status_reason == "cheat"


def test_a_status_changed_after_the_draw_points_to_the_seating(schafkopf, director, client, add_players):
    """Withdrawn mid-evening: the desk says that the seats need a substitute and where, not only "saved"."""

    players = add_players(schafkopf, 8)
    client.force_login(director)
    target = url(schafkopf, "desk_entry", players[0].pk)
    before_draw = client.post(target, {"action": "status", "status": "withdrawn", "reason": ""}, follow=True)
    assert "The seating is drawn already" not in before_draw.content.decode()
    client.post(target, {"action": "status", "status": "active", "reason": ""})
    seated_services.draw_seating(schafkopf, by=director, seed=1)
    page = client.post(target, {"action": "status", "status": "withdrawn", "reason": "felt ill"},
                       follow=True).content.decode()
    assert "changes saved" in page and "The seating is drawn already" in page and "a substitute" in page
    unchanged = client.post(url(schafkopf, "desk_entry", players[1].pk),
                            {"action": "details", **PLAYER, "first_name": "Anna2", "last_name": "Huber2"},
                            follow=True).content.decode()
    assert "The seating is drawn already" not in unchanged


def test_delete_asks_first_and_only_before_the_draw(schafkopf, director, client, add_players):
    players = add_players(schafkopf, 9)
    client.force_login(director)
    target = url(schafkopf, "desk_entry_delete", players[0].pk)
    page = client.get(target).content.decode()
    assert "Delete 1 · Anna1 Huber1?" in page and Participant.objects.count() == 9
    assert client.post(target, {"reason": "typed twice"}).status_code == 302
    assert Participant.objects.count() == 8
    client.post(reverse("tournament:schafkopf:seating", args=[schafkopf.slug]), {"seed": "3"})
    response = client.post(url(schafkopf, "desk_entry_delete", players[1].pk), {"reason": ""})
    assert "only withdrawn" in response.content.decode() and Participant.objects.count() == 8


def test_a_team_member_is_renamed_on_the_team_page(voms, director, client, add_teams):
    team = add_teams(voms, 2)[0]
    member = team.members.order_by("number").first()
    client.force_login(director)
    response = client.post(url(voms, "desk_entry", team.pk),
                           {"action": "member", "member": member.pk, f"m{member.pk}-first_name": "Naja",
                            f"m{member.pk}-last_name": "Lynge"})
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.name == "Naja Lynge"


def test_check_in_and_payment_with_counters(schafkopf, director, client, add_players):
    schafkopf.entry_fee = Decimal("10")
    schafkopf.save()
    players = add_players(schafkopf, 3)
    client.force_login(director)
    response = client.post(url(schafkopf, "checkin"), {"entry": players[0].pk, "action": "arrived"}, follow=True)
    assert "1 Anna1 Huber1 arrived. 1 of 3 arrived, 0 paid · takings 0.00." in response.content.decode()
    response = client.post(url(schafkopf, "checkin"), {"entry": players[1].pk, "action": "paid", "amount": "8"},
                           follow=True)
    assert "2 of 3 arrived, 1 paid · takings 8.00" in response.content.decode()
    response = client.post(url(schafkopf, "checkin"), {"entry": players[2].pk, "action": "paid", "amount": "x"},
                           follow=True)
    assert "Type an amount of money" in response.content.decode()
    players[2].refresh_from_db()
    assert not players[2].paid
    page = client.get(url(schafkopf, "checkin") + "?q=2").content.decode()
    assert "Huber2" in page and "Huber1" not in page


def test_the_draw_page_offers_to_withdraw_the_no_shows(schafkopf, director, client, add_players):
    players = add_players(schafkopf, 9)
    seating = reverse("tournament:schafkopf:seating", args=[schafkopf.slug])
    client.force_login(director)
    assert "have not arrived" not in client.get(seating).content.decode()  # check-in has not started
    for player in players[:8]:
        desk.mark_arrived(player, by=director)
    page = client.get(seating).content.decode()
    assert "1 registered has not arrived" in page and "9 Anna9 Huber9" in page
    response = client.post(url(schafkopf, "no_shows"), {"next": seating})
    assert response["Location"] == seating
    assert Participant.objects.get(number=9).status == "withdrawn"
    assert AuditEntry.objects.filter(action="checkin.withdraw_no_shows").exists()


def test_a_late_arrival_withdrawn_as_a_no_show_is_found_at_the_check_in(schafkopf, director, client, add_players):
    """Withdrawn before the draw, arriving after all: the check-in finds them, with the way back to playing."""
    players = add_players(schafkopf, 9)
    for player in players[:8]:
        desk.mark_arrived(player, by=director)
    desk.withdraw_no_shows(schafkopf, by=director)
    client.force_login(director)
    page = client.get(url(schafkopf, "checkin") + "?q=huber9").content.decode()
    assert "Nobody found." in page  # no row to mark arrived: a withdrawn player does not play
    assert 'id="desk-withdrawn"' in page and "9 Huber9, Anna9" in page
    assert url(schafkopf, "desk_entry", players[8].pk) in page
    everyone = client.get(url(schafkopf, "checkin")).content.decode()
    assert "Huber9, Anna9" in everyone.split('id="desk-withdrawn"')[1]
    assert 'id="desk-withdrawn"' not in client.get(url(schafkopf, "checkin") + "?q=huber1").content.decode()


def test_voms_draw_page_offers_it_for_teams(voms, director, client, add_teams):
    teams = add_teams(voms, 5)
    desk.mark_arrived(teams[0], by=director)
    client.force_login(director)
    page = client.get(reverse("tournament:voms:draw", args=[voms.slug])).content.decode()
    assert "4 registered have not arrived" in page
    client.post(url(voms, "no_shows"), {"next": "https://elsewhere.example/"})
    assert Team.objects.filter(withdrawn=True).count() == 4


def test_a_payment_after_the_prizes_were_shown_says_so(schafkopf, director, client, monkeypatch):
    (player,) = [desk.add_participant(schafkopf, by=director, last_name="Huber")]
    # a final ranking with prizes (see tests/schafkopf for when Schafkopf says so)
    monkeypatch.setattr(game_of(schafkopf), "prizes_shown", lambda t: True)
    client.force_login(director)
    response = client.post(url(schafkopf, "checkin"), {"entry": player.pk, "action": "paid"}, follow=True)
    assert "The prizes were shown already" in response.content.decode()


@pytest.mark.parametrize("game", ["rummi", "voms"])
def test_the_desks_window_title_is_text_and_its_script_loads_once(request, game, director, client):
    # the register-suggestion script once stood inside <title>: the browser tab showed its tag as text
    tournament = request.getfixturevalue(game)
    client.force_login(director)
    page = client.get(url(tournament)).content.decode()
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "<" not in title and title.endswith(tournament.name)
    assert page.count("tournament/suggest.js") == (0 if game == "voms" else 1)


@pytest.mark.parametrize("language", ["de", "da"])
def test_shift_enter_pays_the_fee_the_check_in_row_offers_in_german_and_danish(language, schafkopf, director, client,
                                                                               add_players):
    # the row's amount field shows the fee as "10,00"; Shift+Enter sends it as shown, and it was refused
    schafkopf.entry_fee = Decimal("10")
    schafkopf.save()
    player = add_players(schafkopf, 1)[0]
    client.force_login(director)
    client.cookies["django_language"] = language
    page = client.get(url(schafkopf, "checkin")).content.decode()
    assert 'name="amount" inputmode="decimal" value="10,00"' in page
    client.post(url(schafkopf, "checkin"), {"entry": player.pk, "action": "paid", "amount": "10,00"})
    player.refresh_from_db()
    assert player.paid and player.paid_amount == Decimal("10.00")


def test_a_refused_registration_puts_the_cursor_on_the_field_in_error(schafkopf, director, client):
    """A missing last name: the cursor goes there, not back to the first name; the duplicate question still has it."""
    import re

    def focused(response):
        return re.findall(r'<(?:input|select|textarea)[^>]*\bautofocus\b[^>]*>', response.content.decode())

    client.force_login(director)
    missing = focused(client.post(url(schafkopf), {**PLAYER, "last_name": ""}))
    assert len(missing) == 1 and 'name="last_name"' in missing[0], missing
    assert client.post(url(schafkopf), PLAYER).status_code == 302
    asked = focused(client.post(url(schafkopf), PLAYER))
    assert len(asked) == 1 and 'name="confirm_duplicate"' in asked[0], asked


def test_the_seating_drawn_message_names_the_games_own_page(director, make_tournament, client):
    """Each game's own word for its seating page: no "Field for a patience" in Schafkopf or Rummi."""
    from tournament.services.participants import import_participants

    client.force_login(director)
    schafkopf = make_tournament(director, name="Schafkopf evening", game="schafkopf")
    rummi = make_tournament(director, name="Rummi evening", game="rummi")
    patience = make_tournament(director, name="Kabale", game="domino_patience")
    pages = {}
    for tournament in (schafkopf, rummi, patience):
        names = "".join(f"Anna{n};Huber{n}\n" for n in range(1, 9))
        assert import_participants(tournament, "l.csv", f"First name;Last name\n{names}".encode(), by=director).ok
        if tournament is schafkopf:

            seated_services.draw_seating(tournament, by=director, seed=1)
        else:
            seated_services.draw_seating(tournament, by=director, seed=1)
        player = tournament.participants.get(number=1)
        pages[tournament.game] = client.post(url(tournament, "desk_entry", player.pk),
                                             {"action": "status", "status": "withdrawn", "reason": ""},
                                             follow=True).content.decode()
    for game in ("schafkopf", "rummi"):
        assert "patience" not in pages[game].lower()
    assert "the page “Seating” says what this change needs — a substitute" in pages["schafkopf"]
    # the table games have substitutes too (issue 25: the seat of a player who leaves may be taken)
    assert "the page “Seating” says what this change needs — a substitute" in pages["rummi"]
    assert "the page “Field” says what this change needs — a substitute" in pages["domino_patience"]


def test_the_check_in_counters_keep_a_withdrawn_players_payment_with_the_takings(schafkopf, director, client,
                                                                                add_players):
    schafkopf.entry_fee = Decimal("10")
    schafkopf.save()
    players = add_players(schafkopf, 3)
    for player in players:
        desk.mark_paid(player, by=director)
    desk.set_participant_status(players[2], Participant.Status.WITHDRAWN, by=director)
    client.force_login(director)
    page = client.get(url(schafkopf, "checkin")).content.decode()
    assert "2 of 2 arrived, 3 paid (1 of them withdrawn since) · takings 30.00" in page
    assert "2 of 2 arrived, 3 paid (1 of them withdrawn since)" in client.get(url(schafkopf, "desk")).content.decode()
