"""The federation's pages and a club's link to its federation (tournament/views/federation.py, the register entry
page, the tournament form), and the new-tournament form of a server's superuser who works for no club."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.clubs.conftest import CONTACTS, played_evening
from tournament.clubaddress import reverse_in_club
from tournament.models import FederationMember, Tournament
from tournament.services import federation as fed

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_director_links_an_entry_by_number_and_a_wrong_number_is_said_and_changes_nothing(federation):
    a, b = federation.a, federation.b
    fed.request_number(b.person, by=b.director)
    member = fed.assign_number(b.person, by=federation.fed_admin)
    page = reverse("register:person", args=[a.person.pk])
    client = logged_in(a.director)
    body = client.get(page).content.decode()
    assert "Member of Bayerischer Schafkopfverband" in body
    response = client.post(page, {"action": "member", "number": "77"})
    assert response.status_code == 200
    assert "Your federation has no member with the number 77." in response.content.decode()
    a.person.refresh_from_db()
    assert a.person.member is None
    response = client.post(page, {"action": "member", "number": str(member.number)}, follow=True)
    assert f"Linked to the federation&#x27;s member {member.number} Anna Huber." in response.content.decode()
    a.person.refresh_from_db()
    assert a.person.member == member


def test_a_german_director_reads_the_wrong_number_in_german(federation):
    client = logged_in(federation.a.director)
    client.cookies["django_language"] = "de"
    response = client.post(reverse("register:person", args=[federation.a.person.pk]),
                           {"action": "member", "number": "77"}, HTTP_ACCEPT_LANGUAGE="de")
    assert "Ihr Verband hat kein Mitglied mit der Nummer 77." in response.content.decode()


def test_a_request_for_a_number_is_assigned_by_the_federation_s_admin(federation):
    a = federation.a
    logged_in(a.director).post(reverse("register:person", args=[a.person.pk]), {"action": "request_number"})
    admin = logged_in(federation.fed_admin)
    home = admin.get(reverse("federation:home")).content.decode()
    assert "Anna Huber" in home and "SK Isartal" in home and CONTACTS["a"] not in home
    assert admin.post(reverse("federation:home"), {"entry": a.person.pk}).status_code == 302
    a.person.refresh_from_db()
    assert a.person.member.number == 1 and a.person.member.home_club == a.club
    # a club's director cannot assign (the page is the federation's)
    assert logged_in(a.director).post(reverse("federation:home"), {"entry": a.person.pk}).status_code == 404


def test_the_federation_admin_merges_two_members_on_the_member_page(federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    for world in (a, b):
        fed.request_number(world.person, by=world.director)
    keep, other = fed.assign_number(a.person, by=admin), fed.assign_number(b.person, by=admin)
    client = logged_in(admin)
    page = reverse("federation:member", args=[keep.number])
    response = client.post(page, {"other": "999"})
    assert "There is no member with this number." in response.content.decode()
    assert client.post(page, {"other": other.number, "reason": "twice"}).status_code == 302
    assert FederationMember.objects.get(pk=other.pk).merged_into == keep
    assert client.get(reverse("federation:member", args=[other.number])).status_code == 404  # retired
    audit = client.get(reverse("federation:audit")).content.decode()
    assert "Federation members merged" in audit and "twice" in audit


def test_a_director_lets_his_tournament_count_in_the_federation_season_on_its_form(federation):
    a, admin = federation.a, federation.fed_admin
    league = fed.create_federation_season(federation.federation, by=admin, name="Liga", game="schafkopf",
                                          place_points=["3", "2", "1"])
    client = logged_in(a.director)
    edit = reverse_in_club(a.club, "tournament:edit", args=[a.tournament.slug])  # a server of several clubs
    assert "Federation season" in client.get(edit).content.decode()
    t = a.tournament
    data = {"name": t.name, "game": t.game, "date": t.date.isoformat(), "venue": t.venue, "time_zone": t.time_zone,
            "language": t.language, "status": t.status, "entry_fee": "", "link_entries_count": "on",
            "federation_season": league.pk}
    response = client.post(edit, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    t.refresh_from_db()
    assert t.federation_season == league


def test_the_federation_season_page_pdf_and_public_page(federation):
    a, admin = federation.a, federation.fed_admin
    league = fed.create_federation_season(federation.federation, by=admin, name="Liga 2026", game="schafkopf",
                                          place_points=["3", "2", "1"])
    evening = played_evening(a, 5, ["Anna Huber", "Bert Maier", "Carl Ott", "Dora Lang"])
    fed.join_federation_season(evening, league, by=a.director)
    client = logged_in(admin)
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Member no." in page and "Bert Maier" in page and "SK Isartal" in page
    pdf = client.get(reverse("federation:season_pdf", args=[league.slug]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    public = reverse("public:federation_season", args=[league.slug])
    assert Client().get(public).status_code == 404
    client.post(league.get_absolute_url(), {"action": "publish"})
    assert "Bert Maier" in Client().get(public).content.decode()


def test_a_laptop_shows_no_trace_of_a_federation(director, client):
    from tournament.services.register import create_person

    person = create_person(by=director, last_name="Huber")
    client.force_login(director)
    for url in (reverse("register:person", args=[person.pk]), reverse("register:list"), reverse("tournament:list")):
        assert "ederation" not in client.get(url).content.decode(), url


def test_a_superuser_of_no_club_chooses_the_club_of_a_new_tournament(clubs):
    """On a server of several clubs, a superuser who belongs to none could not create a tournament."""
    admin = get_user_model().objects.create_superuser(username="root", password="pw-root-1")
    client = logged_in(admin)
    form = client.get(reverse("tournament:create")).content.decode()
    assert "SK Isartal" in form and "TC Moosach" in form
    response = client.post(reverse("tournament:create"), {
        "club": clubs.b.club.pk, "name": "Server evening", "game": "schafkopf", "date": "2026-05-01",
        "time_zone": "Europe/Berlin", "language": "en", "status": "planned"})
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Server evening")
    assert tournament.organisation == clubs.b.club
    assert tournament.date == datetime.date(2026, 5, 1)


def test_a_club_director_is_offered_no_club_choice(clubs):
    form = logged_in(clubs.a.director).get(reverse("tournament:create")).content.decode()
    assert 'name="club"' not in form and 'name="name"' in form
