"""The round's board of a Schafkopf tournament: every table's state, the counts, the problems, the next entry
to confirm, the board alone for its reload, and the way back to it after confirming."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from scoring.board import AWAITING, COUNTED, MISSING
from scoring.games import game_of
from scoring.games.schafkopf import services
from scoring.models import ScoreSheet, TableLink, TableProblem
from scoring.results.problems import signal_problem
from tests.schafkopf.test_tablelink_views import grid_post, table_url
from tournament.models import Round, Table

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401


def board_url(tournament, part=None):
    if part is None:
        return reverse("tournament:schafkopf:board", args=[tournament.slug])
    return reverse("tournament:schafkopf:board_part", args=[tournament.slug, part])


def table(tournament, round_number, number):
    return Table.objects.get(round__stage__tournament=tournament, round__number=round_number, number=number)


@pytest.fixture
def evening(drawn, links, a_list, director, sk_assistant):
    """Round 1 of four tables: 1 counted, 2 sent by its table, 3 entered once by the assistant, 4 missing;
    a problem signalled at table 4."""
    services.enter_sheet(table(drawn, 1, 1), by=director, mode="games", entries=a_list(30, 4, seed=1))
    link2, _token = links[(1, 2)]
    services.enter_from_link(link2, mode="games", entries=a_list(30, 4, seed=2))
    drawn.double_entry = True
    drawn.save()
    services.enter_sheet(table(drawn, 1, 3), by=sk_assistant, mode="games", entries=a_list(30, 4, seed=3))
    signal_problem(links[(1, 4)][0], kind=TableProblem.Kind.MISSING_PLAYER, note="Seat 3 went home")
    return drawn


def test_the_board_shows_each_table_the_counts_and_the_next_entry_to_confirm(client, director, evening):
    board = game_of(evening).board(evening, None, user=director)
    assert board.part == "1"
    assert [(item.label, item.state, item.from_table) for item in board.items] == [
        ("Table 1", COUNTED, False), ("Table 2", AWAITING, True), ("Table 3", AWAITING, False),
        ("Table 4", MISSING, False)]
    assert board.summary() == "1 counted, 2 awaiting confirmation, 1 missing, 1 problem"
    assert board.next_to_confirm.label == "Table 2"  # what the tables sent comes first

    client.force_login(director)
    response = client.get(board_url(evening))
    text = response.content.decode()
    assert response.status_code == 200
    assert "1 counted, 2 awaiting confirmation, 1 missing, 1 problem" in text
    assert 'id="confirm-next"' in text and "Confirm next: Table 2" in text
    assert "arrived from the table" in text and "entered by helper" in text
    assert "A player is missing – Seat 3 went home" in text
    assert 'hx-get="/manage/' in text and "?live=1" in text  # it reloads itself
    assert text.count('class="bd-item bd-') == 4
    assert 'aria-current="page" id="nav-board"' in text


def test_the_board_alone_answers_its_reload_and_follows_new_arrivals(client, director, drawn, links, a_list):
    client.force_login(director)
    live = client.get(board_url(drawn, "1") + "?live=1").content.decode()
    assert "<html" not in live and 'id="board"' in live
    assert "0 counted, 4 missing" in live and 'id="confirm-next"' not in live
    link, token = links[(1, 3)]
    client.post(table_url(token), grid_post(a_list(30, 4, seed=5)))  # the table's phone sends its list
    live = client.get(board_url(drawn, "1") + "?live=1").content.decode()
    assert "0 counted, 1 awaiting confirmation, 3 missing" in live
    assert "Confirm next: Table 3" in live


def test_the_next_entry_skips_the_users_own_first_entry(client, sk_assistant, evening):
    board = game_of(evening).board(evening, "1", user=sk_assistant)
    assert [item.mine for item in board.items] == [False, False, True, False]
    assert board.next_to_confirm.label == "Table 2"


def test_confirming_from_the_board_goes_back_to_the_board(client, director, evening):
    client.force_login(director)
    text = client.get(board_url(evening)).content.decode()
    sheet_url = reverse("tournament:schafkopf:sheet", args=[evening.slug, 1, 2]) + "?from=board"
    assert f'href="{sheet_url}" id="confirm-next"' in text
    page = client.get(sheet_url).content.decode()
    assert 'name="from" value="board"' in page and 'id="confirm-entry" autofocus' in page
    response = client.post(sheet_url, {"action": "confirm", "pending_version": "1", "from": "board"})
    assert response.status_code == 302 and response["Location"] == board_url(evening, "1")
    board = game_of(evening).board(evening, "1", user=director)
    assert board.summary() == "2 counted, 1 awaiting confirmation, 1 missing, 1 problem"
    assert board.next_to_confirm.label == "Table 3"


def test_a_problem_is_closed_from_the_board(client, director, evening):
    client.force_login(director)
    problem = TableProblem.objects.get()
    response = client.post(board_url(evening, "1"), {"problem": str(problem.pk)})
    assert response.status_code == 302
    problem.refresh_from_db()
    assert problem.closed_by == director
    assert "problem" not in game_of(evening).board(evening, "1", user=director).summary()
    assert client.post(board_url(evening, "1"), {"problem": "x"}).status_code == 404
    assert client.post(board_url(evening, "1"), {"problem": "99999"}).status_code == 404


def test_other_rounds_and_unknown_parts(client, director, evening):
    client.force_login(director)
    text = client.get(board_url(evening, "2")).content.decode()
    assert "Round board: Round 2" in text and "0 counted, 4 missing" in text
    assert client.get(board_url(evening, "3")).status_code == 404
    assert client.get(board_url(evening, "ko")).status_code == 404


def test_the_board_counts_a_table_once_its_list_counts_at_once(client, director, drawn, links, a_list):
    drawn.link_entries_count = True
    drawn.save()
    link = TableLink.objects.get(pk=links[(1, 1)][0].pk)
    services.enter_from_link(link, mode="games", entries=a_list(30, 4, seed=9))
    board = game_of(drawn).board(drawn, "1", user=director)
    assert board.items[0].state == COUNTED and board.next_to_confirm is None


def test_the_board_is_in_the_menu_and_refused_to_strangers(client, director, drawn, django_user_model):
    client.force_login(director)
    text = client.get(reverse("tournament:schafkopf:round", args=[drawn.slug, 1])).content.decode()
    assert f'href="{board_url(drawn)}"' in text
    assert any(url == board_url(drawn) for _label, url in game_of(drawn).menu(drawn))
    stranger = django_user_model.objects.create_user(username="stranger", password="pw-Stranger-1")
    client.force_login(stranger)
    assert client.get(board_url(drawn)).status_code == 404
    client.logout()
    assert client.get(board_url(drawn)).status_code == 302


def test_before_the_draw_the_board_says_so(client, director, schafkopf):
    client.force_login(director)
    text = client.get(board_url(schafkopf)).content.decode()
    assert "The seating has not been drawn yet." in text


def test_the_board_draws_the_results_arriving_per_five_minutes(client, director, drawn, a_list):
    """Sheets counted at 19:01, 19:04 and 19:12 at the venue: 2, 0 and 1 in the slots from 19:00, 19:05, 19:10."""
    venue = ZoneInfo(drawn.time_zone)
    for number, minute in ((1, 1), (2, 4), (3, 12)):
        services.enter_sheet(table(drawn, 1, number), by=director, mode="games", entries=a_list(30, 4, seed=number))
        ScoreSheet.objects.filter(table=table(drawn, 1, number)).update(
            entered_at=datetime(2026, 11, 27, 19, minute, tzinfo=venue))
    client.force_login(director)
    text = client.get(board_url(drawn, "1")).content.decode()
    chart = text[text.index('<figure class="chart" id="arrivals">'):text.index("</figure>")]
    assert "Results arriving: Round 1" in chart and 'role="img"' in chart
    assert "3 results counted from 19:00 to 19:10; the most, 2, in the five minutes from 19:00." in chart
    cells = re.findall(r'<th scope="row">([\d:]+)</th><td class="num">(\d+)</td>', chart)
    assert cells == [("19:00", "2"), ("19:05", "0"), ("19:10", "1")]
    # once the round's clock ran, the picture begins with the round: the quiet first minutes are part of it
    Round.objects.filter(stage__tournament=drawn, number=1).update(
        clock_started_at=datetime(2026, 11, 27, 18, 47, tzinfo=venue))
    text = client.get(board_url(drawn, "1")).content.decode()
    assert re.findall(r'<th scope="row">([\d:]+)</th><td class="num">(\d+)</td>', text) == [
        ("18:45", "0"), ("18:50", "0"), ("18:55", "0"), ("19:00", "2"), ("19:05", "0"), ("19:10", "1")]
    # round 2 has no result yet: no picture; the board's reload carries none either
    assert 'id="arrivals"' not in client.get(board_url(drawn, "2")).content.decode()
    assert 'id="arrivals"' not in client.get(board_url(drawn, "1") + "?live=1").content.decode()
