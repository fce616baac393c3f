"""The standings printout of a seated game: the ranking first (what a director hands over), on one A4 page up to
about 40 players, and each round's page provisional while lists of it are missing."""

import random
import re

import pytest

from documents import render
from scoring.games.schafkopf import services
from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.demo import random_list
from scoring.games.schafkopf.documents import documents
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.pdf_text import page_texts

from .conftest import register_players

CLUBS = ["SK Au", "Schafkopffreunde Niederbayern e.V.", "FC Moosach"]


def evening(tournament, director, players: int, *, missing_in_round_2: int = 0):
    register_players(tournament, director, players, clubs=CLUBS)
    seated_services.draw_seating(tournament, by=director, seed=3)
    rng = random.Random(2)
    for number, tables in seated_tables(tournament).items():
        for index, table in enumerate(tables):
            if number == 2 and index >= len(tables) - missing_in_round_2:
                continue
            entries = random_list(rng, settings_of(tournament).games_at(table.size), table.size)
            services.enter_sheet(table.seats[0].table, by=director, mode="games", entries=entries)


def pages_of(tournament, name="standings") -> list[str]:
    return [" ".join(text.split()) for text in page_texts(render(documents(tournament)[name](), "pdf",
                                                                  tournament=tournament))]


def ranked_numbers(page: str) -> list[int]:
    return [int(rank) for rank, _number in re.findall(r"(?:^| )(\d+) (\d+) Anna\2 Huber\2 ", page)]


def test_the_ranking_comes_first_on_one_page_and_missing_lists_make_a_round_provisional(schafkopf, director):
    evening(schafkopf, director, 37, missing_in_round_2=3)
    pages = pages_of(schafkopf)
    first = pages[0]
    assert "Provisional — after 15 of 18 score lists" in first and "Round 1" not in first
    assert len(ranked_numbers(first)) == 37, "all 37 players ranked on the first page"
    assert "Ranking: points" in first, "the ranking's notes on its page"
    rounds = [page for page in pages[1:] if "Round " in page]
    assert any("Round 1 " in page and "Round 1 — provisional" not in page for page in rounds)
    assert any("Round 2 — provisional, after 6 of 9 score lists" in page for page in rounds)


@pytest.mark.parametrize("players", [40])
def test_a_final_ranking_of_forty_fits_one_page(schafkopf, director, players):
    evening(schafkopf, director, players)
    (page,) = pages_of(schafkopf, "ranking")
    assert "Final ranking" in page and len(ranked_numbers(page)) == players


def test_a_long_ranking_still_runs_over_pages_in_the_usual_type(schafkopf, director):
    evening(schafkopf, director, 80)
    pages = pages_of(schafkopf, "ranking")
    assert len(pages) > 1 and sum(len(ranked_numbers(page)) for page in pages) == 80
