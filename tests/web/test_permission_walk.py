"""Walk every director, assistant and public URL as every role and check what each gets.

The URL list comes from the resolver, so a page added later is walked too. What a role may
open follows from the view's access mixin (director pages, score-entry pages); a page whose
access cannot be classified fails the test, so no page slips through unchecked.
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.games import all_games, game_of
from scoring.models import SheetPhoto
from scoring.results.photos import reencoded
from tests.conftest import shared
from tests.photos.pictures import jpeg
from tournament.models import AuditEntry, Match, Participant, PrintJob, Role, Seat, TournamentRole
from tournament.permissions import DirectorRequiredMixin, ScoreEntryMixin, TournamentRoleRequiredMixin
from tournament.public.evening import EveningPage
from tournament.public.evening_links import evening_token
from tournament.public.views import PublicPage
from tournament.services.participants import entrants

pytestmark = pytest.mark.django_db

#: The pages an assistant may open: entering and reading results, never changing the tournament.
#: Kept by hand on purpose: a director page given the wrong access mixin must fail here.
ASSISTANT_PAGES = {
    "tournament:detail",
    "tournament:voms:overview", "tournament:voms:schedule", "tournament:voms:enter", "tournament:voms:standings",
    "tournament:voms:series",
    "tournament:schafkopf:overview", "tournament:schafkopf:round", "tournament:schafkopf:sheet",
    "tournament:schafkopf:history", "tournament:schafkopf:still_missing", "tournament:schafkopf:close_problem",
    "tournament:tablegames:overview", "tournament:tablegames:round", "tournament:tablegames:sheet",
    "tournament:tablegames:still_missing", "tournament:tablegames:close_problem", "tournament:voms:close_problem",
    "tournament:voms:board", "tournament:voms:board_part", "tournament:schafkopf:board",
    "tournament:schafkopf:board_part", "tournament:tablegames:board", "tournament:tablegames:board_part",
    "tournament:sheet_photo",
}

ROLES = ("anonymous", "public", "assistant", "other_director", "director")
SMALL = {"--teams": 6, "--pools": 1, "--players": 16}


def walk(patterns, prefix="", namespace=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = namespace + (f"{p.namespace}:" if p.namespace else "")
            yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern) and p.name:
            yield prefix + str(p.pattern), namespace + p.name, p


def url_arguments(route: str) -> list[str]:
    return re.findall(r"<(?:\w+:)?(\w+)>", route)


def tournament_patterns():
    for route, name, pattern in walk(get_resolver().url_patterns):
        if "slug" in url_arguments(route):
            yield route, name, pattern


def games_of(name: str) -> set[str] | None:
    """The games whose tournaments have the page `name`; None for pages every tournament has.

    The four table games share one URL module, mounted once (with the first of them), so a
    namespace is looked up in the modules the games' pages live in, not taken for a game's key.
    """
    if name.count(":") != 2:
        return None
    namespace = name.split(":")[1]
    pages = {game.key: game.urlconf() for game in all_games()}
    return {key for key, module in pages.items() if module and getattr(module, "app_name", None) == namespace}


def view_class(pattern):
    return getattr(pattern.callback, "view_class", None)


def access_of(pattern, name: str = "") -> str:
    cls = view_class(pattern)
    if name.startswith("api:"):  # the read-only API (tournament/public/api.py): what the public pages show
        return "public"
    if cls is not None and issubclass(cls, DirectorRequiredMixin):
        return "director"
    if cls is not None and issubclass(cls, ScoreEntryMixin):
        return "entry"
    if cls is not None and issubclass(cls, TournamentRoleRequiredMixin):
        return "entry" if set(cls.allowed_roles) >= {Role.DIRECTOR, Role.ASSISTANT} else "director"
    if cls is not None and issubclass(cls, PublicPage | EveningPage) or pattern.name in ("live", "evening_live"):
        return "public"
    return "unknown"


def demo_options(game):
    options = {"seed": 1, "results": True}
    for flag, kwargs in game.demo_arguments:
        options[flag.lstrip("-").replace("-", "_")] = SMALL.get(flag, kwargs.get("default"))
    return options


def build_world():
    from django.contrib.auth import get_user_model

    from tests.conftest import new_director

    users_model = get_user_model()
    director = new_director("boss")
    tournaments = {game.key: game.demo(director, **demo_options(game)) for game in all_games() if game.offers("demo")}
    assistant = users_model.objects.create_user("helper", password="pw-Helper-1")
    for t in tournaments.values():
        TournamentRole.objects.create(tournament=t, user=assistant, role=Role.ASSISTANT)
        awaiting_confirmation(t, assistant)
    users = {
        "anonymous": None,
        "public": users_model.objects.create_user("visitor", password="pw-Visitor-1"),
        "assistant": assistant,
        "other_director": new_director("stranger"),
        "director": director,
    }
    return tournaments, users


@pytest.fixture(scope="module")
def built(build_once):
    """The demo tournaments of every game are built once for the module's tests (each test's changes are
    rolled back): they are the walk's most expensive part."""
    return build_once(build_world)


