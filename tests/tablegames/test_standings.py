"""Table-game standings from the stored sheets: tournament points, game score, lot — ties at each step."""

import dataclasses
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.games.tablegames import services
from scoring.games.tablegames.config import settings_of
from scoring.games.tablegames.standings import standings
from scoring.rules.tablegames import GAME_SCORE, TOURNAMENT_POINTS
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables

pytestmark = pytest.mark.django_db


def quad_round(*turn_points):
    """A Quad-Ominos round nobody went out in: the totals are the turn points."""
    seats = range(1, len(turn_points) + 1)
    return {"turn_points": {str(s): p for s, p in zip(seats, turn_points, strict=True)}, "winner": None,
            "remaining": {str(s): 0 for s in seats}}


@pytest.fixture
def one_round(make_game, add_players, director):
    """Quad-Ominos, 8 players, one round of one hand at two tables of 4 (so every total is typed directly)."""
    quad = make_game("quadominos", rounds=1, max_rounds=1)
    add_players(quad, 8)
    seated_services.draw_seating(quad, by=director, seed=12)
    return quad


def enter_by_seat(tournament, director, round_number, scores_by_table):
    """Enter each table's one-hand game; returns {participant number: (table, seat)}."""
    where = {}
    for table in seated_tables(tournament)[round_number]:
        services.enter_sheet(table.seats[0].table, by=director, entries=[quad_round(*scores_by_table[table.number])])
        where.update({s.participant.number: (table.number, s.number) for s in table.seats})
    return where


def test_ranking_with_ties_at_each_step(one_round, director):
    # Table 1: seats 2 and 3 finish equal (1.5 TP each); table 2: seats 3 and 4 equal (0.5 TP each).
    where = enter_by_seat(one_round, director, 1, {1: (100, 50, 50, 10), 2: (90, 60, 20, 20)})
    result = standings(one_round)
    by_place = [(where[row.participant.number], row.values[TOURNAMENT_POINTS], row.values[GAME_SCORE], row.by_lot,
                 row.separated_by) for row in result.rows]
    # 3 TP each for the two table winners: the game score puts 100 above 90.
    assert by_place[0][:4] == ((1, 1), Decimal(3), 100, False)
    assert by_place[1][:4] == ((2, 1), Decimal(3), 90, False) and by_place[1][4] == GAME_SCORE
    assert by_place[2][:4] == ((2, 2), Decimal(2), 60, False) and by_place[2][4] == TOURNAMENT_POINTS
    # Equal on points and score: the lot decides, and says so.
    assert {place[0] for place in by_place[3:5]} == {(1, 2), (1, 3)}
    assert all(place[1:4] == (Decimal("1.5"), 50, True) for place in by_place[3:5])
    assert {place[0] for place in by_place[5:7]} == {(2, 3), (2, 4)}
    assert all(place[1:4] == (Decimal("0.5"), 20, True) for place in by_place[5:7])
    assert by_place[7][:4] == ((1, 4), Decimal(0), 10, False)
    assert [row.rank for row in result.rows] == list(range(1, 9))
    assert result.any_lot and result.complete and result.final


def test_the_lot_is_reproducible_from_the_stored_seed(one_round, director):
    enter_by_seat(one_round, director, 1, {1: (100, 50, 50, 10), 2: (90, 60, 20, 20)})
    first = [row.participant.pk for row in standings(one_round).rows]
    assert [row.participant.pk for row in standings(one_round).rows] == first


def test_points_and_scores_add_up_over_the_rounds(make_game, add_players, director):
    quad = make_game("quadominos", rounds=2, max_rounds=1)
    add_players(quad, 8)
    seated_services.draw_seating(quad, by=director, seed=12)
    round_one = enter_by_seat(quad, director, 1, {1: (100, 80, 60, 40), 2: (95, 75, 55, 35)})
    after_one = standings(quad, after_round=1)
    assert not after_one.final and after_one.complete
    round_two = enter_by_seat(quad, director, 2, {1: (10, 20, 30, 40), 2: (15, 25, 35, 45)})
    result = standings(quad)
    assert result.final and result.finished == result.total == 4
    score = {1: (100, 80, 60, 40), 2: (95, 75, 55, 35)}
    again = {1: (10, 20, 30, 40), 2: (15, 25, 35, 45)}
    for row in result.rows:
        number = row.participant.number
        (t1, s1), (t2, s2) = round_one[number], round_two[number]
        assert row.rounds == [Decimal(4 - s1), Decimal(s2 - 1)], "3 TP for first place down to 0 for fourth"
        assert row.values[TOURNAMENT_POINTS] == Decimal(4 - s1 + s2 - 1)
        assert row.values[GAME_SCORE] == score[t1][s1 - 1] + again[t2][s2 - 1]


