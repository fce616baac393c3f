"""Entry forms after an error: the limit of an over-long number, and the focus on the field in error."""

import html
import json
import re

import pytest
from django.urls import reverse

from scoring.seated import services as seated_services
from tests.tablegames.conftest import add_players as tg_add_players  # noqa: F401
from tests.tablegames.conftest import make_game  # noqa: F401, F811

pytestmark = pytest.mark.django_db


def sk_url(tournament, *args):
    return reverse("tournament:schafkopf:sheet", args=[tournament.slug, *args])


def entry_config(page: str) -> dict:
    return json.loads(re.search(r'<script id="entry-config" type="application/json">(.*?)</script>', page, re.S)[1])


def test_an_over_long_schafkopf_total_says_the_limit_and_gets_the_focus(drawn, director, client):
    client.force_login(director)
    data = {"mode": "totals", "version": "0", "total1": "12", "total2": "123456789", "total3": "-4", "total4": "-7"}
    page = html.unescape(client.post(sk_url(drawn, 1, 1), data).content.decode())
    assert "Enter a number of at most 9999999." in page and "Enter a whole number" not in page
    assert entry_config(page)["focus"] == "total2"


def test_an_incomplete_schafkopf_list_puts_the_focus_on_the_first_empty_row(drawn, director, client, a_list):
    client.force_login(director)
    data = {"mode": "games", "version": "0"}
    for number, game in enumerate(a_list(30, 4)[:12], start=1):
        letters = {"ruf": "R", "solo": "S", "wenz": "W", "farbwenz": "F"}
        data.update({f"t{number}": letters.get(game["game_type"], "S"), f"d{number}": str(game["declarer"]),
                     f"p{number}": "" if game["partner"] is None else str(game["partner"]),
                     f"r{number}": "+" if game["won"] else "-",
                     f"x{number}": "Z" if game["schwarz"] else "S" if game["schneider"] else "",
                     f"i{number}": game.get("tout_initials", "")})
    page = html.unescape(client.post(sk_url(drawn, 1, 1), data).content.decode())
    assert "The list has 12 games, but this table plays 30" in page
    assert entry_config(page)["focus"] == "t13"


@pytest.fixture
def first_domino_hand(make_game, tg_add_players, director, client):  # noqa: F811
    """A drawn domino tournament of 4; `post(data)` posts the first hand of table 1 in round 1 as the director
    and returns the page."""

    domino = make_game("domino")
    tg_add_players(domino, 4)
    seated_services.draw_seating(domino, by=director, seed=1)
    client.force_login(director)
    target = reverse("tournament:tablegames:sheet", args=[domino.slug, 1, 1])
    return lambda data: html.unescape(client.post(target, {"version": "0", **data}).content.decode())


def test_an_over_long_table_game_number_says_the_limit_and_gets_the_focus(first_domino_hand):
    page = first_domino_hand({"h1-out": "1", "h1-pips-1": "0", "h1-pips-2": "123456789012", "h1-pips-3": "4",
                              "h1-pips-4": "2"})
    assert "at most 9999999" in page and "is not a whole number" not in page
    field = re.search(r'<input name="h1-pips-2"[^>]*>', page)[0]
    assert 'aria-invalid="true"' in field and "autofocus" in field
    assert "autofocus" not in re.search(r'<input name="h1-out"[^>]*>', page)[0]


@pytest.mark.parametrize("wrong", ["h1-pips-2", "h1-pips-4"])
def test_a_hand_with_an_empty_field_puts_the_focus_on_that_field(first_domino_hand, wrong):
    # the page said "“Pips left” is missing for Ida2 Holm2" and put the focus on the row's first field
    page = first_domino_hand({"h1-out": "1", "h1-pips-1": "0", "h1-pips-2": "7", "h1-pips-3": "4",
                              "h1-pips-4": "2", wrong: ""})
    field = re.search(rf'<input name="{wrong}"[^>]*>', page)[0]
    assert 'aria-invalid="true"' in field and "autofocus" in field
    assert "autofocus" not in re.search(r'<input name="h1-out"[^>]*>', page)[0]