@pytest.fixture
def world(request, built):
    return shared(request, built)


def awaiting_confirmation(tournament, user) -> None:
    """Double entry on and a first entry waiting, so the entry pages are walked in that state too."""
    from scoring.models import PendingSheet, ScoreSheet

    tournament.double_entry = True
    tournament.save(update_fields=["double_entry"])
    sheets = ScoreSheet.objects.filter(tournament=tournament)
    sheet = (sheets.filter(table__round__number=1, table__number=1).first()
             or sheets.filter(match__isnull=False).order_by("pk").first())
    if sheet is not None:
        PendingSheet.objects.create(tournament=tournament, match=sheet.match, table=sheet.table, mode=sheet.mode,
                                    entries=sheet.entries, base_version=sheet.version, entered_by=user)
        with_a_photo(tournament, sheet)


def with_a_photo(tournament, sheet) -> None:
    """A table's photo of the sheet's paper, so the photo's address is walked too (scoring/results/photos.py)."""
    made = reencoded(jpeg(80, 60))
    SheetPhoto.objects.create(tournament=tournament, match=sheet.match, table=sheet.table, image=made.image,
                              thumbnail=made.thumbnail, width=made.width, height=made.height, size=len(made.image))


def candidates(tournament, name, converter_names):
    """Values to try for each URL argument; the first that the director can open is used."""
    options = {}
    for arg in converter_names:
        if arg == "slug":
            options[arg] = [tournament.slug]
        elif arg == "match":
            matches = Match.objects.filter(stage__tournament=tournament)
            with_sheet = list(matches.filter(sheet__isnull=False).values_list("pk", flat=True)[:1])
            knockout = list(matches.filter(key__gt="").values_list("pk", flat=True)[:1])
            options[arg] = with_sheet + knockout
        elif arg == "pk":
            players = list(Participant.objects.filter(tournament=tournament).values_list("pk", flat=True)[:1])
            seats = Seat.objects.filter(table__round__stage__tournament=tournament)
            seats = list(seats.values_list("pk", flat=True)[:1])
            options[arg] = players + seats
        elif arg == "entry":
            options[arg] = [entry.pk for entry in entrants(tournament)[:1]]
        elif arg == "team":  # a Voms team's own page (its withdrawal from a round)
            options[arg] = list(tournament.teams.values_list("pk", flat=True)[:1])
        elif arg in ("round", "table"):
            options[arg] = [1]
        elif arg == "part":
            options[arg] = ["1"]
        elif arg == "name":
            documents = game_of(tournament).documents(tournament)
            options[arg] = list(documents)[:1]
        elif arg == "file_format":
            options[arg] = ["pdf"]
        elif arg == "page":
            options[arg] = ["standings"]
        elif arg == "token":  # a player's (a team's) personal page, "my evening"
            options[arg] = [evening_token(tournament, entry) for entry in entrants(tournament)[:1]]
        elif arg == "photo":  # a table's photo of its paper sheet (`with_a_photo`)
            options[arg] = list(SheetPhoto.objects.filter(tournament=tournament).values_list("pk", flat=True)[:1])
        elif arg == "job":  # a print job (the draw queues the rounds' sheets)
            options[arg] = list(PrintJob.objects.filter(tournament=tournament).values_list("pk", flat=True)[:1])
        elif arg == "part":  # the Voms table links: a pool round's, or the knockout's
            options[arg] = ["1", "knockout"]
        else:
            raise AssertionError(f"{name}: no test values for the URL argument {arg!r}")
    keys = list(options)
    for values in itertools.product(*(options[k] for k in keys)):
        yield dict(zip(keys, values, strict=True))


