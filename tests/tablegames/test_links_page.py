"""The director's Table links page of a table-game round says which links are closed (the table's game is over and
counts, the tournament finished) and which were withdrawn, in words (not by colour alone), in every language."""

import html
import re

import pytest
from django.urls import reverse

from scoring.games.tablegames import services
from scoring.models import TableLink
from scoring.results.links import issue_links, revoke_link
from scoring.seated import services as seated_services
from tournament.models import Round, Table

pytestmark = pytest.mark.django_db

WORDS = {"en": ("Closed", "the result counts", "Withdrawn", "no link yet"),
         "de": ("Geschlossen", "das Ergebnis zählt", "Zurückgezogen", "noch kein Link"),
         "da": ("Lukket", "resultatet tæller", "Trukket tilbage", "intet link endnu")}


def rummi_hand(out, penalties):
    return {"out": out, "hand_rummi": False, "penalties": {str(seat): str(p) for seat, p in penalties.items()}}


@pytest.fixture
def round_one(make_game, add_players, director):
    """Rummi, 16 players at four tables: every table has its link; table 1's game is over (counted), table 2 has
    one hand counted and plays on, table 3's link is withdrawn, table 4 untouched."""
    tournament = make_game("rummi")
    add_players(tournament, 16)
    seated_services.draw_seating(tournament, by=director, seed=3)
    round_ = Round.objects.get(stage__tournament=tournament, number=1)
    issue_links(round_, by=director)
    tables = {t.number: t for t in Table.objects.filter(round=round_)}
    over = services.enter_sheet(tables[1], by=director, entries=[rummi_hand(1, {1: 0, 2: 260, 3: 20, 4: 30})])
    assert over.derived["finished"]
    on = services.enter_sheet(tables[2], by=director, entries=[rummi_hand(1, {1: 0, 2: 10, 3: 20, 4: 30})])
    assert not on.derived["finished"]
    revoke_link(TableLink.objects.get(table=tables[3]), by=director)
    return tournament


def rows(client, tournament, language="en") -> dict[str, str]:
    """The page's rows by id ("table-1"), as text."""
    client.cookies["django_language"] = language
    page = client.get(reverse("tournament:tablegames:links", args=[tournament.slug, 1])).content.decode()
    found = re.findall(r'<tr id="(table-\d+)"([^>]*)>(.*?)</tr>', page, flags=re.S)
    return {row_id: " ".join(html.unescape(re.sub(r"<[^>]+>", " ", attrs + ">" + body)).split())
            + (" [closed]" if "tl-row-closed" in attrs else "") for row_id, attrs, body in found}


@pytest.mark.parametrize("language", ["en", "de", "da"])
def test_a_finished_tables_link_is_marked_closed_and_a_withdrawn_one_withdrawn(client, director, round_one,
                                                                               language):
    closed, counts, withdrawn, none_yet = WORDS[language]
    client.force_login(director)
    shown = rows(client, round_one, language)
    assert f"{closed} : {counts}" in shown["table-1"] and shown["table-1"].endswith("[closed]")
    assert closed not in shown["table-2"] and "[closed]" not in shown["table-2"]  # the game goes on: open
    assert withdrawn in shown["table-3"] and none_yet not in shown["table-3"] and shown["table-3"].endswith("[closed]")
    assert closed not in shown["table-4"] and withdrawn not in shown["table-4"]


def test_every_link_of_a_finished_tournament_is_marked_closed(client, director, round_one):
    round_one.status = round_one.Status.FINISHED
    round_one.save(update_fields=["status"])
    client.force_login(director)
    shown = rows(client, round_one)
    assert all("Closed : the tournament is finished" in shown[f"table-{n}"] for n in (1, 2, 4))
