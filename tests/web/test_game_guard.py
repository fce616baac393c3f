"""A game's pages refuse the tournaments of other games.

ONE walk over every page of every game's URL module (taken from the game registry, so a game
or page added later is walked too), each opened with a tournament of every other URL module's
games, as that tournament's director: GET and POST (the forms the page shows for its own game,
filled in, and an empty one) must be refused with 404 and change nothing.

One tournament per URL module: the guard (tournament/game_pages.py) refuses a tournament whose game
is not among the module's games, one membership test, the same for each game a module serves (the
four table games share one module), so a second tournament of the same module proves nothing new.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.games import all_games
from tests.conftest import shared
from tests.hostile.harness import changed, forms_on, snapshot
from tests.web.test_permission_walk import candidates, demo_options, url_arguments
from tournament.models import Role, TournamentRole

pytestmark = pytest.mark.django_db


def game_url_modules() -> dict[str, set[str]]:
    """Each game URL module with the games whose tournaments it serves."""
    served: dict[str, set[str]] = {}
    for game in all_games():
        if game.urlconf():
            served.setdefault(game.urlconf(), set()).add(game.key)
    return served


def pages_of(module):
    for pattern in module.urlpatterns:
        # mounted under /manage/<slug>/
        yield f"tournament:{module.app_name}:{pattern.name}", ["slug", *url_arguments(str(pattern.pattern))]


def filled(form) -> dict:
    """The form as a user would send it: the page's values, and some text where the page had none."""
    data = {}
    for name, values in form.fields.items():
        value = next((v for v in values if v), "")
        data[name] = value or ("3" if name.endswith(("number", "round", "table", "points", "score")) else "Ann Smith")
    return data


def build_tournaments():
    from tests.conftest import new_director

    director = new_director("boss")
    # one demo tournament per URL module: its first game with a demo
    firsts = {}
    for game in all_games():
        if game.urlconf() and game.offers("demo"):
            firsts.setdefault(game.urlconf(), game)
    made = {game.key: game.demo(director, **demo_options(game)) for game in firsts.values()}
    # a director of every tournament: the refusal must come from the game, not from a missing role
    for t in made.values():
        TournamentRole.objects.get_or_create(tournament=t, user=director, defaults={"role": Role.DIRECTOR})
    return director, made


@pytest.fixture(scope="module")
def built(build_once):
    """The demo tournaments of every game, built once for the module's tests (each test's changes roll back)."""
    return build_once(build_tournaments)


@pytest.fixture
def tournaments(request, built):
    return shared(request, built)


def test_every_games_pages_refuse_the_tournaments_of_other_games(client, tournaments):
    director, made = tournaments
    client.force_login(director)
    modules = game_url_modules()
    assert set().union(*modules.values()) == {game.key for game in all_games() if game.urlconf()}
    assert all(games & set(made) for games in modules.values()), "a URL module without a tournament"
    before = snapshot()
    problems, refused = [], 0
    for module, games in modules.items():
        own = next(t for key, t in made.items() if key in games)
        victims = [t for key, t in made.items() if key not in games]
        assert victims, module
        for name, arguments in pages_of(module):
            kwargs = next(candidates(own, name, arguments), None)
            if kwargs is None:  # nothing to fill in for the own game (e.g. no match yet): try plain values
                kwargs = {a: own.slug if a == "slug" else 1 for a in arguments}
            own_url = reverse(name, kwargs=kwargs)
            own_page = client.get(own_url)
            posts = [{}]
            if own_page.status_code == 200 and own_page.get("Content-Type", "").startswith("text/html"):
                posts += [filled(f) for f in forms_on(own_page.content.decode(), own_url) if f.url_name == name]
            for victim in victims:
                url = reverse(name, kwargs={**kwargs, "slug": victim.slug})
                answers = [("GET", client.get(url).status_code)]
                answers += [("POST", client.post(url, data).status_code) for data in posts]
                refused += len(answers)
                wrong = [f"{method} {status}" for method, status in answers if status != 404]
                if wrong:
                    problems.append(f"{url} ({victim.game} tournament): {', '.join(wrong)}")
    after = snapshot()
    assert not problems, "\n".join(problems)
    assert not changed(before, after), changed(before, after)
    assert refused > 200


def test_strangers_are_sent_to_the_login_page_first(client, tournaments):
    _director, made = tournaments
    for module, games in game_url_modules().items():
        victim = next(t for key, t in made.items() if key not in games)
        name, arguments = next(pages_of(module))
        url = reverse(name, kwargs={a: victim.slug if a == "slug" else 1 for a in arguments})
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url