def login(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)


def expected(access, role, status_for_director):
    if access == "public":
        return None
    if role == "anonymous":
        return 302
    return status_for_director if may_open(access, role) else 404


def may_open(access, role) -> bool:
    return role == "director" or (role == "assistant" and access == "entry")


#: the roles a page refuses (may_open false for every access but "public"): the refusal is the access mixin's,
#: decided before any game's code runs, so it is probed on one tournament per page, not on every game's
REFUSED_ROLES = ("anonymous", "public", "other_director")


def clients_by_role(users) -> dict:
    """One logged-in test client per role (a login per request cost a sixth of the walk)."""
    from django.test import Client

    clients = {}
    for role in ROLES:
        clients[role] = Client()
        if users[role] is not None:
            clients[role].force_login(users[role])
    return clients


def test_every_tournament_page_gives_each_role_what_it_may(world):
    """Every tournament page (route) as every role, GET and an empty POST.

    A page's first tournament (in the order of `all_games()`) is walked as all five roles; the same page of the
    other games' tournaments as the director and the assistant, the two roles whose requests reach the game's
    own code (a refused role is turned away by the access mixin before it, the same for every game)."""
    tournaments, users = world
    clients = clients_by_role(users)
    checked, problems = 0, []
    for route, name, pattern in tournament_patterns():
        access = access_of(pattern, name)
        if (access == "entry") != (name in ASSISTANT_PAGES):
            problems.append(f"{name}: assistants {'may' if access == 'entry' else 'may not'} open it; expected "
                            f"{'may' if name in ASSISTANT_PAGES else 'may not'}")
        if access == "unknown":
            problems.append(f"{route}: cannot tell who may open it ({pattern.callback})")
            continue
        games = games_of(name)
        if games == set():
            problems.append(f"{name}: no game has these pages")
        first = True
        for key, tournament in tournaments.items():
            if games is not None and key not in games:
                continue
            url = None
            for kwargs in candidates(tournament, name, url_arguments(route)):
                candidate = reverse(name, kwargs=kwargs)
                director_status = clients["director"].get(candidate).status_code
                if director_status != 404:
                    url = candidate
                    break
            if url is None:
                if access != "public":
                    problems.append(f"{name} ({key}): the director cannot open any tested address")
                continue
            roles = ROLES if first or access == "public" else [r for r in ROLES if r not in REFUSED_ROLES]
            first = False
            for role in roles:
                client = clients[role]
                # the director's GET is the one that found the address
                status = director_status if role == "director" else client.get(url).status_code
                audit_before = AuditEntry.objects.count()
                post_status = client.post(url, {}).status_code
                checked += 1
                if status >= 500 or post_status >= 500:
                    problems.append(f"{url} as {role}: server error {status}/{post_status}")
                want = expected(access, role, director_status)
                if want is not None and status != want:
                    problems.append(f"{url} as {role}: GET {status}, expected {want}")
                refused = access != "public" and not may_open(access, role)
                if refused and post_status not in (302, 404):
                    problems.append(f"{url} as {role}: POST {post_status}, expected a refusal")
                if refused and AuditEntry.objects.count() != audit_before:
                    problems.append(f"{url} as {role}: a refused POST changed something")
    assert not problems, "\n".join(problems)
    assert checked > 100


def test_unpublished_public_pages_answer_404_to_everyone(world):
    tournaments, users = world
    clients = clients_by_role(users)
    for route, name, pattern in tournament_patterns():
        if access_of(pattern, name) != "public":
            continue
        for tournament in tournaments.values():
            kwargs = next(candidates(tournament, name, url_arguments(route)))
            url = reverse(name, kwargs=kwargs)
            for role in ("anonymous", "public", "assistant"):
                assert clients[role].get(url).status_code == 404, (url, role)


@pytest.mark.parametrize("url_name", ["tournament:list", "tournament:create", "tournament:import"])
def test_pages_without_a_tournament(client, world, url_name):
    _tournaments, users = world
    url = reverse(url_name)
    login(client, None)
    assert client.get(url).status_code == 302
    login(client, users["public"])
    # anyone logged in sees their (empty) list; only directors may create or import
    assert client.get(url).status_code == (200 if url_name == "tournament:list" else 403)
    login(client, users["director"])
    assert client.get(url).status_code == 200
