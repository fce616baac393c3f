"""The standings as a picture (scoring/seated/progression.py): the running totals of the top of the ranking and
of one player, exact, and the picture on the director's standings page."""

import re

from django.urls import reverse

from scoring.games.schafkopf import services
from scoring.games.schafkopf.standings import standings
from scoring.seated.progression import Ranked, progression, progression_chart
from tournament.models import Table

ROWS = [Ranked(1, 7, "Anna", [30, 12, None]), Ranked(2, 3, "Bo", [-5, 40, None]),
        Ranked(3, 9, "Cem", [10, None, None]), Ranked(4, 1, "Dora", [None, 4, None]),
        Ranked(None, 5, "Eva", [None, None, None])]


def test_the_top_players_running_totals_up_to_the_last_round_with_a_result():
    played, lines = progression(ROWS, top=2)
    assert played == 2
    assert [(line.label, line.totals, line.me) for line in lines] == [("1. Anna", [30, 42], False),
                                                                      ("2. Bo", [-5, 35], False)]


def test_me_is_added_below_the_top_and_marked_within_it():
    _played, lines = progression(ROWS, top=2, me=1)
    assert [(line.label, line.totals, line.me) for line in lines][-1] == ("4. Dora", [0, 4], True)
    _played, lines = progression(ROWS, top=2, me=3)
    assert [(line.label, line.me) for line in lines] == [("1. Anna", False), ("2. Bo", True)]
    # a player without a rank (no result yet) is not drawn, nor is an unknown number
    assert len(progression(ROWS, top=2, me=5)[1]) == 2 and len(progression(ROWS, top=2, me=99)[1]) == 2


def test_no_picture_before_any_result():
    assert progression_chart([Ranked(None, 5, "Eva", [None, None])], metric="Points") is None
    chart = progression_chart(ROWS, metric="Points", top=3, me=1)
    assert chart.title == "Points after each round" and chart.x_labels == ["R1", "R2"]
    assert chart.description == ("Points added up round by round for the 3 best placed players. "
                                 "The thick black line: 4. Dora.")


def test_the_standings_page_draws_the_top_round_by_round(client, director, drawn, a_list):
    for number in (1, 2):
        table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=number)
        services.enter_sheet(table, by=director, mode="games", entries=a_list(30, 4, seed=number))
    result = standings(drawn)
    top = [row for row in result.rows if row.rank is not None][:8]
    client.force_login(director)
    page = client.get(reverse("tournament:schafkopf:standings", args=[drawn.slug])).content.decode()
    chart = page[page.index('<figure class="chart" id="progression">'):page.index("</figure>")]
    assert "Points after each round" in chart and 'role="img"' in chart
    assert chart.count("<polyline") == 8 and ">R1</text>" in chart and ">R2</text>" not in chart
    shown = re.findall(r'<tr><th scope="row">(.*?)</th><td class="num">(-?\d+)</td></tr>', chart)
    assert shown == [(f"{row.rank}. {row.participant.name}", str(row.values["points"])) for row in top]
    assert page.index('id="progression"') < page.index('class="grid seated-standings"')


def test_the_public_pages_draw_the_top_and_the_player_found(client, director, drawn, a_list):
    from tournament.services.publishing import set_publication

    for number in (1, 2, 3, 4):
        table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=number)
        services.enter_sheet(table, by=director, mode="games", entries=a_list(30, 4, seed=number))
    set_publication(drawn, by=director, kinds=("schedule", "standings"))
    ranked = [row for row in standings(drawn).rows if row.rank is not None]
    last = ranked[-1].participant

    page = client.get(reverse("public:standings", args=[drawn.slug])).content.decode()
    assert page.count('<figure class="chart" id="progression">') == 1
    assert page.index('id="progression"') < page.index('class="standings"')
    assert f"{ranked[0].rank}. {ranked[0].participant.name}" in page and "Show the numbers" in page

    found = client.get(reverse("public:seat", args=[drawn.slug]), {"q": str(last.number)}).content.decode()
    chart = found[found.index('<figure class="chart" id="progression">'):found.index("</figure>")]
    assert f"The thick black line: {ranked[-1].rank}. {last.name}." in chart
    assert chart.count("<polyline") == 9 and 'class="chart-me"' in chart

    beamer = client.get(reverse("public:beamer", args=[drawn.slug])).content.decode()
    assert "Standings round by round" in beamer and 'id="progression"' in beamer
    assert "Show the numbers" not in beamer


def test_find_my_seat_draws_nothing_while_the_standings_are_not_published(client, director, drawn, a_list):
    from tournament.services.publishing import set_publication

    table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=1)
    services.enter_sheet(table, by=director, mode="games", entries=a_list(30, 4, seed=1))
    set_publication(drawn, by=director, kinds=("schedule",))
    found = client.get(reverse("public:seat", args=[drawn.slug]), {"q": "1"}).content.decode()
    assert "Table" in found and 'id="progression"' not in found