def test_a_game_counts_once_finished(drawn, director):
    table = seated_tables(drawn)[1][0]
    hand = {"out": 1, "hand_rummi": False, "penalties": {"1": "0", "2": "5", "3": "5", "4": "5"}}
    services.enter_sheet(table.seats[0].table, by=director, entries=[hand])
    result = standings(drawn)
    assert result.finished == 0 and result.total == 9 and not result.complete
    assert (1, 1) in result.unfinished
    # nobody has a finished game: nobody is ranked yet (no rank on zero points, none by lot)
    assert all(row.rank is None and not row.by_lot and not row.values for row in result.rows)
    services.end_game(table.seats[0].table, by=director, expected_version=1)
    result = standings(drawn)
    leader = result.rows[0]
    assert result.finished == 1 and leader.participant.pk == table.seats[0].participant_id
    assert leader.values[TOURNAMENT_POINTS] == Decimal(3) and leader.values[GAME_SCORE] == 0
    assert leader.rounds == [Decimal(3), None, None]


def test_rummi_ranks_the_fewest_penalty_points_first(make_game, add_players, director):
    rummi = make_game("rummi", rounds=1, max_rounds=1)
    add_players(rummi, 4)
    seated_services.draw_seating(rummi, by=director, seed=1)
    table = seated_tables(rummi)[1][0]
    hand = {"out": 2, "hand_rummi": False, "penalties": {"1": "30", "2": "0", "3": "K", "4": "30"}}
    services.enter_sheet(table.seats[0].table, by=director, entries=[hand])
    rows = standings(rummi).rows
    seat_of = {s.participant_id: s.number for s in table.seats}
    assert [seat_of[row.participant.pk] for row in rows[:2]] == [2, 3]
    assert [row.values[GAME_SCORE] for row in rows] == [0, 10, 30, 30]
    assert [row.values[TOURNAMENT_POINTS] for row in rows] == [3, 2, Decimal("0.5"), Decimal("0.5")]
    assert rows[2].by_lot and rows[3].by_lot


def test_patience_ranks_tiles_then_finish_time_then_lot(make_game, add_players, director):
    patience = make_game("domino_patience", "tolveren")
    seated_services.update_settings(patience, dataclasses.replace(settings_of(patience), finish_time=True), by=director)
    add_players(patience, 4)
    seated_services.draw_seating(patience, by=director)
    table = seated_tables(patience)[1][0]
    results = [{"seat": seat, "tiles_left": tiles, "finish_time": time}
               for seat, tiles, time in ((1, 3, "20:00"), (2, 0, "30:00"), (3, 3, "18:30"), (4, 3, "18:30"))]
    services.enter_sheet(table.seats[0].table, by=director, entries=results)
    rows = standings(patience).rows
    seats = [next(s.number for s in table.seats if s.participant_id == row.participant.pk) for row in rows]
    assert seats[0] == 2 and set(seats[1:3]) == {3, 4} and seats[3] == 1
    assert rows[1].by_lot and rows[2].by_lot and not rows[3].by_lot
    assert rows[3].values == {"tiles_left": 3, "finish_time": 1200}


def test_standings_take_a_constant_number_of_queries(make_game, add_players, director):
    def count(players):
        quad = make_game("quadominos", name=f"Quad {players}", max_rounds=1)
        add_players(quad, players)
        seated_services.draw_seating(quad, by=director, seed=2)
        for table in seated_tables(quad)[1]:
            services.enter_sheet(table.seats[0].table, by=director, entries=[quad_round(*range(10, 10 + table.size))])
        with CaptureQueriesContext(connection) as queries:
            standings(quad)
        return len(queries)

    assert count(8) == count(24)


def test_a_player_withdrawn_mid_evening_stays_ranked_and_is_marked(one_round, director):
    """A player who went home after his games keeps his place, and the final ranking (page, PDF, Excel:
    one document; the public page) says he withdrew, instead of ranking him with no mark."""
    from scoring.games.tablegames.documents import PRINTOUTS
    from scoring.games.tablegames.public import public
    from tournament.models import Participant
    from tournament.services.participants import set_participant_status

    enter_by_seat(one_round, director, 1, {1: (100, 50, 50, 10), 2: (90, 60, 20, 20)})
    gone = one_round.participants.get(number=1)
    set_participant_status(gone, Participant.Status.WITHDRAWN, by=director)
    result = standings(one_round)
    assert result.final and all(row.rank is not None for row in result.rows)
    remarks = {row["number"]: str(row["remark"]) for row in PRINTOUTS.ranking_document(one_round).rows}
    assert remarks[1] == "withdrawn"
    assert [number for number, text in remarks.items() if text] == [1]
    picture, section = public(one_round).standings()  # the standings round by round, then the table
    assert picture.template == "public/_chart.html"
    assert [row["number"] for row in section.data["rows"] if row["withdrawn"]] == [1]
    from django.template.loader import render_to_string

    html = " ".join(render_to_string(section.template, {"data": section.data}).split())
    assert f"{gone.name} <small>1 · withdrawn</small>" in html


def test_the_public_picture_adds_up_the_tournament_points(one_round, director):
    """The table games' standings round by round name their first value (tournament points) and add it up."""
    from documents.base import format_value
    from scoring.games.tablegames.public import public

    enter_by_seat(one_round, director, 1, {1: (100, 50, 50, 10), 2: (90, 60, 20, 20)})
    picture, _table = public(one_round).standings()
    html = str(picture.data["chart"])
    assert "Tournament points after each round" in html
    first = next(row for row in standings(one_round).rows if row.rank == 1)
    points = format_value(first.values["tournament_points"])
    assert f'<th scope="row">1. {first.participant.name}</th><td class="num">{points}</td>' in html
