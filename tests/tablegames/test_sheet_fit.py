"""A score sheet fits on its page whatever the table's size and the number of hands: the hands' rows give way."""

import io

import pytest
from pypdf import PdfReader

from documents import render
from scoring.games.tablegames.documents import HAND_ROW_MAX, HAND_ROW_MIN, documents, hand_row_height
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.pdf_text import page_texts

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("game", "variant", "players", "rules"), [
    ("domino", None, 11, {}),  # tables of 3 and 4, 15 hands
    ("domino", None, 8, {"max_hands": 20}),  # more hands than the usual sheet
    ("quadominos", None, 10, {}),  # tables of 5
    ("rummi", None, 12, {}),
])
def test_every_table_gets_one_page_with_its_signatures(make_game, add_players, director, game, variant, players,
                                                       rules):
    tournament = make_game(game, variant, **rules)
    add_players(tournament, players)
    seated_services.draw_seating(tournament, by=director, seed=3)
    data = render(documents(tournament)["score-sheets-1"](), "pdf", tournament=tournament)
    pages = page_texts(data)
    tables = seated_tables(tournament)[1]
    assert len(pages) == len(tables)
    for text, table in zip(pages, tables, strict=True):
        last = table.seats[-1].participant.name
        assert text.count(last) >= 2, "the last seat's name in the head and under its signature line, same page"


def test_hand_rows_shrink_to_fit_and_stay_writable():
    assert hand_row_height(2, 12) == HAND_ROW_MAX
    assert hand_row_height(5, 15) < HAND_ROW_MAX
    assert hand_row_height(8, 40) == HAND_ROW_MIN
    for players in range(2, 9):
        for hands in range(1, 25):
            height = hand_row_height(players, hands)
            assert HAND_ROW_MIN <= height <= HAND_ROW_MAX


def test_a_long_club_keeps_its_table_on_one_page(make_game, add_players, director):
    # a club of two lines pushed the last row of signatures onto a page of its own
    from tournament.services.participants import add_participant

    tournament = make_game("quadominos")
    add_players(tournament, 3)
    add_participant(tournament, by=director, number=4, first_name="Erik", last_name="Nielsen-Bøgh",
                    club="Dansk Quad-Ominos Klub Nordvestsjælland og Omegn")
    seated_services.draw_seating(tournament, by=director, seed=3)
    data = render(documents(tournament)["score-sheets-1"](), "pdf", tournament=tournament)
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
