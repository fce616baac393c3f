"""Hostile values posted to every form a director or assistant can reach.

The forms are found by walking every page of small demo tournaments and reading their <form method=post>;
the test fails when a POST view of the URL confs has no form on any page walked (so a new POST view cannot
slip by without being fuzzed). For each hypothesis example: never a server error; a refused post shows
what is wrong and leaves every row of the database as it was; an accepted post leaves pages that open.
"""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import resolve, reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring.games import game_of
from scoring.models import ScoreSheet
from tests.web.test_permission_walk import candidates, tournament_patterns, url_arguments
from tournament.models import Match

from .conftest import FUZZ, build_world
from .harness import Form, changed, forms_on, post_endpoints, shows_error, snapshot
from .values import hostile_text, uploads

pytestmark = pytest.mark.django_db

#: which demo tournaments each part of the app is walked with
AREAS = {
    "tournament": ("voms",),
    "voms": ("voms", "voms-played"),
    "schafkopf": ("schafkopf",),
    "tablegames": ("domino", "domino_patience"),
}
#: pages outside a tournament that hold forms
OTHER_PAGES = ("tournament:list", "tournament:create", "tournament:import", "tournament:import_roles", "register:list",
               "seasons:list")


def area_of(url_name: str) -> str:
    parts = url_name.split(":")
    return parts[1] if len(parts) == 3 else "tournament"


def crawl(client, tournaments, extra=()) -> dict[tuple, tuple[str, Form]]:
    """Every distinct post form on the pages of these tournaments (and the `extra` pages):
    {(url name, fields): (page, form)}."""
    pages = [reverse(name) for name in OTHER_PAGES] + list(extra)
    for t in tournaments:
        for route, name, _pattern in tournament_patterns():
            if name.startswith("public:"):
                continue
            for kwargs in candidates(t, name, url_arguments(route)):
                pages.append(reverse(name, kwargs=kwargs))
    for match in Match.objects.filter(stage__tournament__in=tournaments, key__gt=""):
        pages.append(reverse("tournament:voms:series", args=[match.stage.tournament.slug, match.pk]))
    found = {}
    for page in pages:
        response = client.get(page)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for form in forms_on(response.content.decode(), page):
            if form.url_name in ("logout", "set_language"):
                continue
            key = (form.url_name, tuple(sorted(form.fields)), tuple(form.fields.get("action", [])[:1]),
                   tuple(form.files))
            found.setdefault(key, (page, form))
    return found


def pick_value(draw, values: list[str]):
    """Keep the page's value (mostly: so the hostile field is not refused for another), or go hostile."""
    mode = draw(st.sampled_from(("keep", "keep", "keep", "hostile", "hostile", "omit", "twice")))
    page_value = draw(st.sampled_from(values)) if values else ""
    if mode == "keep":
        return page_value
    if mode == "omit":
        return None
    if mode == "twice":
        return [page_value, draw(hostile_text)]
    return draw(hostile_text)


def post_hostile(client, page: str, form: Form, data_strategy, consistency) -> None:
    draw = data_strategy.draw
    data = {}
    for name, values in form.fields.items():
        value = pick_value(draw, values)
        if value is not None:
            data[name] = value
    for name in form.files:
        filename, content = draw(uploads)
        from django.core.files.uploadedfile import SimpleUploadedFile

        data[name] = SimpleUploadedFile(filename, content)
    before = snapshot()
    response = client.post(form.action, data)
    after = snapshot()
    where = f"POST {form.action} {sorted(data)}"
    assert response.status_code < 500, where
    if response.status_code == 201:  # accepted, and what was made is in the answer (a club's API token, shown once)
        for url in (page, *consistency_of(form, consistency)):
            assert client.get(url).status_code < 500, f"{url} after accepted {where}"
        return
    if response.status_code == 302 and not refused_by_message(client, response):
        for url in (page, *consistency_of(form, consistency)):
            assert client.get(url).status_code < 500, f"{url} after accepted {where}"
        return
    assert not changed(before, after), f"refused {where} changed {changed(before, after)}"
    if response.status_code == 200:
        assert shows_error(response.content.decode()), f"{where} refused without saying why"


def refused_by_message(client, response) -> bool:
    """Some actions refuse with an error message on the page they redirect to."""
    followed = client.get(response.url)
    assert followed.status_code < 500
    return '<li class="error">' in followed.content.decode()


