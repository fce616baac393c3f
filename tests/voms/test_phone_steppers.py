"""The steppers' side of a Voms slip on the phone: `?preview` values the lus as the rules do (2, 2.5 or 1.5 for the
winner) or says the rules' refusal, storing nothing; the page carries the steppers and their bound."""

import pytest
from django.urls import reverse

from scoring.models import PendingSheet, ScoreSheet
from scoring.results.links import issue_match_links, token_of
from tournament.models import AuditEntry, Match

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def url(drawn, director):
    match = Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False).first()
    return reverse("table:entry", args=[token_of(issue_match_links(drawn, [match], by=director)[0])])


def preview(client, url, **lus):
    response = client.get(url, {"preview": "1", **{f"g1-{key}": value for key, value in lus.items()}})
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.json()["games"]


@pytest.mark.parametrize(("lus_a", "lus_b", "points_a", "points_b"), [
    ("9", "4", "2", "0"), ("0", "9", "0", "2.5"), ("11", "7", "1.5", "0")])
def test_the_preview_gives_the_rules_match_points(client, url, lus_a, lus_b, points_a, points_b):
    audit = AuditEntry.objects.count()
    [game] = preview(client, url, lus_a=lus_a, lus_b=lus_b)
    assert (game["points_a"], game["points_b"], game["error"]) == (points_a, points_b, "")
    assert not PendingSheet.objects.exists() and not ScoreSheet.objects.exists()
    assert AuditEntry.objects.count() == audit


def test_the_preview_says_the_rules_refusal(client, url):
    [game] = preview(client, url, lus_a="9", lus_b="9")
    assert game["error"] and game["points_a"] == ""  # both reached 9: the slip must say who won
    [game] = preview(client, url, lus_a="9", lus_b="9", winner="b")
    assert (game["points_a"], game["points_b"]) == ("0", "2")
    [game] = preview(client, url, lus_a="25", lus_b="3")
    assert "at most 20" in game["error"]
    assert preview(client, url) == []  # nothing typed: no game


def test_the_page_has_steppers_hidden_until_their_script_runs(client, url):
    page = client.get(url).content.decode()
    assert page.count('class="vs-step"') == 4 and page.count("hidden>−</button>") == 2
    assert page.count('class="vs-step vs-nine" data-set="9"') == 2
    assert 'aria-label="One lus more for team A"' in page and '"max_lus": 20' in page
    assert "voms/phone.js" in page and 'id="vs-points-g1"' in page
