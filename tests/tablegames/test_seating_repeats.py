"""The table games' seating page names who meets a table-mate again and whether fewer were possible."""

import pytest
from django.urls import reverse

from tournament.queries import seated_tables
from tournament.services.seating import meeting_again

pytestmark = pytest.mark.django_db


def test_8_rummi_players_in_3_rounds_see_who_meets_again(rummi, add_players, director, client):
    add_players(rummi, 8)  # two tables of 4: any two rounds share at least 4 pairs, 8 repeats in 3 rounds
    client.force_login(director)
    seating_url = reverse("tournament:tablegames:seating", args=[rummi.slug])
    assert client.post(seating_url, {"seed": "42"}).status_code == 302
    again = meeting_again(seated_tables(rummi))
    assert again["fewest"] == 8 and again["count"] >= 8
    page = client.get(seating_url).content.decode()
    assert 'id="meeting-again"' in page and "Who meets a table-mate again" in page
    first, second, times = again["pairs"][0]
    assert f"{first.number} {first.name} – {second.number} {second.name} ({times} rounds)" in page
    if again["unavoidable"]:
        assert "Unavoidable: no draw at tables of these sizes over these rounds has fewer." in page
    else:
        assert "At least 8 are unavoidable at tables of these sizes" in page
