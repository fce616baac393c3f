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
