"""Quad-Ominos at the referee table: the points from turns typed as the players noted them ("18 b 12 d")."""

import html

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.games.tablegames import services
from scoring.games.tablegames.forms import read_hand
from scoring.models import ScoreSheet
from scoring.rules.quadominos import SPECS, QuadSettings
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables

pytestmark = pytest.mark.django_db


def sheet_url(tournament):
    return reverse("tournament:tablegames:sheet", args=[tournament.slug, 1, 1])


def quad_post(turns, remaining=("0", "7", "3", "9"), winner="1"):
    data = {"version": "0", "action": "save", "h1-winner": winner}
    data.update({f"h1-turn_points-{seat}": typed for seat, typed in enumerate(turns, start=1)})
    data.update({f"h1-remaining-{seat}": typed for seat, typed in enumerate(remaining, start=1)})
    return data


@pytest.fixture
def quad_game(make_game, add_players, director):
    def make(**rules):
        quad = make_game("quadominos", **rules)
        add_players(quad, 4)
        seated_services.draw_seating(quad, by=director, seed=1)
        return quad

    return make


def stored_turns():
    return ScoreSheet.objects.get(table__round__number=1, table__number=1).entries[0]["turn_points"]


def test_turns_typed_as_noted_are_stored_as_their_points(quad_game, director, client):
    quad = quad_game()
    client.force_login(director)
    response = client.post(sheet_url(quad), quad_post(["18 b 12 d", "-15", "40", "S 20 p"]))
    assert response.status_code == 302
    # 18 + 25 + 12 - 20; plain numbers exactly as before; 20 + 25 (start) - 20 (pass)
    assert stored_turns() == {"1": 35, "2": -15, "3": 40, "4": 25}
    totals = ScoreSheet.objects.get().derived["totals"]
    assert totals["1"] == 35 + 7 + 3 + 9  # the winner's bonus comes on top as before


def test_turns_use_the_tournaments_bonus_and_penalties(quad_game, director, client):
    quad = quad_game(bonus=40, draw_penalty=-5)
    client.force_login(director)
    assert client.post(sheet_url(quad), quad_post(["18 b 12 d", "10", "10", "10"])).status_code == 302
    assert stored_turns()["1"] == 18 + 40 + 12 - 5


def test_an_unreadable_turn_is_refused_with_the_token_and_kept_as_typed(quad_game, director, client):
    quad = quad_game()
    client.force_login(director)
    with translation.override("en"):
        response = client.post(sheet_url(quad), quad_post(["18 b 25 d", "10", "18 x", "10"]))
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "“Points from turns” of seat 1: “25” cannot be the sum of one tile: a tile holds at most 20." in page
    assert "“Points from turns” of seat 3: “x” cannot be read in the points from turns." in page
    assert 'name="h1-turn_points-1" value="18 b 25 d"' in page
    assert not ScoreSheet.objects.exists()


def test_the_entry_page_legend_says_the_notation(quad_game, director, client):
    quad = quad_game()
    client.force_login(director)
    with translation.override("en"):
        page = html.unescape(client.get(sheet_url(quad)).content.decode())
    assert "Points from turns (a number, or the turns: tile sums, s start bonus, b bonus, d tile drawn" in page


def test_the_service_scores_a_noted_hand_like_its_number(quad_game, director):
    """What the page stores is what a number would have stored: the rules and the standings see no difference."""
    quad = quad_game()
    table = seated_tables(quad)[1][0].seats[0].table
    grid = read_hand(quad_post(["18 b 12 d", "35", "0", "0"]), SPECS["quadominos"], [1, 2, 3, 4], 1,
                     QuadSettings())
    assert not grid.errors and grid.row["turn_points"] == {"1": 35, "2": 35, "3": 0, "4": 0}
    sheet = services.enter_sheet(table, by=director, entries=[grid.row])
    assert sheet.derived["totals"]["1"] == sheet.derived["totals"]["2"] + 19


def test_other_games_keep_refusing_letters_in_numbers(domino_of_four, director, client):
    domino = domino_of_four
    client.force_login(director)
    data = {"version": "0", "h1-out": "1", "h1-pips-1": "0", "h1-pips-2": "12 b", "h1-pips-3": "4", "h1-pips-4": "2"}
    with translation.override("en"):
        page = html.unescape(client.post(sheet_url(domino), data).content.decode())
    assert "“12 b” is not a whole number" in page
    assert not ScoreSheet.objects.exists()
