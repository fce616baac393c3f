"""Numbers below what a field takes: our own words (not Django's "Ensure this value is greater than or equal
to"), and a negative number called negative (not "“-3” is not a whole number")."""

import html

import pytest
from django.urls import reverse

from tests.tablegames.conftest import add_players as tg_add_players  # noqa: F401
from tests.tablegames.conftest import make_game  # noqa: F401
from tests.voms.drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def test_table_0_and_round_0_of_a_voms_slip_say_how_they_are_numbered(client, drawn, director):
    client.force_login(director)
    target = reverse("tournament:voms:enter", args=[drawn.slug])
    page = text_of(client.post(target, {"round": "1", "table": "0", "lus_a": "9", "lus_b": "4"}))
    assert "There is no table 0: the tables are numbered from 1." in page
    assert "Ensure this value" not in page
    page = text_of(client.post(target, {"round": "0", "table": "1", "lus_a": "9", "lus_b": "4"}))
    assert "There is no round 0: the rounds are numbered from 1." in page
    assert "Ensure this value" not in page
    page = text_of(client.post(target, {"round": "0", "table": "1", "lus_a": "9", "lus_b": "4"},
                               HTTP_ACCEPT_LANGUAGE="de"))
    assert "Es gibt keine Runde 0: Die Runden sind ab 1 nummeriert." in page


def test_a_fixed_table_0_says_how_the_tables_are_numbered(director, make_tournament, client):
    from tournament.services.participants import add_participant

    schafkopf = make_tournament(director, name="Schafkopf", game="schafkopf")
    player = add_participant(schafkopf, by=director, first_name="Anna", last_name="Huber")
    client.force_login(director)
    target = reverse("tournament:schafkopf:fixed_table", args=[schafkopf.slug, player.pk])
    page = text_of(client.post(target, {"table": "0"}))
    assert "There is no table 0: the tables are numbered from 1." in page and "Ensure this value" not in page


def test_negative_tiles_left_are_called_negative(make_game, tg_add_players, director, client):  # noqa: F811
    patience = make_game("domino_patience", "knock_out")
    tg_add_players(patience, 3)
    client.force_login(director)
    client.post(reverse("tournament:tablegames:seating", args=[patience.slug]), {})
    target = reverse("tournament:tablegames:sheet", args=[patience.slug, 1, 1])
    page = text_of(client.post(target, {"version": "0", "r1-tiles_left": "-3", "r2-tiles_left": "4",
                                        "r3-tiles_left": "0"}))
    assert "Tiles left cannot be negative (“-3”)" in page and "is not a whole number" not in page
