"""The register's and the seasons' pages: who may see them, what they do, the files and the public page."""

import io

import openpyxl
import pytest
from django.urls import reverse

from tournament.models import AuditEntry, Person, Season, Tournament
from tournament.services import seasons
from tournament.services.participants import add_participant


@pytest.fixture
def season(director):
    return seasons.create_season(by=director, name="Season 2026", game="schafkopf", place_points=["3", "2", "1"])


@pytest.fixture
def logged_in(client, director):
    client.force_login(director)
    return client


def test_the_suggestions_answer_directors_only(client, logged_in, director, django_user_model):
    Person.objects.create(first_name="Anna", last_name="Huber", club="SK Au")
    answer = logged_in.get(reverse("register:suggest"), {"q": "hub"})
    assert answer.json()["people"][0]["label"] == "Anna Huber (SK Au)"
    client.force_login(django_user_model.objects.create_user(username="assistant", password="x"))
    assert client.get(reverse("register:suggest"), {"q": "hub"}).status_code == 404


def test_the_desk_links_the_picked_register_entry(logged_in, director, make_tournament):
    tournament = make_tournament(director, name="Evening", game="schafkopf")
    person = Person.objects.create(first_name="Anna", last_name="Huber", club="SK Au")
    page = logged_in.get(reverse("tournament:desk", args=[tournament.slug]))
    assert b"suggest.js" in page.content and b"data-suggest-url" in page.content
    logged_in.post(reverse("tournament:desk", args=[tournament.slug]),
                   {"first_name": "Anna", "last_name": "Huber", "club": "SK Au", "person": person.pk})
    assert tournament.participants.get().person == person


def test_taking_over_the_players_of_an_earlier_evening(logged_in, director, make_tournament):
    before = make_tournament(director, name="Before", game="schafkopf")
    for name in ("Anna", "Bert"):
        add_participant(before, by=director, first_name=name, last_name="Huber")
    now = make_tournament(director, name="Now", game="schafkopf")
    page = logged_in.get(reverse("tournament:desk", args=[now.slug]))
    assert b"Before" in page.content
    answer = logged_in.post(reverse("tournament:desk_take_over", args=[now.slug]), {"source": before.pk})
    assert answer.status_code == 302
    assert sorted(now.participants.values_list("first_name", flat=True)) == ["Anna", "Bert"]
    # a tournament the user does not direct is no choice: refused, nothing registered
    other = make_tournament(director, name="Third", game="schafkopf")
    answer = logged_in.post(reverse("tournament:desk_take_over", args=[other.slug]), {"source": 999999})
    assert answer.status_code == 200 and not other.participants.exists()


def test_merging_on_the_persons_page(logged_in, director):
    keep = Person.objects.create(first_name="Anna", last_name="Huber")
    other = Person.objects.create(first_name="Anne", last_name="Huber")
    answer = logged_in.post(reverse("register:person", args=[keep.pk]),
                            {"action": "merge", "other": other.pk, "reason": "typo"})
    assert answer.status_code == 302 and not Person.objects.filter(pk=other.pk).exists()
    assert AuditEntry.objects.filter(action="person.merge").exists()
    answer = logged_in.post(reverse("register:person", args=[keep.pk]), {"action": "merge", "other": keep.pk})
    assert answer.status_code == 200 and b"two different entries" in answer.content


def test_creating_a_season_and_adding_an_evening(logged_in, director, make_tournament):
    answer = logged_in.post(reverse("seasons:list"), {
        "name": "Winter", "game": "schafkopf", "language": "de", "scoring": "places",
        "place_points": "10, 8, 6", "min_evenings": "1"})
    season = Season.objects.get(name="Winter")
    assert answer.status_code == 302 and season.place_points == ["10", "8", "6"]
    evening = make_tournament(director, name="January", game="schafkopf")
    add_participant(evening, by=director, first_name="Anna", last_name="Huber")
    logged_in.post(season.get_absolute_url(), {"action": "add", "tournament": evening.pk})
    evening.refresh_from_db()
    assert evening.season == season
    page = logged_in.get(season.get_absolute_url())
    assert b"January" in page.content and b"provisional" in page.content


def test_bad_place_points_are_refused_with_a_message(logged_in, season):
    answer = logged_in.post(season.get_absolute_url(), {
        "action": "settings", "name": "Season 2026", "language": "de", "scoring": "places",
        "place_points": "10 x", "min_evenings": "1"})
    assert answer.status_code == 200 and b"is not a number of points" in answer.content
    season.refresh_from_db()
    assert season.place_points == ["3", "2", "1"]


def test_another_director_does_not_see_the_season(client, make_director, season):
    client.force_login(make_director("other"))
    assert client.get(season.get_absolute_url()).status_code == 404
    assert client.get(reverse("seasons:pdf", args=[season.slug])).status_code == 404


def test_the_files(logged_in, season):
    pdf = logged_in.get(reverse("seasons:pdf", args=[season.slug]))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    xlsx = logged_in.get(reverse("seasons:xlsx", args=[season.slug]))
    book = openpyxl.load_workbook(io.BytesIO(xlsx.content))
    assert len(book.sheetnames) == 2


def test_the_public_page_only_once_published(client, logged_in, season):
    url = reverse("public:season", args=[season.slug])
    assert client.get(url).status_code == 404
    logged_in.post(season.get_absolute_url(), {"action": "publish"})
    client.logout()
    page = client.get(url)
    assert page.status_code == 200 and b"Season 2026" in page.content


def test_the_import_asks_who_an_unsure_player_is(logged_in, director, make_tournament, settings, tmp_path):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournament.transfer import export_tournament

    tournament = make_tournament(director, name="Moved", game="schafkopf")
    hans = add_participant(tournament, by=director, first_name="Hans", last_name="Wolf", club="SK Au")
    data = export_tournament(tournament)
    hans.person.delete()
    known = Person.objects.create(first_name="Hans", last_name="Wolf", club="Moosach")
    logged_in.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", data)})
    page = logged_in.get(reverse("tournament:import_roles"))
    assert b"Hans Wolf (SK Au)" in page.content and b"a new register entry" in page.content
    # not answered: asked again, nothing imported
    answer = logged_in.post(reverse("tournament:import_roles"), {"action": "new"})
    assert answer.status_code == 200 and Tournament.objects.count() == 1
    answer = logged_in.post(reverse("tournament:import_roles"), {"person_0": str(known.pk), "action": "new"})
    assert answer.status_code == 302
    imported = Tournament.objects.exclude(pk=tournament.pk).get()
    assert imported.participants.get().person == known


def test_removing_an_evening_asks_first(logged_in, director, season, make_tournament):
    evening = make_tournament(director, name="January", game="schafkopf")
    seasons.add_evening(season, evening, by=director)
    asked = logged_in.post(season.get_absolute_url(), {"action": "remove", "tournament": evening.pk})
    assert asked.status_code == 200 and "Remove “January” from the season?" in asked.content.decode()
    evening.refresh_from_db()
    assert evening.season == season  # nothing changed yet
    done = logged_in.post(season.get_absolute_url(), {"action": "remove", "tournament": evening.pk, "confirmed": "1"})
    evening.refresh_from_db()
    assert done.status_code == 302 and evening.season is None
    assert AuditEntry.objects.filter(action="season.remove_evening").count() == 1
