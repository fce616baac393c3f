"""The seating page before any draw, the redraw confirmation and the 5-table line of the draw summary."""

import pytest
from django.urls import reverse

from scoring.games.schafkopf import services
from scoring.seated import services as seated_services
from tournament.models import Draw, Participant, Seat, Table

pytestmark = pytest.mark.django_db


def url(tournament, name, *args):
    return reverse(f"tournament:schafkopf:{name}", args=[tournament.slug, *args])


def test_before_any_draw_the_page_invites_to_draw_instead_of_listing_everyone_as_an_error(
        schafkopf, director, client, add_players):
    add_players(schafkopf, 13)
    client.force_login(director)
    page = client.get(url(schafkopf, "seating")).content.decode()
    assert 'id="seating-invitation"' in page and "13 players are registered" in page
    assert "Registered but not seated" not in page and 'class="error"' not in page


def test_redoing_the_draw_asks_first(schafkopf, director, client, add_players):
    add_players(schafkopf, 16)
    client.force_login(director)
    assert client.post(url(schafkopf, "seating"), {"seed": "42"}).status_code == 302  # the first draw: no question
    asked = client.post(url(schafkopf, "seating"), {"seed": "43"})
    assert asked.status_code == 200 and "Redo the seating draw?" in asked.content.decode()
    assert Draw.objects.filter(tournament=schafkopf, kind=Draw.Kind.SEATING).latest().seed == 42
    assert client.post(url(schafkopf, "seating"), {"seed": "43", "confirmed": "1"}).status_code == 302
    assert Draw.objects.filter(tournament=schafkopf, kind=Draw.Kind.SEATING).latest().seed == 43


def test_the_summary_names_who_sits_at_a_table_of_five_twice(schafkopf, director, client, add_players):
    players = add_players(schafkopf, 17)  # four tables, one of 5: 20 seats there over 4 rounds for 17 players
    schafkopf.settings = {**schafkopf.settings, "rounds": 4}
    schafkopf.save()
    draw = seated_services.draw_seating(schafkopf, by=director, seed=3)
    twice = draw.params["large_table_twice"]
    assert twice  # 20 seats at the 5-table for 17 players: someone sits there twice
    client.force_login(director)
    page = client.get(url(schafkopf, "seating")).content.decode()
    assert "At a table of 5 in more than one round" in page
    by_number = {p.number: p for p in players}
    for number in twice:
        assert by_number[int(number)].name in page.split('id="large-table-twice"')[1].split("</dd>")[0]


def test_the_summary_says_nobody_when_the_five_tables_are_shared(schafkopf, director, client, add_players):
    add_players(schafkopf, 37)
    draw = seated_services.draw_seating(schafkopf, by=director, seed=5)
    assert draw.params["large_table_twice"] == {}
    client.force_login(director)
    page = client.get(url(schafkopf, "seating")).content.decode()
    assert "nobody" in page.split('id="large-table-twice"')[1].split("</dd>")[0]


def test_a_substitute_on_the_seat_of_a_withdrawn_player_settles_both_warnings(
        schafkopf, director, client, add_players, a_list):
    """A player goes home after round 1 and a late-comer plays his round-2 seat: the page no longer asks to seat
    the late-comer nor to put a substitute on the seat (it asked before the substitute was set)."""

    add_players(schafkopf, 16)
    seated_services.draw_seating(schafkopf, by=director, seed=7)
    for table in Table.objects.filter(round__stage__tournament=schafkopf, round__number=1):
        services.enter_sheet(table, by=director, mode="games", entries=a_list(seed=table.number))
    seat = Seat.objects.select_related("participant").get(
        table__round__stage__tournament=schafkopf, table__round__number=2, table__number=1, number=4)
    gone = seat.participant
    gone.status = Participant.Status.WITHDRAWN
    gone.save()
    (late,) = add_players(schafkopf, 1, start=40)
    client.force_login(director)
    page = client.get(url(schafkopf, "seating")).content.decode()
    assert "Registered but not seated" in page and "Withdrawn but seated" in page
    seated_services.set_substitute(seat, late, by=director, reason="went home")
    page = client.get(url(schafkopf, "seating")).content.decode()
    assert "Registered but not seated" not in page and "Withdrawn but seated" not in page


def test_the_withdrawn_notice_names_only_the_rounds_still_to_play(schafkopf, director, client, add_players, a_list):
    """A player goes home during round 1: the red notice named him without saying which seats need a
    substitute; once his round-1 list is in, only round 2 is left to fill."""
    add_players(schafkopf, 16)
    seated_services.draw_seating(schafkopf, by=director, seed=7)
    seat = Seat.objects.select_related("participant", "table").get(
        table__round__stage__tournament=schafkopf, table__round__number=1, table__number=1, number=4)
    gone = seat.participant
    other = Table.objects.get(round__stage__tournament=schafkopf, round__number=1, number=2)
    services.enter_sheet(other, by=director, mode="games", entries=a_list(seed=2))  # play has started
    gone.status = Participant.Status.WITHDRAWN
    gone.save()
    client.force_login(director)
    page = client.get(url(schafkopf, "seating")).content.decode()
    later = Seat.objects.select_related("table").get(participant=gone, table__round__number=2)

    def link(seat_):
        return (f'<a href="{url(schafkopf, "substitute", seat_.pk)}">round {seat_.table.round.number}, '
                f'table {seat_.table.number}, seat {seat_.number}</a>')

    # each round still to play links to the seat that needs a substitute
    assert (f"Withdrawn but seated: {gone.number} {gone.name} ({link(seat)}; {link(later)}). "
            "Put substitutes on their seats.") in page
    services.enter_sheet(seat.table, by=director, mode="games", entries=a_list(seed=1))
    page = client.get(url(schafkopf, "seating")).content.decode()
    assert f"Withdrawn but seated: {gone.number} {gone.name} ({link(later)}). Put substitutes on their seats." in page


def test_the_page_opens_on_the_round_to_play_and_offers_substitutes_only_there(schafkopf, director, client,
                                                                             add_players, a_list):
    """Once round 1's lists are in, the page opens round 2 (not round 1) and offers no substitute for a seat
    already played."""
    import re

    add_players(schafkopf, 16)
    seated_services.draw_seating(schafkopf, by=director, seed=7)
    for table in Table.objects.filter(round__stage__tournament=schafkopf, round__number=1):
        services.enter_sheet(table, by=director, mode="games", entries=a_list(seed=table.number))
    client.force_login(director)
    page = client.get(url(schafkopf, "seating")).content.decode()
    opened = re.findall(r'<details class="seated-round" id="round-(\d+)"( open)?>', page)
    assert opened == [("1", ""), ("2", " open")]
    played = Seat.objects.filter(table__round__stage__tournament=schafkopf, table__round__number=1)
    to_play = Seat.objects.filter(table__round__stage__tournament=schafkopf, table__round__number=2)
    assert not any(url(schafkopf, "substitute", seat.pk) in page for seat in played)
    assert all(url(schafkopf, "substitute", seat.pk) in page for seat in to_play)
