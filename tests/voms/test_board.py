"""The round's board of a Voms tournament: a pool round's slips (counted, awaiting, missing) and the parts."""

from django.urls import reverse

from scoring.board import AWAITING, COUNTED, MISSING
from scoring.games import game_of
from scoring.games.voms import entries as voms_entries
from scoring.games.voms.services import slips as voms_slips
from tournament.models import Match

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401


def slip(match, by, lus_a=9, lus_b=4):
    return voms_slips.record_slip(match, by=by, entry=voms_entries.slip_entry(lus_a=lus_a, lus_b=lus_b),
                                expected_version=0)


def test_the_board_of_a_pool_round(drawn, director, assistant_voms, client):
    matches = list(Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False)
                   .order_by("table_number"))
    slip(matches[0], director)
    drawn.double_entry = True
    drawn.save()
    slip(matches[1], assistant_voms)
    board = game_of(drawn).board(drawn, None, user=director)
    assert board.part == "1" and [key for key, _label in board.parts][:2] == ["1", "2"]
    assert [item.state for item in board.items] == [COUNTED, AWAITING, MISSING]
    assert board.summary() == "1 counted, 1 awaiting confirmation, 1 missing"
    assert f"{matches[1].team_a} – {matches[1].team_b}" in board.next_to_confirm.detail

    client.force_login(assistant_voms)
    page = client.get(reverse("tournament:voms:board", args=[drawn.slug])).content.decode()
    assert "Round board: Pool round 1" in page and "No entry awaits your confirmation." in page  # its own entry
    assert client.get(reverse("tournament:voms:board_part", args=[drawn.slug, "ko"])).status_code == 404
    client.force_login(director)
    page = client.get(reverse("tournament:voms:board_part", args=[drawn.slug, "2"])).content.decode()
    assert "0 counted, 3 missing" in page and 'aria-current="page" id="nav-board"' in page


def test_a_slip_confirmed_from_the_board_goes_back_to_the_board(drawn, director, assistant_voms, client):
    match = Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False).first()
    drawn.double_entry = True
    drawn.save()
    slip(match, assistant_voms)
    client.force_login(director)
    board_page = client.get(reverse("tournament:voms:board", args=[drawn.slug])).content.decode()
    target = reverse("tournament:voms:enter", args=[drawn.slug]) + f"?round=1&amp;match={match.pk}&amp;from=board"
    assert f'href="{target}" id="confirm-next"' in board_page
    page = client.get(target.replace("&amp;", "&")).content.decode()
    assert 'autofocus id="confirm-entry"' in page and page.count("autofocus") == 1
    response = client.post(reverse("tournament:voms:enter", args=[drawn.slug]),
                           {"action": "confirm", "match": match.pk, "pending_version": "1", "from": "board"})
    assert response["Location"] == reverse("tournament:voms:board_part", args=[drawn.slug, "1"])
    assert game_of(drawn).board(drawn, "1", user=director).items[0].state == COUNTED


def test_a_problem_a_slip_signalled_shows_on_the_board_and_is_closed_there(drawn, director, client):
    from scoring.board_views import board_url
    from scoring.models import TableProblem
    from scoring.results.links import issue_match_links
    from scoring.results.problems import signal_problem

    matches = list(Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False)
                   .order_by("table_number"))
    link = issue_match_links(drawn, matches[1:2], by=director)[0]
    signal_problem(link, kind=TableProblem.Kind.DISPUTE, note="lus disputed")
    board = game_of(drawn).board(drawn, "1", user=director)
    assert [len(item.problems) for item in board.items] == [0, 1, 0]
    assert board.summary() == "0 counted, 3 missing, 1 problem"
    client.force_login(director)
    assert "lus disputed" in client.get(board_url(drawn, "1")).content.decode()
    problem = TableProblem.objects.get()
    response = client.post(board_url(drawn, "1"), {"problem": str(problem.pk)}, follow=True)
    assert f"Table {matches[1].table_number}: problem closed." in response.content.decode()
    problem.refresh_from_db()
    assert problem.closed_at is not None and problem.closed_by == director
    assert game_of(drawn).board(drawn, "1", user=director).problems == []


def test_the_board_of_a_pool_round_draws_the_slips_arriving(drawn, director, client):
    """Two slips counted at 20:00 and 20:11 at the venue: 1, 0 and 1 in the slots from 20:00, 20:05, 20:10."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from scoring.models import ScoreSheet

    matches = list(Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False)
                   .order_by("table_number"))
    for match, minute in zip(matches, (0, 11), strict=False):
        slip(match, director)
        ScoreSheet.objects.filter(match=match).update(
            entered_at=datetime(2026, 11, 27, 20, minute, tzinfo=ZoneInfo(drawn.time_zone)))
    assert len(game_of(drawn).board(drawn, "1", user=director).arrivals) == 2
    client.force_login(director)
    page = client.get(reverse("tournament:voms:board_part", args=[drawn.slug, "1"])).content.decode()
    assert "Results arriving: Pool round 1" in page
    assert ">20:00</text>" in page and ">20:10</text>" in page
    assert '<th scope="row">20:05</th><td class="num">0</td>' in page
