"""Addresses that carry the club (issue 26, tournament/clubaddress.py): two clubs on one server, each with a
tournament and a season of the same name and short name; each club's address opens its own, never the other's."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.clubs.conftest import club_world
from tournament.addresses import public_url
from tournament.clubaddress import reverse_in_club
from tournament.models import AuditEntry, Organisation, Person, Season, Tournament
from tournament.services.seasons import create_season
from tournament.services.tournaments import create_tournament

pytestmark = pytest.mark.django_db

NAME, SEASON = "Friday Evening", "Winter League"
NAME_SLUG = "friday-evening"


@pytest.fixture
def twins(db):
    """Club A and club B, each with a tournament "Friday Evening" and a season "Winter League", published."""
    a, b = club_world("a", "SK Isartal"), club_world("b", "TC Moosach")
    for world in (a, b):
        world.twin = create_tournament(by=world.director, name=NAME, game="schafkopf", date=datetime.date(2026, 3, 6),
                                       venue=f"Hall of {world.club.name}")
        world.twin_season = create_season(by=world.director, name=SEASON, game="schafkopf", place_points=["1"])
        world.prefix = f"/c/{world.club.slug}"
    Tournament.objects.filter(pk__in=[a.twin.pk, b.twin.pk]).update(publish_standings=True)
    Season.objects.filter(pk__in=[a.twin_season.pk, b.twin_season.pk]).update(publish=True)
    assert a.twin.slug == b.twin.slug == "friday-evening"
    assert a.twin_season.slug == b.twin_season.slug == "winter-league"
    return a, b


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_each_director_opens_his_own_tournament_under_his_club_s_address(twins):
    a, b = twins
    for world in (a, b):
        response = logged_in(world.director).get(f"{world.prefix}/manage/{NAME_SLUG}/")
        assert response.status_code == 200
        assert response.context["tournament"].pk == world.twin.pk
        body = response.content.decode()
        # every link of the page leads into the same club, made by reverse() and {% url %} that know no club
        assert f'href="{world.prefix}/manage/{NAME_SLUG}/' in body
        assert 'href="/static/' in body  # static files stay the server's
    # the other club's director gets nothing under the other club's address
    assert logged_in(b.director).get(f"{a.prefix}/manage/{NAME_SLUG}/").status_code == 404
    # the prefix was the request's only: after it, reverse() is the plain one again
    assert reverse("tournament:detail", args=[NAME_SLUG]) == f"/manage/{NAME_SLUG}/"


def test_the_public_pages_and_the_api_of_each_club_show_its_own(twins):
    a, b = twins
    for world in (a, b):
        page = Client().get(f"{world.prefix}/p/{NAME_SLUG}/standings/")
        assert page.status_code == 200 and page.context["tournament"].pk == world.twin.pk
        season = Client().get(f"{world.prefix}/p/seasons/winter-league/")
        assert season.status_code == 200 and season.context["season"].pk == world.twin_season.pk
        data = Client().get(f"{world.prefix}/api/v1/tournaments/{NAME_SLUG}").json()
        assert data["venue"] == world.twin.venue
        assert f"{world.prefix}/p/{NAME_SLUG}/" in data["url"]
        ranking = Client().get(f"{world.prefix}/api/v1/seasons/winter-league").json()
        assert f"{world.prefix}/p/seasons/winter-league/" in ranking["url"]


def test_each_director_opens_his_own_season(twins):
    a, b = twins
    for world in (a, b):
        response = logged_in(world.director).get(f"{world.prefix}/manage/seasons/winter-league/")
        assert response.status_code == 200 and response.context["season"].pk == world.twin_season.pk
    assert logged_in(a.director).get(f"{b.prefix}/manage/seasons/winter-league/").status_code == 404


def test_an_address_without_the_club_redirects_when_one_club_has_the_name_and_lists_when_several(twins):
    a, b = twins
    only_a = a.tournament.slug  # "evening-a": club A's alone
    response = logged_in(a.director).get(f"/manage/{only_a}/?round=2")
    assert response.status_code == 302 and response["Location"] == f"{a.prefix}/manage/{only_a}/?round=2"
    assert Client().get(f"/p/seasons/{a.season.slug}/")["Location"] == f"{a.prefix}/p/seasons/{a.season.slug}/"
    listing = Client().get(f"/p/{NAME_SLUG}/")
    body = listing.content.decode()
    assert listing.status_code == 300
    assert f'href="{a.prefix}/p/{NAME_SLUG}/"' in body and f'href="{b.prefix}/p/{NAME_SLUG}/"' in body
    assert "SK Isartal" in body and "TC Moosach" in body
    assert Client().get("/p/seasons/winter-league/").status_code == 300


def test_an_unknown_club_is_not_found_and_a_login_comes_back_to_the_club_s_address(twins):
    a, _b = twins
    assert logged_in(a.director).get(f"/c/no-such-club/manage/{NAME_SLUG}/").status_code == 404
    response = Client().get(f"{a.prefix}/manage/{NAME_SLUG}/")
    assert response.status_code == 302 and f"next={a.prefix}/manage/{NAME_SLUG}/".replace("/", "%2F") in \
        response["Location"].replace("/", "%2F")


def test_a_printout_s_link_carries_the_club_outside_a_request(twins, settings):
    a, b = twins
    settings.PUBLIC_BASE_URL = "https://turnier.example.org"
    assert public_url(a.twin, "standings") == f"https://turnier.example.org{a.prefix}/p/{NAME_SLUG}/standings/"
    assert public_url(b.twin) == f"https://turnier.example.org{b.prefix}/p/{NAME_SLUG}/"
    assert reverse_in_club(b.club, "seasons:detail", args=["winter-league"]) == \
        f"{b.prefix}/manage/seasons/winter-league/"


def test_a_one_club_installation_has_no_prefix_anywhere(director, tournament):
    """The laptop: one club, the addresses it always had (tests/golden pins every route)."""
    assert Organisation.objects.count() == 1
    assert public_url(tournament).endswith(f"/p/{tournament.slug}/")
    assert "/c/" not in public_url(tournament)
    response = logged_in(director).get(f"/manage/{tournament.slug}/")
    assert response.status_code == 200 and "/c/" not in response.content.decode()



def test_the_club_admin_renames_the_club_s_address_on_the_club_page(twins):
    a, b = twins
    admin = logged_in(a.admin)
    page = admin.get(f"{a.prefix}/manage/club/")
    assert page.status_code == 200 and 'name="slug"' in page.content.decode()
    assert logged_in(b.admin).get(f"{a.prefix}/manage/club/").status_code == 404  # not B's admin's page
    for wrong, message in (("manage", "is a word of the addresses"), (b.club.slug, "Another club has"),
                           ("zwei worte", "only letters, digits")):
        refused = admin.post(f"{a.prefix}/manage/club/", {"action": "address", "slug": wrong})
        assert refused.status_code == 200 and message in refused.content.decode()
        assert Organisation.objects.get(pk=a.club.pk).slug == "sk-isartal"  # nothing changed
    done = admin.post(f"{a.prefix}/manage/club/", {"action": "address", "slug": "isartal"})
    assert done.status_code == 302 and done["Location"] == "/c/isartal/manage/club/"
    assert logged_in(a.director).get(f"/c/isartal/manage/{NAME_SLUG}/").context["tournament"].pk == a.twin.pk
    assert logged_in(a.director).get(f"{a.prefix}/manage/{NAME_SLUG}/").status_code == 404  # the old address
    assert AuditEntry.objects.of(a.club).filter(action="club.address").get().after == {"slug": "isartal"}


def test_a_one_club_installation_offers_no_short_name_of_the_club(admin_client):
    assert Organisation.objects.count() <= 1
    page = admin_client.get("/manage/club/")
    assert 'name="slug"' not in page.content.decode()


def hrefs(response) -> list[str]:
    import re

    return re.findall(r'href="([^"]+)"', response.content.decode())


def test_the_list_pages_without_the_club_link_straight_to_each_club_s_own_object(twins, django_assert_num_queries):
    """A director's lists open at /manage/… (the login lands there): with a short name both clubs have, a link
    without the club would open the "which club?" page instead of the director's own tournament or season."""
    a, b = twins
    client = logged_in(a.director)
    tournaments = client.get("/manage/")
    assert f"{a.prefix}/manage/{NAME_SLUG}/" in hrefs(tournaments)
    assert f"/manage/{NAME_SLUG}/" not in hrefs(tournaments)
    assert client.get(f"{a.prefix}/manage/{NAME_SLUG}/").context["tournament"].pk == a.twin.pk
    seasons = client.get("/manage/seasons/")
    assert f"{a.prefix}/manage/seasons/winter-league/" in hrefs(seasons)
    assert "/manage/seasons/winter-league/" not in hrefs(seasons)


