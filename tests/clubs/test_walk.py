"""The tenancy walk (issue 26): every URL of the site that takes a tournament, a season, a register entry or an
audit entry, asked by club B's director for club A's object, answers as to an outsider (404; the admin's login or
its "does not exist"), and no response of the walk shows club A's private contacts.

The URL list comes from the resolver (as tests/golden and tests/web/test_permission_walk.py walk it), so a page
added later is walked too; a URL argument the walk cannot fill fails the test.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from scoring.games import all_games
from scoring.models import ScoreSheet
from tests.clubs.conftest import CONTACTS, club_world, new_member
from tests.conftest import built_once_fixtures
from tests.web.test_permission_walk import (
    access_of,
    candidates,
    demo_options,
    games_of,
    url_arguments,
    walk,
    with_a_photo,
)
from tournament.models import AuditEntry, Person, Season, Tournament, TournamentRole
from tournament.services import federation as fed

pytestmark = pytest.mark.django_db

#: what is published for everyone: the public pages and the read-only API (of published tournaments and seasons)
PUBLIC_ROUTES = ("p/", "api/")
#: URL arguments that name no club's object: filled with a value that opens nothing
NO_CLUB_OBJECT = {"token": "x" * 20, "uidb64": "x", "content_type_id": "1", "app_label": "tournament", "path": "x"}


def build_two_clubs():
    a, b = club_world("a", "SK Isartal"), club_world("b", "TC Moosach")
    a.tournaments = {game.key: game.demo(a.director, **demo_options(game))
                     for game in all_games() if game.offers("demo")}
    for tournament in (*a.tournaments.values(), a.tournament):
        Tournament.objects.filter(pk=tournament.pk).update(
            publish_schedule=True, publish_standings=True, publish_bracket=True, publish_results=True)
        # every register entry of the evening gets a private contact, as a club keeps them
        Person.objects.filter(participations__tournament=tournament).update(contact=CONTACTS["a"])
        sheet = ScoreSheet.objects.filter(tournament=tournament).order_by("pk").first()
        if sheet is not None:
            with_a_photo(tournament, sheet)  # the photo of a sheet's paper is walked too
    Season.objects.filter(pk=a.season.pk).update(publish=True)  # its public page is walked with its ranking
    for user in (b.director, b.admin):
        user.is_staff = True  # the admin's pages answer them as the directors they are today
        user.save(update_fields=["is_staff"])
    new_member(a.club, "helper_a", "assistant")
    _federation_of(a, b)
    return a, b


def _federation_of(a, b) -> None:
    """Clubs A and B in one federation: A's entry and B's numbered (two members), a league with A's evening,
    published."""
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_user(username="fed_admin", password="pw-fed_admin-1")
    a.federation = fed.create_federation("Verband", admin=admin, clubs=[a.club, b.club])
    a.fed_admin = admin
    for world in (a, b):
        fed.request_number(world.person, by=world.director)
    a.member = fed.assign_number(a.person, by=admin)
    b.member = fed.assign_number(b.person, by=admin)
    a.league = fed.create_federation_season(a.federation, by=admin, name="Liga", game="schafkopf",
                                            place_points=["3", "2", "1"])
    fed.join_federation_season(a.tournaments["schafkopf"], a.league, by=a.director)
    fed.set_federation_season_published(a.league, True, by=admin)
    fed.request_number(Person.objects.of(a.club).exclude(pk=a.person.pk).first(), by=a.director)


#: club A and club B, built once for the module (each test runs in a savepoint of its own)
built, two_clubs = built_once_fixtures(build_two_clubs)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def club_object_arguments(a, name: str, args: list[str]) -> list[dict] | None:
    """Values naming club A's objects for a route that is not a tournament's page, or None where it takes none."""
    if "fseason" in args:
        return [{"fseason": a.league.slug}]
    if "number" in args:
        return [{"number": a.member.number}]
    if "season" in args:
        return [{"season": a.season.slug}]
    if name == "register:person":
        return [{"pk": a.person.pk}]
    if name.startswith("admin:") and "object_id" in args:
        model = name.split(":")[1].rsplit("_", 1)[0].removeprefix("tournament_")
        objects = {"tournament": a.tournament.pk, "auditentry": AuditEntry.objects.of(a.club).first().pk,
                   "tournamentrole": TournamentRole.objects.filter(tournament=a.tournament).first().pk}
        if model in objects:
            return [{"object_id": str(objects[model])}]
    return None


def test_club_b_gets_nothing_of_club_a(two_clubs):
    a, b = two_clubs
    outsider, owner = logged_in(b.director), logged_in(a.director)
    checked, problems = 0, []

    def ask(url: str, *, refused: bool, methods=("get", "post")) -> None:
        nonlocal checked
        for method in methods:
            if "_auth_user_id" not in outsider.session:  # the logout pages log out: every request is B's director's
                outsider.force_login(b.director)
            response = getattr(outsider, method)(url)
            if response.status_code == 302 and response["Location"] == f"/c/{a.club.slug}{url}":
                # an address without the club names club A's object alone: it leads to club A's address, which
                # must refuse B's director as any other
                response = getattr(outsider, method)(response["Location"])
            body = response.content.decode(errors="replace")
            checked += 1
            if CONTACTS["a"] in body:
                problems.append(f"{method.upper()} {url}: shows club A's contact")
            if refused and response.status_code not in (302, 403, 404):
                problems.append(f"{method.upper()} {url}: {response.status_code}, expected 404")
            if refused and response.status_code == 302 and "/login/" not in response.get("Location", "") \
                    and not response["Location"].startswith("/admin/"):
                problems.append(f"{method.upper()} {url}: sends to {response['Location']}")

    def ask_under_b(url: str, *, public: bool) -> None:
        """Club A's object under club B's address (/c/<b>/…): no club's page shows another club's object there,
        be it published (club B has no tournament or season of that short name). A public page is asked as
        read (a POST there is refused whatever the address: 405)."""
        ask(f"/c/{b.club.slug}{url}", refused=True, methods=("get",) if public else ("get", "post"))

    for route, name, pattern in walk(get_resolver().url_patterns):
        args = url_arguments(route)
        if "slug" in args:
            public = access_of(pattern, name) == "public"  # the public pages and the read-only API
            games = games_of(name)
            for key, tournament in a.tournaments.items():
                if games is not None and tournament.game not in games:
                    continue
                for kwargs in candidates(tournament, name, args):
                    url = reverse(name, kwargs=kwargs)
                    if owner.get(f"/c/{a.club.slug}{url}").status_code != 404:  # club A's address of it
                        ask(url, refused=not public)
                        ask_under_b(url, public=public)
                        break
                else:
                    if not public:
                        problems.append(f"{name} ({key}): club A's director cannot open any tested address")
            continue
        values = club_object_arguments(a, name, args)
        if name.startswith("federation:"):  # the federation's own pages: its admin's, 404 to every club's people
            kwargs = values[0] if values else {}
            assert logged_in(a.fed_admin).get(reverse(name, kwargs=kwargs)).status_code == 200, name
            ask(reverse(name, kwargs=kwargs), refused=True)
            continue
        if values is not None:
            for kwargs in values:
                url = reverse(name, kwargs=kwargs)
                assert owner.get(f"/c/{a.club.slug}{url}").status_code in (200, 302), url  # the owner's club opens it
                ask(url, refused=not route.startswith(PUBLIC_ROUTES))  # a published season is everyone's
                if "season" in kwargs:
                    ask_under_b(url, public=route.startswith(PUBLIC_ROUTES))
            continue
        if name.startswith("admin:") and args:
            continue  # the admin's pages of models that are no club's (users, groups)
        unknown = [arg for arg in args if arg not in NO_CLUB_OBJECT]
        if unknown:
            problems.append(f"{route}: no test value for {unknown}")
            continue
        url = reverse(name, kwargs={arg: NO_CLUB_OBJECT.get(arg, "1") for arg in args})
        ask(url, refused=False)  # B's own pages: whatever they show, never A's contacts
    for query in ("Huber", "0171", "private"):  # B's register and the desk's suggestions, asked for A's people
        ask(reverse("register:list") + f"?q={query}", refused=False)
        ask(reverse("register:suggest") + f"?q={query}", refused=False)
    assert not problems, "\n".join(problems)
    assert checked > 400


def test_the_federation_s_pages_are_its_admin_s_and_show_no_club_s_contacts(two_clubs):
    """A club's director and admin get 404 on every page of the federation, and cannot merge its members; its admin
    reads the members and the clubs' requests, never a club's contact."""
    a, b = two_clubs
    admin = logged_in(a.fed_admin)
    pages = [reverse(name) for name in ("federation:home", "federation:audit", "federation:seasons")]
    pages += [reverse("federation:member", args=[a.member.number]), reverse("federation:season", args=[a.league.slug]),
              reverse("federation:season_pdf", args=[a.league.slug]),
              reverse("public:federation_season", args=[a.league.slug])]
    for url in pages:
        response = admin.get(url)
        assert response.status_code == 200, url
        assert CONTACTS["a"].encode() not in response.content and CONTACTS["b"].encode() not in response.content
    home = admin.get(reverse("federation:home")).content.decode()
    assert "Anna Huber" in home and "SK Isartal" in home
    merge = reverse("federation:member", args=[a.member.number])
    for user in (a.director, a.admin, b.director, b.admin):
        client = logged_in(user)
        for url in pages[:-1]:
            assert client.get(url).status_code == 404, (user, url)
        assert client.post(merge, {"other": b.member.number}).status_code == 404
    b.person.refresh_from_db()
    assert b.person.member == b.member, "no club's director merged the federation's members"
    assert admin.post(merge, {"other": b.member.number}).status_code == 302
    b.person.refresh_from_db()
    assert b.person.member == a.member


def test_club_a_s_own_pages_show_its_contacts_to_its_director(two_clubs):
    """The walk's contact check can fail: the register page shows the club's own contact to its director."""
    a, _b = two_clubs
    assert CONTACTS["a"] in logged_in(a.director).get(reverse("register:person", args=[a.person.pk])).content.decode()


def test_club_b_s_admin_sees_only_club_b_s_members_and_log(two_clubs):
    a, b = two_clubs
    body = logged_in(b.admin).get(reverse("club")).content.decode()
    assert "director_b" in body and "TC Moosach" in body
    assert "director_a" not in body and "helper_a" not in body and "SK Isartal" not in body
    assert AuditEntry.objects.of(a.club).filter(action="person.add").exists()
    assert "Anna Huber (SK Au)" not in body.split("Changes to the club")[0]
    assert logged_in(b.director).get(reverse("club")).status_code == 404  # a director is no admin
    assert logged_in(a.admin).get(reverse("club")).status_code == 200


def test_the_role_form_lists_only_the_clubs_members(two_clubs):
    """An invited director uses the admin's role form (staff, in the Directors group, as directors always did);
    it offers the members of his club only."""
    from tournament.services.clubs import invite

    a, _b = two_clubs
    membership, _link = invite(a.club, by=a.admin, username="invited_a")
    body = logged_in(membership.user).get(reverse("admin:tournament_tournamentrole_add")).content.decode()
    assert "helper_a" in body and "admin_a" in body
    assert "director_b" not in body and "admin_b" not in body
