"""The round's board of a table game: a table still playing, a first entry awaiting confirmation, and the way
back to the board after confirming."""

from django.urls import reverse

from scoring.board import AWAITING, MISSING, RUNNING
from scoring.games import game_of
from tests.tablegames.test_views import hand_post, text_of, url


def test_the_board_of_a_rummi_round(drawn, director, tg_assistant, client):
    client.force_login(tg_assistant)
    client.post(url(drawn, "sheet", 1, 2), hand_post(1, 3, ["20", "10", "0", "10"]))  # a game under way
    drawn.double_entry = True
    drawn.save()
    client.post(url(drawn, "sheet", 1, 3), hand_post(1, 1, ["0", "10", "20", "10"]))  # awaits a second person
    board = game_of(drawn).board(drawn, None, user=director)
    assert [(item.label, item.state) for item in board.items] == [
        ("Table 1", MISSING), ("Table 2", RUNNING), ("Table 3", AWAITING)]
    assert board.summary() == "0 counted, 1 awaiting confirmation, 1 still playing, 1 missing"

    client.force_login(director)
    page = text_of(client.get(reverse("tournament:tablegames:board", args=[drawn.slug])))
    assert "Round board: Round 1" in page and "entered by helper" in page and "still playing" in page
    target = url(drawn, "sheet", 1, 3) + "?from=board"
    assert f'href="{target}" id="confirm-next"' in page
    sheet_page = text_of(client.get(target))
    assert 'name="from" value="board"' in sheet_page
    response = client.post(target, {"action": "confirm", "pending_version": "1", "from": "board"})
    assert response["Location"] == reverse("tournament:tablegames:board_part", args=[drawn.slug, "1"])
    assert game_of(drawn).board(drawn, "1", user=director).items[2].state != AWAITING
    assert 'aria-current="page" id="nav-board"' in page


def test_the_still_missing_box_reads_each_tables_state_of_its_round(drawn, director, tg_assistant, client):
    """`round_board` (the box on every list page) reads only the round's tables and each sheet's "finished" flag:
    a running game, a first entry, a missing table and a counted one, in the round asked for and the current one."""
    from scoring.board import round_board

    client.force_login(tg_assistant)
    client.post(url(drawn, "sheet", 1, 2), hand_post(1, 3, ["20", "10", "0", "10"]))  # a game under way
    drawn.double_entry = True
    drawn.save()
    client.post(url(drawn, "sheet", 1, 3), hand_post(1, 1, ["0", "10", "20", "10"]))  # awaits a second person
    for board in (round_board(drawn, 1), round_board(drawn)):
        assert (board.round, board.total, board.missing, board.running, board.awaiting) == (1, 3, [1], [2], [3])
    later = round_board(drawn, 2)
    assert (later.round, later.total, later.running, later.awaiting) == (2, 3, [], [])
    assert later.missing == [1, 2, 3]


def test_the_still_missing_box_links_each_table_to_its_sheet(drawn, director, tg_assistant, client):
    """The box's links are made in Python (one address worked out, each table's number put in): the same
    addresses and words as one `{% url %}` and one translation per table."""
    import re

    client.force_login(tg_assistant)
    client.post(url(drawn, "sheet", 1, 2), hand_post(1, 3, ["20", "10", "0", "10"]))  # a game under way
    drawn.double_entry = True
    drawn.save()
    client.post(url(drawn, "sheet", 1, 3), hand_post(1, 1, ["0", "10", "20", "10"]))  # awaits a second person
    client.force_login(director)
    page = client.get(url(drawn, "sheet", 1, 1)).content.decode()
    for part, number in (("missing-tables", 1), ("running-tables", 2), ("awaiting-tables", 3)):
        item = re.search(rf'<li id="{part}">(.*?)</li>', page, re.S).group(1)
        assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', item) == [(url(drawn, "sheet", 1, number),
                                                                        f"Table {number}")]
    box = client.get(reverse("tournament:tablegames:still_missing", args=[drawn.slug, 2]),
                     HTTP_ACCEPT_LANGUAGE="de").content.decode()
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', box)
    assert links == [(url(drawn, "sheet", 2, n), f"Tisch {n}") for n in (1, 2, 3)]