def test_a_superuser_s_list_links_each_row_into_its_own_club_with_no_query_per_row(twins, django_assert_num_queries):
    """A server's superuser sees every club's tournaments on one list, also under a club's address: each row's link
    leads into the row's own club (under club A's address a plain link opened A's twin for B's row)."""
    from django.contrib.auth import get_user_model

    a, b = twins
    root = get_user_model().objects.create_superuser("root", password="pw-root-1")
    client = logged_in(root)
    for prefix in ("", a.prefix):
        links = hrefs(client.get(f"{prefix}/manage/"))
        assert f"{a.prefix}/manage/{NAME_SLUG}/" in links and f"{b.prefix}/manage/{NAME_SLUG}/" in links
        seasons = hrefs(client.get(f"{prefix}/manage/seasons/"))
        assert f"{a.prefix}/manage/seasons/winter-league/" in seasons
        assert f"{b.prefix}/manage/seasons/winter-league/" in seasons
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as two:
        client.get("/manage/")
    for n in range(3):  # three more tournaments of each club: the list page asks the database as often as before
        for world in (a, b):
            create_tournament(by=world.director, name=f"Evening {n}", game="voms", date=datetime.date(2026, 4, 1 + n))
    with django_assert_num_queries(len(two.captured_queries)):
        client.get("/manage/")


