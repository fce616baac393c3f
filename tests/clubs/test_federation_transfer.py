"""The tournament file and the federation (tournament/transfer.py): the file carries each player's member number
and the federation season's identity; an import or an update on a server re-links both within the importer's
club's federation, and says which numbers it does not know (those players come in unlinked)."""

from __future__ import annotations

import json

import pytest

from tests.clubs.conftest import played_evening
from tournament.models import Organisation, Person
from tournament.services import federation as fed
from tournament.transfer import export_tournament, import_tournament
from tournament.transfer_update import update_tournament

pytestmark = pytest.mark.django_db

PLAYERS = ["Anna Huber", "Bert Maier", "Carl Ott", "Dora Lang"]


@pytest.fixture
def evening(federation):
    """Club A's played evening in the federation's league; Anna and Bert have member numbers."""
    a, admin = federation.a, federation.fed_admin
    federation.league = fed.create_federation_season(federation.federation, by=admin, name="Liga", game="schafkopf",
                                                     place_points=["3", "2", "1"])
    tournament = played_evening(a, 6, PLAYERS)
    fed.join_federation_season(tournament, federation.league, by=a.director)
    for last in ("Huber", "Maier"):
        person = tournament.participants.get(last_name=last).person
        fed.request_number(person, by=a.director)
        fed.assign_number(person, by=admin)
    federation.evening = tournament
    return federation


def test_the_file_carries_member_numbers_and_the_federation_season(evening):
    document = json.loads(export_tournament(evening.evening))
    assert document["federation_season"] == {"uid": str(evening.league.uid), "name": "Liga"}
    people = {row["person"]["last_name"]: row["person"] for row in
              next(t["rows"] for t in document["models"] if t["model"] == "tournament.participant")}
    assert people["Huber"]["member"] == 1 and people["Maier"]["member"] == 2
    assert "member" not in people["Ott"]


def test_an_import_in_another_club_of_the_federation_relinks_both(evening):
    b = evening.b
    notes: list[str] = []
    copy = import_tournament(export_tournament(evening.evening), by=b.director, notes=notes)
    assert copy.organisation == b.club and copy.federation_season == evening.league
    linked = {p.last_name: p.person.member.number if p.person.member else None for p in copy.participants.all()}
    assert linked == {"Huber": 1, "Maier": 2, "Ott": None, "Lang": None}
    assert "The tournament counts in the federation season “Liga”." in notes


def test_a_number_the_federation_does_not_know_is_imported_unlinked_and_said(evening):
    b = evening.b
    data = export_tournament(evening.evening).decode().replace('"member": 2', '"member": 4711')
    notes: list[str] = []
    copy = import_tournament(data.encode(), by=b.director, notes=notes)
    maier = copy.participants.get(last_name="Maier").person
    assert maier.member is None and maier.organisation == b.club
    assert any("4711 (Bert Maier)" in note and "not known" in note for note in notes), notes


def test_a_club_of_another_federation_links_nothing(evening):
    from django.contrib.auth import get_user_model

    from tests.clubs.conftest import new_member

    club = Organisation.objects.create(name="Dansk Skafkopf")
    fed.create_federation("Dansk Forbund", admin=get_user_model().objects.create_user(username="dk"), clubs=[club])
    director = new_member(club, "director_dk")
    notes: list[str] = []
    copy = import_tournament(export_tournament(evening.evening), by=director, notes=notes)
    assert copy.federation_season is None
    assert not Person.objects.of(club).filter(member__isnull=False).exists()
    assert any("not known to Dansk Forbund" in note for note in notes)
    assert any("is not one of Dansk Forbund" in note for note in notes)


def test_an_update_from_the_venue_keeps_the_federation_season_and_the_links(evening):
    a = evening.a
    data = export_tournament(evening.evening)
    updated = update_tournament(evening.evening, data, by=a.director, notes=[])
    assert updated.federation_season == evening.league
    huber = updated.participants.get(last_name="Huber").person
    assert huber.member.number == 1
    again = json.loads(export_tournament(updated))
    assert again["federation_season"]["uid"] == str(evening.league.uid)
    assert '"member": 1' in export_tournament(updated).decode()
