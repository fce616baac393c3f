"""A table game's standings printout keeps a ranking of up to about 40 players on one A4 page."""

import re

import pytest
from django.core.management import call_command

from documents import render
from scoring.games.tablegames.documents import PRINTOUTS
from tests.pdf_text import page_texts
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_rummi_ranking_of_38_players_is_one_page(director):
    call_command("demo", "rummi", "--players", "38", "--results", "--seed", "4", "--director", director.username)
    tournament = Tournament.objects.get(game="rummi")
    pages = page_texts(render(PRINTOUTS.documents(tournament)["standings"](), "pdf", tournament=tournament))
    assert len(pages) == 1
    numbers = {int(number) for number in re.findall(r"^\d+ (\d+) ", pages[0], re.M)}
    assert numbers == set(tournament.participants.values_list("number", flat=True))