def test_the_register_s_person_page_links_the_season_into_the_person_s_club(twins):
    from tests.clubs.conftest import played_evening
    from tournament.services.seasons import add_evening

    a, b = twins
    evening = played_evening(a, 3, ["Anna Berg", "Bert Cole", "Carl Dorn", "Dora Eck"])
    add_evening(a.twin_season, evening, by=a.director)
    person = evening.participants.get(last_name="Berg").person
    page = logged_in(a.director).get(reverse("register:person", args=[person.pk]))
    assert page.status_code == 200
    assert f"{a.prefix}/manage/seasons/winter-league/" in hrefs(page)


def test_a_new_tournament_or_season_made_from_manage_opens_in_its_club_not_on_the_which_club_page(twins):
    """B already has "Spring Cup" and "Summer League": A's director makes his own from the plain /manage/ pages he
    lands on after the login, and is taken straight to it (the plain address would list both clubs)."""
    a, b = twins
    create_tournament(by=b.director, name="Spring Cup", game="voms", date=datetime.date(2026, 5, 1))
    create_season(by=b.director, name="Summer League", game="schafkopf", place_points=["1"])
    client = logged_in(a.director)
    made = client.post(reverse("tournament:create"), {
        "name": "Spring Cup", "game": "voms", "date": "2026-05-02", "venue": "", "language": "de",
        "status": "planned"})
    assert made["Location"] == f"{a.prefix}/manage/spring-cup/"
    assert client.get(made["Location"]).context["tournament"].organisation == a.club
    season = client.post(reverse("seasons:list"), {
        "name": "Summer League", "game": "schafkopf", "language": "de", "scoring": "places",
        "place_points": "10, 8, 6", "min_evenings": "1"})
    assert season["Location"] == f"{a.prefix}/manage/seasons/summer-league/"
    assert client.get(season["Location"]).context["season"].organisation == a.club


def test_a_tournament_imported_from_manage_opens_in_its_club(twins):
    """A's director imports B's "Friday Evening" file (a short name both clubs have) at the plain /manage/import/:
    he lands on the new copy in his club, and the note names its public address in his club."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournament.transfer import export_tournament

    a, b = twins
    client = logged_in(a.director)
    upload = SimpleUploadedFile("t.json", export_tournament(b.twin), content_type="application/json")
    assert client.post(reverse("tournament:import"), {"file": upload}).status_code == 302
    response = client.post(reverse("tournament:import_roles"), {"action": "new"})
    copy = Tournament.objects.of(a.club).get(slug=f"{NAME_SLUG}-2")
    assert response["Location"] == f"{a.prefix}/manage/{NAME_SLUG}-2/"
    told = client.get(response["Location"]).content.decode()
    assert f"{a.prefix}/p/{NAME_SLUG}-2/" in told and copy.name in told


def test_the_club_s_server_offers_no_set_up_of_a_club_server(twins):
    """The "Club server" page is the laptop's (where it sends its evenings); on the server of several clubs, the
    tournament page offered "Set up the club's server" on every tournament, leading directors to push the server to
    itself."""
    a, b = twins
    page = logged_in(a.director).get(f"{a.prefix}/manage/{NAME_SLUG}/")
    assert page.status_code == 200 and "Set up the club's server" not in page.content.decode()
    assert not [href for href in hrefs(page) if href.endswith("/manage/club/server/")]


def test_the_register_under_a_club_s_address_is_that_club_s(twins):
    """A director of both clubs types a name at club B's desk: the suggestions (and the register page under B's
    address) were club A's, his first club's, whose entries B's tournament cannot take. Under the address of a club
    he does not direct in, the register is not found, as a tournament or season there is."""
    from tests.clubs.conftest import new_member
    from tournament.models import Membership

    a, b = twins
    both = new_member(a.club, "director_ab")
    Membership.objects.create(organisation=b.club, user=both, role="director")
    client = logged_in(both)
    for world in (a, b):
        suggested = client.get(f"{world.prefix}/manage/register/suggest/", {"q": "Huber"}).json()["people"]
        assert [person["id"] for person in suggested] == [world.person.pk]
        page = client.get(f"{world.prefix}/manage/register/{world.person.pk}/")
        assert page.status_code == 200 and world.contact in page.content.decode()
        zeta = f"Zeta{world.club.pk}"
        assert client.post(f"{world.prefix}/manage/register/", {"last_name": zeta}).status_code == 302
        assert Person.objects.of(world.club).filter(last_name=zeta).exists()
    assert client.get(f"{b.prefix}/manage/register/{a.person.pk}/").status_code == 404
    assert client.get("/manage/register/suggest/", {"q": "Huber"}).json()["people"][0]["id"] == a.person.pk  # his first
    # a director of club B only: club A's register address is not found, nothing of A's register shown
    assert logged_in(b.director).get(f"{a.prefix}/manage/register/").status_code == 404
    assert logged_in(b.director).get(f"{a.prefix}/manage/register/suggest/", {"q": "Huber"}).status_code == 404