def consistency_pages(tournaments) -> dict[str, list[str]]:
    """Per tournament (by slug) the pages that must still open after a post was accepted."""
    pages = {}
    for t in tournaments:
        pages[t.slug] = [reverse("tournament:detail", args=[t.slug])]
        for name in ("voms:standings", "schafkopf:standings", "tablegames:standings"):
            if name.split(":")[0] == game_of(t).urlconf().app_name:
                pages[t.slug].append(reverse(f"tournament:{name}", args=[t.slug]))
    return pages


def consistency_of(form: Form, pages: dict[str, list[str]]) -> list[str]:
    """The pages to open after `form` was accepted: its own tournament's (a tournament's form acts on that
    tournament alone; that one cannot reach another is the permission walk's and the game guard's test), every
    tournament's for a form of none (an import, the register, a season)."""
    slug = resolve(form.action.split("?")[0]).kwargs.get("slug")
    if slug in pages:
        return pages[slug]
    return [url for urls in pages.values() for url in urls]


def fuzzer(client, page, form, consistency):
    @FUZZ
    @given(st.data())
    def fuzz(data):
        post_hostile(client, page, form, data, consistency)

    return fuzz


@pytest.mark.parametrize("area", AREAS)
def test_hostile_posts_to_every_form(area, make_director, django_user_model):
    world = build_world(make_director, django_user_model, AREAS[area])
    tournaments = list(world["tournaments"].values())
    client = Client()
    client.force_login(world["director"])
    if "voms-played" in world["tournaments"]:  # the final not played yet: its series page takes results
        ScoreSheet.objects.filter(match__stage__tournament=world["tournaments"]["voms-played"],
                                  match__key="F").delete()
    if area == "tournament":  # the import's second step exists once a file passed the first
        from django.core.files.uploadedfile import SimpleUploadedFile

        from tournament.services.participants import add_participant, mark_arrived
        from tournament.services.tournaments import create_tournament

        # a seated game before its draw, check-in begun: the desk's import and the no-shows offer are shown
        desk = create_tournament(by=world["director"], name="Desk evening", game="schafkopf",
                                 date=datetime.date(2026, 12, 5))
        for last_name in ("Huber", "Maier"):
            add_participant(desk, by=world["director"], last_name=last_name)
        mark_arrived(desk.participants.first(), by=world["director"])
        tournaments.append(desk)
        extra = (season_pages(world["director"], desk) + club_pages(client, world["director"])
                 + federation_pages(world["director"]) + outdated_printjob_pages(tournaments))

        export = client.get(reverse("tournament:export_json", args=[tournaments[0].slug])).content
        client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", export)})
    found = crawl(client, tournaments, extra if area == "tournament" else ())
    wanted = {name for name in post_endpoints() if area_of(name) == area and name != "login"}
    assert wanted <= {name for name, *_ in found}, f"POST views without a form on any page: " \
                                                    f"{wanted - {name for name, *_ in found}}"
    consistency = consistency_pages(tournaments)
    for (url_name, *_), (page, form) in sorted(found.items(), key=lambda item: str(item[0])):
        if area_of(url_name) != area:
            continue

        fuzzer(client, page, form, consistency)()


def season_pages(director, desk) -> list[str]:
    """A season with an evening, an earlier evening whose players the desk offers, and a register entry's page."""
    from tournament.services.participants import add_participant
    from tournament.services.seasons import add_evening, create_season
    from tournament.services.tournaments import create_tournament

    earlier = create_tournament(by=director, name="Earlier evening", game="schafkopf", date=datetime.date(2026, 11, 5))
    player = add_participant(earlier, by=director, first_name="Anna", last_name="Huber")
    season = create_season(by=director, name="Season", game="schafkopf", place_points=["3", "2", "1"])
    add_evening(season, earlier, by=director)
    return [reverse("seasons:detail", args=[season.slug]), reverse("register:person", args=[player.person_id])]


def outdated_printjob_pages(tournaments) -> list[str]:
    """A print job's page kept from before the tournament changed (a bookmark): its file is out of date, and it
    offers "Make the current printout". One of the draw's jobs, made with a key the document no longer has."""
    from django.utils import timezone

    from tournament.models import PrintJob

    job = PrintJob.objects.filter(tournament__in=tournaments).order_by("pk").first()
    assert job is not None, "no tournament of the walk has a print job: a drawn seated game queues them"
    PrintJob.objects.filter(pk=job.pk).update(state=PrintJob.State.DONE, key="before-a-change", filename="old.pdf",
                                              content=b"%PDF-1.7", finished_at=timezone.now())
    return [reverse("tournament:printjob", args=[job.tournament.slug, job.pk])]


