import dataclasses

import pytest

from scoring.games.tablegames.config import defaults_for, settings_of
from scoring.games.tablegames.family import game_by_key
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.browser.conftest import browser, page  # noqa: F401  (real-browser fixtures)
from tests.conftest import new_tournament
from tournament.models import Role, TournamentRole
from tournament.services.participants import add_participant


@pytest.fixture
def make_game(director, make_tournament):
    """A tournament of a table game, with a variant and rule numbers of the test's choosing."""

    def make(key="rummi", variant=None, *, rounds=None, name=None, **rules):
        return new_game(director, key, variant, rounds=rounds, name=name, **rules)

    return make


def new_game(director, key="rummi", variant=None, *, rounds=None, name=None, **rules):
    """`make_game` without the fixture, for build_once."""
    tournament = new_tournament(director, name=name or f"{key} night", game=key)
    game = game_by_key(key)
    chosen = defaults_for(game, variant or game.default_variant)
    changes = {"rules": dataclasses.replace(chosen.rules, **rules)}
    if rounds is not None:
        changes["rounds"] = rounds
    seated_services.update_settings(tournament, dataclasses.replace(chosen, **changes), by=director)
    return tournament


@pytest.fixture
def add_players(director):
    """Register `count` players numbered from `start`."""

    def add(tournament, count, *, start=1, groups=()):
        return register_players(tournament, director, count, start=start, groups=groups)

    return add


def register_players(tournament, director, count, *, start=1, groups=()):
    return [
        add_participant(tournament, by=director, number=number, first_name=f"Ida{number}",
                        last_name=f"Holm{number}", group=groups[i] if i < len(groups) else "")
        for i, number in enumerate(range(start, start + count))
    ]


@pytest.fixture
def domino_of_four(director, db):
    """Almindelig domino, four players at one table, drawn with a fixed seed."""
    return new_domino_of_four(director)


def new_domino_of_four(director):
    domino = new_game(director, "domino")
    register_players(domino, director, 4)
    seated_services.draw_seating(domino, by=director, seed=1)
    return domino


@pytest.fixture
def rummi(make_game):
    return make_game("rummi")


@pytest.fixture
def drawn(rummi, director, add_players):
    """Rummi with twelve players: three tables of four, three rounds, drawn with a fixed seed."""
    return draw_twelve(rummi, director)


def draw_twelve(rummi, director):
    register_players(rummi, director, 12)
    seated_services.draw_seating(rummi, by=director, seed=7)
    return rummi


@pytest.fixture
def tg_assistant(db, django_user_model, drawn):
    user = django_user_model.objects.create_user(username="helper", password="pw-Helper-1")
    TournamentRole.objects.create(tournament=drawn, user=user, role=Role.ASSISTANT)
    return user


@pytest.fixture
def table_of():
    """The stored Table of round `round_number`, table `number`, and its SeatedTable."""

    def find(tournament, round_number=1, number=1):
        seated = next(t for t in seated_tables(tournament)[round_number] if t.number == number)
        return seated.seats[0].table, seated

    return find


@pytest.fixture
def settings_for():
    return settings_of
