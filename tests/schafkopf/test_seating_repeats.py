"""The seating page tells the director, before printing, who meets a table-mate again and whether that is
unavoidable (tournament.services.seating.meeting_again)."""

from dataclasses import replace
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from scoring.games.schafkopf.config import settings_of
from scoring.seated import services as seated_services
from tournament.queries import seated_tables
from tournament.services.seating import meeting_again

pytestmark = pytest.mark.django_db


def seating_page(client, tournament, language="en"):
    url = reverse("tournament:schafkopf:seating", args=[tournament.slug])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def three_rounds(tournament, director):
    seated_services.update_settings(tournament, replace(settings_of(tournament), rounds=3), by=director)


def test_17_players_in_3_rounds_the_page_names_the_pair_and_says_it_is_unavoidable(
        schafkopf, director, client, add_players):
    add_players(schafkopf, 17)
    three_rounds(schafkopf, director)
    seated_services.draw_seating(schafkopf, by=director, seed=11)
    again = meeting_again(seated_tables(schafkopf))
    assert again["count"] == again["fewest"] == 2 and again["unavoidable"]
    ((first, second, times),) = again["pairs"]
    assert times == 3 and first.number < second.number
    client.force_login(director)
    page = seating_page(client, schafkopf)
    assert f"{first.number} {first.name} – {second.number} {second.name} (3 rounds)" in page
    assert "Unavoidable: no draw at tables of these sizes over these rounds has fewer." in page
    page = seating_page(client, schafkopf, "de")
    assert "(3 Runden)" in page and "Unvermeidlich" in page


def fake_tables(rounds):
    """{round: tables} as `seated_tables` gives them, from rounds of tables of participant numbers."""
    people = {n: SimpleNamespace(pk=100 + n, number=n, name=f"P{n}") for r in rounds for t in r for n in t}
    return {r: [SimpleNamespace(seats=[SimpleNamespace(participant=people[n]) for n in table]) for table in tables]
            for r, tables in enumerate(rounds, start=1)}


def test_more_repeats_than_the_floor_say_another_seed_may_have_fewer():
    # 8 players at two 4-tables: any two rounds share at least 4 pairs (2 + 2), here 6.
    tables = fake_tables([[(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 2, 3, 5), (4, 6, 7, 8)]])
    again = meeting_again(tables)
    assert again["count"] == 6 and again["fewest"] == 4 and not again["unavoidable"]
    assert [(a.number, b.number, times) for a, b, times in again["pairs"]][:2] == [(1, 2, 2), (1, 3, 2)]
    html = render_to_string("includes/meeting_again.html", {"again": again})
    assert "At least 4 are unavoidable at tables of these sizes; a draw with another seed may have fewer." in html
    with translation.override("da"):
        assert "Mindst 4 er uundgåelige" in render_to_string("includes/meeting_again.html", {"again": again})
    fair = meeting_again(fake_tables([[(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 2, 5, 6), (3, 4, 7, 8)]]))
    assert fair["count"] == fair["fewest"] == 4 and fair["unavoidable"]


def test_nobody_meeting_again_shows_nothing(drawn, director, client):
    assert meeting_again(seated_tables(drawn)) is None
    client.force_login(director)
    assert 'id="meeting-again"' not in seating_page(client, drawn)
