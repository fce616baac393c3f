"""Two clubs on one server (issue 26): each with an admin, a director, a tournament, a season and a register entry
with a private contact."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import pytest

from tests.browser.conftest import browser, page  # noqa: F401  (real-browser fixtures)

CONTACTS = {"a": "0171 555 0001 private-of-a", "b": "0171 555 0002 private-of-b"}


def new_member(club, username: str, role: str = "director"):
    from django.contrib.auth import get_user_model

    from tournament.models import Membership

    user = get_user_model().objects.create_user(username=username, password=f"pw-{username}-1")
    Membership.objects.create(organisation=club, user=user, role=role)
    return user


def club_world(key: str, name: str):
    from tournament.models import Organisation
    from tournament.services.register import create_person
    from tournament.services.seasons import add_evening, create_season
    from tournament.services.tournaments import create_tournament

    club = Organisation.objects.create(name=name)
    admin = new_member(club, f"admin_{key}", "admin")
    director = new_member(club, f"director_{key}")
    tournament = create_tournament(by=director, name=f"Evening {key.upper()}", game="schafkopf",
                                   date=datetime.date(2026, 3, 1))
    season = create_season(by=director, name=f"Season {key.upper()}", game="schafkopf", place_points=["3", "2", "1"])
    add_evening(season, tournament, by=director)
    person = create_person(by=director, first_name="Anna", last_name="Huber", club="SK Au", contact=CONTACTS[key])
    return SimpleNamespace(club=club, admin=admin, director=director, tournament=tournament, season=season,
                           person=person, contact=CONTACTS[key])


@pytest.fixture
def clubs(db):
    """Club A and club B, each with its admin, director, tournament (an evening of its season) and register entry."""
    return SimpleNamespace(a=club_world("a", "SK Isartal"), b=club_world("b", "TC Moosach"))


def played_evening(world, day: int, names: list[str], *, seed: int = 1):
    """A Schafkopf evening of the club `world` (its director), its players (first and last name split at the space)
    registered, seated and every list entered: a final evening."""
    import random

    from scoring.games.schafkopf.demo import enter_random_results
    from scoring.seated import services as seated_services
    from tournament.services.participants import add_participant
    from tournament.services.tournaments import create_tournament

    tournament = create_tournament(by=world.director, name=f"{world.club.name} {day}", game="schafkopf",
                                   date=datetime.date(2026, 4, day))
    for name in names:
        first, last = name.split(" ")
        add_participant(tournament, by=world.director, first_name=first, last_name=last, club=world.club.name)
    seated_services.draw_seating(tournament, by=world.director, seed=seed)
    enter_random_results(tournament, world.director, random.Random(seed))
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def federation(clubs):
    """Club A and club B in one federation, whose admin (`fed_admin`) belongs to no club; a third club C outside."""
    from django.contrib.auth import get_user_model

    from tournament.services.federation import create_federation

    admin = get_user_model().objects.create_user(username="fed_admin", password="pw-fed_admin-1")
    clubs.federation = create_federation("Bayerischer Schafkopfverband", admin=admin,
                                         clubs=[clubs.a.club, clubs.b.club])
    clubs.fed_admin = admin
    return clubs
