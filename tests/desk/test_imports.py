"""Lists imported at the desk (players) and on the Voms teams page: what may be a mistake is held back with a
warning naming the row, nothing is imported unasked; a bad Seeded value is refused; the message and the audit
say what was imported."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.games.voms.services import teams as voms_teams
from tournament.models import AuditEntry, Participant, Team
from tournament.services import participants as desk
from tournament.services.participants import register_team


def desk_url(tournament, name="desk"):
    return reverse(f"tournament:{name}", args=[tournament.slug])


def teams_url(tournament):
    return reverse("tournament:voms:teams", args=[tournament.slug])


PLAYERS = b"First name;Last name;Club\nAnna;Huber;SK\nSepp;Maier;SK\nanna ;HUBER;SK\n"


def test_a_name_twice_in_the_players_list_imports_nothing_until_confirmed(schafkopf, director):
    report = desk.import_participants(schafkopf, "list.csv", PLAYERS, by=director)
    assert not report.ok and report.held and not report.rejected
    assert report.warnings == [(4, "“anna HUBER” is in the list twice (also row 2).")]
    assert not Participant.objects.exists()
    report = desk.import_participants(schafkopf, "list.csv", PLAYERS, by=director, confirm_duplicates=True)
    assert report.ok and schafkopf.participants.count() == 3
    entry = AuditEntry.objects.get(action="participant.import")
    assert "confirmed" in entry.reason


def test_a_name_registered_already_is_a_warning_too(schafkopf, director):
    desk.add_participant(schafkopf, by=director, first_name="Sepp", last_name="Maier")
    report = desk.import_participants(schafkopf, "list.csv", b"First name;Last name\nSepp;Maier\nResi;Ott\n",
                                      by=director)
    assert report.warnings == [(2, "“Sepp Maier” is registered already (number 1).")]
    assert schafkopf.participants.count() == 1


def test_the_desk_shows_the_warnings_and_imports_once_the_box_is_ticked(schafkopf, director, client):
    client.force_login(director)
    answer = client.post(desk_url(schafkopf, "desk_import"), {"file": SimpleUploadedFile("list.csv", PLAYERS)})
    page = answer.content.decode()
    assert answer.status_code == 200 and "Nothing was imported yet" in page
    assert "is in the list twice (also row 2)" in page and 'name="confirm_duplicates"' in page
    assert not Participant.objects.exists()
    answer = client.post(desk_url(schafkopf, "desk_import"),
                         {"file": SimpleUploadedFile("list.csv", PLAYERS), "confirm_duplicates": "on"})
    assert answer.status_code == 302 and schafkopf.participants.count() == 3


TEAMS = ("Team;Player 1;Player 2;Seeded\n"
         "Eagles;Ann Aa;Bob Bb;yes\n"
         "Owls;Cid Cc;Dan Dd;\n"
         "Hawks;Eve Ee;Ann Aa;no\n")


def test_a_player_twice_in_the_teams_list_is_a_warning(voms, director):
    report = voms_teams.import_teams(voms, "teams.csv", TEAMS.encode(), by=director)
    assert report.held and report.warnings == [(4, "“Ann Aa” is in the list twice (also row 2).")]
    assert not voms.teams.exists()


def test_the_same_two_players_under_a_new_team_name_are_a_warning(voms, director):
    register_team(voms, by=director, name="Eagles", players=["Ann Aa", "Bob Bb"])
    data = b"Team;Player 1;Player 2\nGolden Eagles;bob bb;Ann Aa\nOwls;Cid Cc;Dan Dd\n"
    report = voms_teams.import_teams(voms, "teams.csv", data, by=director)
    assert report.held
    assert (2, "“Golden Eagles” has the same players as team 1 “Eagles”.") in report.warnings
    assert voms.teams.count() == 1
    # the same pair twice inside the list
    data = b"Team;Player 1;Player 2\nOwls;Cid Cc;Dan Dd\nNight owls;Dan Dd;Cid Cc\n"
    report = voms_teams.import_teams(voms, "teams.csv", data, by=director)
    assert (3, "“Night owls” has the same players as row 2 “Owls”.") in report.warnings


def test_an_invalid_seeded_value_is_refused_naming_the_row(voms, director):
    data = b"Team;Player 1;Player 2;Seeded\nEagles;Ann Aa;Bob Bb;x\nOwls;Cid Cc;Dan Dd;maybe\n"
    report = voms_teams.import_teams(voms, "teams.csv", data, by=director)
    assert not report.ok and [row for row, _reason in report.rejected] == [3]
    assert "“maybe” in the column Seeded" in report.rejected[0][1]
    assert not voms.teams.exists()
    data = b"Team;Player 1;Player 2;Gesetzt\nEagles;Ann Aa;Bob Bb;Ja\nOwls;Cid Cc;Dan Dd;nein\n"
    assert voms_teams.import_teams(voms, "teams.csv", data, by=director).ok
    assert list(voms.teams.values_list("name", "seeded")) == [("Eagles", True), ("Owls", False)]


def test_a_teams_import_says_teams_and_its_audit_says_imported(voms, director, client):
    client.force_login(director)
    rows = "".join(f"Team {n};First{n} A;First{n} B\n" for n in range(1, 25))
    data = ("Team;Player 1;Player 2\n" + rows).encode()
    answer = client.post(teams_url(voms), {"action": "import", "import-file": SimpleUploadedFile("teams.csv", data)},
                         follow=True)
    page = answer.content.decode()
    assert "24 teams with 48 players imported." in page
    assert Team.objects.filter(tournament=voms).count() == 24
    added = AuditEntry.objects.filter(action="team.add", tournament=voms)
    assert added.count() == 24
    assert not any("second registration" in entry.reason for entry in added)
    assert all(entry.reason == "imported from the list “teams.csv”" for entry in added)
    summary = AuditEntry.objects.get(action="team.import", tournament=voms)
    assert summary.after["teams"] == 24 and summary.after["players"] == 48


def test_the_teams_page_shows_the_warnings_and_imports_once_the_box_is_ticked(voms, director, client):
    client.force_login(director)
    upload = {"action": "import", "import-file": SimpleUploadedFile("t.csv", TEAMS.encode())}
    answer = client.post(teams_url(voms), upload)
    page = answer.content.decode()
    assert answer.status_code == 200 and "Nothing was imported yet" in page and "Row 4" in page
    assert 'name="import-confirm_duplicates"' in page and not voms.teams.exists()
    upload = {"action": "import", "import-file": SimpleUploadedFile("t.csv", TEAMS.encode()),
              "import-confirm_duplicates": "on"}
    answer = client.post(teams_url(voms), upload)
    assert answer.status_code == 302 and voms.teams.count() == 3
