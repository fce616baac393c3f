"""The Table links page of a big seated tournament: SQLite (the laptop default) answers it, in a fixed number
of queries whatever the number of players (it was a 500 from 1,000 players on: "Expression tree is too large")."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import TableLink
from scoring.results.links import new_token_for
from tournament.models import Participant, Round, Seat, Stage, Table

pytestmark = pytest.mark.django_db


def seat_players(tournament, players: int) -> Round:
    """`players` players at tables of four in round 1, made in a few bulk inserts (the page only reads them)."""
    stage = Stage.objects.create(tournament=tournament, kind=Stage.Kind.ROUNDS)
    round_ = Round.objects.create(stage=stage, number=1)
    Participant.objects.bulk_create(
        Participant(tournament=tournament, number=n, first_name=f"Anna{n}", last_name=f"Huber{n}")
        for n in range(1, players + 1))
    Table.objects.bulk_create(Table(round=round_, number=n) for n in range(1, players // 4 + 1))
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    people = Participant.objects.filter(tournament=tournament).order_by("number")
    Seat.objects.bulk_create(Seat(table=tables[i // 4], number=i % 4 + 1, participant=person)
                             for i, person in enumerate(people))
    return round_


def give_links(round_, tables: int) -> None:
    """Links for the round's first `tables` tables (each link shown draws its QR code: a few keep the test quick)."""
    links = []
    for table in Table.objects.filter(round=round_).order_by("number")[:tables]:
        link = TableLink(tournament=round_.stage.tournament, table=table)
        new_token_for(link)
        links.append(link)
    TableLink.objects.bulk_create(links)


def open_links_page(client, tournament):
    """The page's answer and the number of queries it took."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("tournament:schafkopf:links", args=[tournament.slug, 1]))
    return response, len(queries)


def test_the_links_page_of_2000_players_opens_in_as_many_queries_as_for_8(client, director, make_tournament):
    client.force_login(director)
    pages, tournaments = {}, {}
    for players in (8, 2000):
        tournaments[players] = make_tournament(director, name=f"Evening of {players}", game="schafkopf")
        give_links(seat_players(tournaments[players], players), tables=2)
    open_links_page(client, tournaments[8])  # a session's first request reads more (the session, the user)
    for players, tournament in tournaments.items():
        pages[players] = open_links_page(client, tournament)
    (small, small_queries), (big, big_queries) = pages[8], pages[2000]
    assert small.status_code == 200 and big.status_code == 200
    text = big.content.decode()
    assert text.count('<tr id="table-') == 500 and text.count('class="tl-url"') == 2
    assert "1: 1997 Huber1997" in text and "4: 2000 Huber2000" in text  # the last table's players, by seat
    assert big_queries == small_queries