def club_pages(client, director) -> list[str]:
    """The club page (the director made the club's admin, one member invited), the invited member's page where
    a password is chosen (opened once by `client`, which keeps the link's token in its session), and the laptop's
    club server page; with a club server kept, each tournament's page offers "Send to the club's server" (to a
    closed port of this machine: every send ends offline, nothing leaves it)."""
    from tournament.models import Membership
    from tournament.services.clubs import invite
    from tournament.services.push import save_club_server
    from tournament.tenancy import forget_club_roles

    Membership.objects.filter(user=director).update(role="admin")
    forget_club_roles(director)
    club = Membership.objects.get(user=director).organisation
    _membership, link = invite(club, by=director, username="invited")
    save_club_server(club, by=director, url="http://127.0.0.1:9", token="tmk_" + "x" * 43)
    return [reverse("club"), client.get(link)["Location"], reverse("club_server")]


def federation_pages(director) -> list[str]:
    """The director's club in a federation he is the admin of: its register with a member and a request for a
    number, a member's page, its seasons and a season."""
    from tournament.models import Person
    from tournament.services import federation
    from tournament.tenancy import organisation_of

    club = organisation_of(director)
    league_of = federation.create_federation("Verband", admin=director, clubs=[club])
    first, second = Person.objects.of(club).order_by("pk")[:2]
    for person in (first, second):
        federation.request_number(person, by=director)
    member = federation.assign_number(first, by=director)
    league = federation.create_federation_season(league_of, by=director, name="Liga", game="schafkopf",
                                                 place_points=["3", "2", "1"])
    return [reverse("federation:home"), reverse("federation:member", args=[member.number]),
            reverse("federation:seasons"), reverse("federation:season", args=[league.slug])]


def test_hostile_logins(client, make_director):
    make_director("boss")
    form = Form(reverse("login"), {"username": ["boss"], "password": ["pw-Director-1"]})

    fuzzer(client, reverse("login"), form, {})()


def test_hostile_audit_filters(client, director, make_tournament):
    """The audit log's filter is a GET form: odd filters, pages and sort keys show an empty list, never a 500."""
    t = make_tournament(director)
    client.force_login(director)
    url = reverse("tournament:audit", args=[t.slug])
    names = st.sampled_from(["action", "user", "q", "page", "sort", "per_page"])

    @FUZZ
    @given(st.dictionaries(names, st.one_of(hostile_text, st.lists(hostile_text, max_size=3)), max_size=4))
    def fuzz(params):
        assert client.get(url, params).status_code in (200, 404)

    fuzz()


SIMPLE_FORMS = {  # url name -> (game, data that leaves required fields empty)
    "tournament:voms:teams": ("voms", {"action": "single", "single-name": "\x00"}),
    "tournament:desk": ("voms", {"player1": "\x00"}),
    "tournament:voms:settings": ("voms", {"win_points": "x"}),
    "tournament:desk#schafkopf": ("schafkopf", {"number": "-1"}),
    "tournament:schafkopf:settings": ("schafkopf", {"rounds": str(10**30)}),
    "tournament:desk#domino": ("domino", {"number": "1.5"}),
    "tournament:tablegames:settings": ("domino", {"rounds": "NaN"}),
    "tournament:public": ("voms", {"beamer_seconds": "-5"}),
}


def error_texts(html: str) -> set[str]:
    """The texts of Django's error lists and of our error marks (class "error" or "errors")."""
    import re

    found = re.findall(r'<(ul|span|div|p|li) class="(?:errorlist|errors?)\b[^"]*"[^>]*>(.*?)</\1>', html, re.S)
    return {" ".join(re.sub(r"<[^>]+>", " ", text).split()) for _tag, text in found} - {""}


@pytest.mark.parametrize("name", SIMPLE_FORMS)
def test_refusals_are_translated(client, director, make_tournament, name):
    game, data = SIMPLE_FORMS[name]
    t = make_tournament(director, game=game)
    client.force_login(director)
    url = reverse(name.partition("#")[0], args=[t.slug])
    before = snapshot()
    english = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client.post(url, data, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert not changed(before, snapshot())
    assert error_texts(english), f"{name}: no error shown"
    assert error_texts(german)
    untranslated = {text for text in error_texts(english) if text in german}
    assert not untranslated, f"{name}: shown in English on the German page: {untranslated}"
