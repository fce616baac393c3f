"""The number pad's side of a table game's phone page: the page tells the pad its fields, and `?preview` scores the
hands typed so far with the rules (the points and running totals the pad shows as you tap), storing nothing."""

import json
import re

import pytest
from django.urls import reverse

from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_links, token_of
from tournament.models import AuditEntry, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def token(domino_of_four, director):
    return token_of(issue_links(Round.objects.get(stage__tournament=domino_of_four, number=1), by=director)[0])


def hand(number, out, pips):
    return {f"h{number}-out": str(out), **{f"h{number}-pips-{seat}": str(p) for seat, p in enumerate(pips, 1)}}


def preview(client, token, data):
    response = client.get(reverse("table:entry", args=[token]), {"preview": "1", **data})
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.json()


def test_the_preview_scores_the_hands_typed_so_far_and_stores_nothing(client, token):
    audit = AuditEntry.objects.count()
    answer = preview(client, token, {**hand(1, 1, [0, 10, 20, 30]), "h2-pips-2": "15"})
    first = answer["hands"][0]
    assert first["hand"] == 1 and first["won"] == 1 and first["error"] == ""
    assert first["points"] == {"1": 60, "2": 0, "3": 0, "4": 0}
    assert first["running"] == {"1": "60", "2": "0", "3": "0", "4": "0"}
    assert answer["totals"] == {"1": "60", "2": "0", "3": "0", "4": "0"} and answer["over"] is False
    # the hand being typed: the rules say what is still missing, the pad shows it once the hand is complete
    assert "missing" in answer["hands"][1]["error"]
    assert not PendingSheet.objects.exists() and not ScoreSheet.objects.exists()
    assert AuditEntry.objects.count() == audit


def test_the_preview_names_the_hands_by_the_grids_numbers_and_says_the_game_is_over(client, token):
    answer = preview(client, token, {**hand(2, 1, [0, 10, 20, 30]), **hand(3, 1, [0, 15, 15, 15])})
    assert [h["hand"] for h in answer["hands"]] == [2, 3]
    assert answer["totals"]["1"] == "105" and answer["over"] is True


def test_the_preview_says_the_rules_refusal_of_a_hand(client, token):
    answer = preview(client, token, hand(1, 1, [5, 10, 20, 30]))  # went out with pips in hand
    assert answer["hands"][0]["error"] and answer["hands"][0]["running"] == {}
    answer = preview(client, token, {"h1-pips-1": "x"})  # cannot be read at all
    assert "is not a whole number" in answer["hands"][0]["error"]


def test_the_page_tells_the_pad_the_fields_and_the_players(client, token, domino_of_four):
    page = client.get(reverse("table:entry", args=[token])).content.decode()
    config = json.loads(re.search(r'<script id="entry-config" type="application/json">(.*?)</script>', page).group(1))
    pad = config["pad"]
    assert pad["fields"]["pips"] == {"kind": "int", "name": "Pips left", "optional": False, "seat": True}
    assert pad["fields"]["out"]["kind"] == "player" and pad["fields"]["out"]["optional"] is True
    assert [seat for seat, _name in pad["seats"]] == [1, 2, 3, 4] and pad["hand"] == "Hand %(number)s"
    assert 'id="np"' in page and 'hidden' in page.split('id="np"')[1].split(">")[0]  # shown by its script only
    assert "tablegames/phone.js" in page and "scoring/numpad.js" in page


def test_a_counted_sheet_has_no_pad(client, token, domino_of_four, director):
    from scoring.games.tablegames import services

    url = reverse("table:entry", args=[token])
    client.post(url, {**hand(1, 1, [0, 10, 20, 30]), **hand(2, 1, [0, 15, 15, 15])})
    services.confirm_sheet(PendingSheet.objects.get().table, by=director)
    page = client.get(url).content.decode()
    assert 'id="counted"' in page and 'id="np"' not in page and "tablegames/phone.js" not in page
