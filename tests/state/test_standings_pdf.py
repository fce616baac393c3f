"""The Schafkopf final standings PDF fits its page in every language: long names, clubs and remarks, about
40 rows a page, no column past the edge, no lone row on a page. PDF_OUT=dir keeps the files to look at."""

import datetime
import os
import random

import pytest
from django.utils import translation

from documents import render
from scoring.games.schafkopf import services
from scoring.games.schafkopf.demo import random_list
from scoring.games.schafkopf.documents import standings_document
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tests.conftest import new_director, shared
from tests.pdf_text import page_texts
from tournament.models import Participant
from tournament.services.participants import add_participant
from tournament.services.tournaments import create_tournament

pytestmark = pytest.mark.django_db

LONG_FIRST = ["Maximilian-Alexander", "Anna-Katharina", "Bartholomäus", "Kristoffer", "Ottilie"]
LONG_LAST = ["Oberhuber-Sonnleitner", "Schwarzenberger", "Frederiksen-Kjærgaard", "Wittelsbacher", "Ng"]
CLUBS = ["Schafkopffreunde Oberammergau-Unterammergau e.V.", "SK Hinterhugl", "Kortspilklubben Nørrebro",
         "", "Verein der Freunde des gepflegten Kartenspiels München-Schwabing"]


def build_evening():
    """37 players with long names and clubs, three rounds seated and every list entered, one player excluded."""
    director = new_director()
    schafkopf = create_tournament(by=director, name="Schafkopf cup", game="schafkopf", date=datetime.date(2026, 12, 5))
    schafkopf.settings = {**schafkopf.settings, "rounds": 3, "entry_fee": "10.00",
                          "prizes": [{"kind": "percent", "value": "40"}, {"kind": "percent", "value": "25"}]}
    schafkopf.save()
    for number in range(1, 38):
        add_participant(schafkopf, by=director, number=number, first_name=LONG_FIRST[number % 5],
                        last_name=f"{LONG_LAST[number % 5]}{number}", club=CLUBS[number % 5])
    seated_services.draw_seating(schafkopf, by=director, seed=9)
    rng = random.Random(4)
    for tables in seated_tables(schafkopf).values():
        for table in tables:
            games = 30 if table.size == 4 else 40
            services.enter_sheet(table.seats[0].table, by=director, mode="games",
                                 entries=random_list(rng, games, table.size))
    excluded = Participant.objects.get(tournament=schafkopf, number=5)
    excluded.status = Participant.Status.EXCLUDED
    excluded.save()
    return schafkopf


@pytest.fixture(scope="module")
def built(build_once):
    """The evening is built once for the three languages (each test's change of language rolls back)."""
    return build_once(build_evening)


@pytest.fixture
def evening(request, built):
    return shared(request, built)


@pytest.mark.parametrize("language", ["en", "de", "da"])
def test_final_standings_pdf_fits_in_every_language(evening, language):
    evening.language = language
    evening.save()
    data = render(standings_document(evening), "pdf", tournament=evening)
    if os.environ.get("PDF_OUT"):
        with open(os.path.join(os.environ["PDF_OUT"], f"standings-{language}.pdf"), "wb") as out:
            out.write(data)
    pages = page_texts(data)
    # three rounds of 37 seats and the ranking of 37: 148 rows, about 40 a page (37 players took 11 pages)
    assert len(pages) <= 6, len(pages)
    text = " ".join(pages)
    # no word broken letter by letter: every long name and club word is printed whole
    for word in ("Oberhuber-Sonnleitner10", "Frederiksen-Kjærgaard37", "Schwarzenberger11", "Oberammergau-"):
        assert word in text, word
    # no lone row: the last page holds several ranking rows and the notes
    with translation.override(language):
        assert sum(line.split()[:1] != [] and line.split()[0].isdigit() for line in pages[-1].splitlines()) >= 4
