"""Once a substitute plays a seat, the printouts of that round name him, and the substitute page says what to print
again (issue 25: round 2's score list still named the player who had gone home)."""

import re

import pytest
from django.urls import reverse

from documents import render
from scoring.games.schafkopf.documents import documents
from scoring.seated import services as seated_services
from tests.pdf_text import page_texts
from tournament.models import Participant, Seat
from tournament.services.participants import set_participant_status

pytestmark = pytest.mark.django_db


def pdf_pages(tournament, name) -> list[str]:
    return [" ".join(text.split()) for text in page_texts(render(documents(tournament)[name](), "pdf",
                                                                  tournament=tournament))]


@pytest.fixture
def replaced(drawn, director, add_players):
    """Player 3 goes home after round 1; 40 plays his round-2 seat."""
    (late,) = add_players(drawn, 1, start=40)
    gone = drawn.participants.get(number=3)
    set_participant_status(gone, Participant.Status.WITHDRAWN, by=director)
    seat = Seat.objects.select_related("table").get(participant=gone, table__round__number=2)
    seated_services.set_substitute(seat, late, by=director)
    return seat, gone, late


def test_score_list_of_his_round_names_the_substitute(replaced):
    seat, gone, late = replaced
    tournament = gone.tournament
    page = next(text for text in pdf_pages(tournament, "score-lists-2") if f"table {seat.table.number}" in text)
    assert f"No. 40 · {late.name} (for no. 3)" in page and f"Seat {seat.number}: {late.name}" in page
    assert gone.name not in page
    # round 1, which he played, still names him
    first = Seat.objects.select_related("table").get(participant=gone, table__round__number=1)
    page = next(text for text in pdf_pages(tournament, "score-lists-1") if f"table {first.table.number}" in text)
    assert f"No. 3 · {gone.name}" in page


def test_table_card_and_participant_cards_name_the_substitute(replaced):
    seat, gone, late = replaced
    tournament = gone.tournament
    card = next(text for text in pdf_pages(tournament, "table-cards")
                if re.search(rf"^Table {seat.table.number} ", text))
    round_two = card[card.index("Round 2"):]
    assert f"40 {late.name} for no. 3" in round_two and gone.name not in round_two
    cards = " ".join(pdf_pages(tournament, "participant-cards"))
    mine = cards[cards.index(gone.name):]
    assert re.match(rf"{gone.name} Round Table Seat 1 \d+ \d+( scribe)? 2 played by 40 {late.name}", mine), mine[:120]


def test_substitute_page_says_what_to_print_again(client, director, drawn, add_players):
    (late,) = add_players(drawn, 1, start=40)
    seat = Seat.objects.select_related("table", "participant").get(participant__number=3, table__round__number=2)
    client.force_login(director)
    address = reverse("tournament:schafkopf:substitute", args=[drawn.slug, seat.pk])
    page = client.get(address).content.decode()
    table = seat.table.number
    assert f"The score list of round 2, table {table}" in page and f"The table card of table {table}" in page
    assert "score-lists-2.pdf" in page
    response = client.post(address, {"substitute": late.pk, "reason": "went home"}, follow=True)
    text = response.content.decode()
    assert (f"Changes saved. Print again: the score list of round 2, table {table}; the table card of table {table}; "
            f"the participant cards of 3 {seat.participant.name}, 40 {late.name}; the seating by table (round 2); "
            "the seating by name.") in text
    assert response.redirect_chain[-1][0].endswith("#round-2")
