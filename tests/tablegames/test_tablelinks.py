"""Table-game table links: a link per table and round, the phone page entering the hands (/t/<token>/), the
referee table's confirmation, the director's page of links and the QR code on the score sheet."""

import re

import pytest
from django.urls import reverse

from scoring.games import game_of
from scoring.games.tablegames import services
from scoring.models import PendingSheet, ScoreSheet, TableLink, TableProblem
from scoring.results.brakes import REFUSED_LIMIT
from scoring.results.links import issue_links, reissue_link, revoke_link, token_of
from scoring.seated import services as seated_services
from tests.conftest import built_once_fixtures, new_director
from tests.phone_notes import LANGUAGES, draft_key, holds_part_of, phone_notes, said_after_sending
from tournament.models import AuditEntry, Round

from .conftest import new_domino_of_four


def table_url(token):
    return reverse("table:entry", args=[token])


def sheet_url(tournament, round_number, table):
    return reverse("tournament:tablegames:sheet", args=[tournament.slug, round_number, table])


@pytest.fixture
def phone(client):
    client.cookies.pop("django_language", None)
    return client


def build_domino():
    director = new_director()
    return director, new_domino_of_four(director)


#: conftest.py's `domino_of_four` and its director, built once for the module's tests (each test's changes roll back)
built, world, director, domino_of_four = built_once_fixtures(build_domino, "director", "domino_of_four")


@pytest.fixture
def domino_links(domino_of_four, director):
    """Links of every table of rounds 1 and 2: {(round, table): (link, token)}."""
    made = {}
    for number in (1, 2):
        round_ = Round.objects.get(stage__tournament=domino_of_four, number=number)
        for link in issue_links(round_, by=director):
            made[(number, link.table.number)] = (link, token_of(link))
    return made


def hand(number, out, pips):
    return {f"h{number}-out": str(out), **{f"h{number}-pips-{seat}": str(p) for seat, p in enumerate(pips, 1)}}


FIRST = hand(1, 1, [0, 10, 20, 30])  # seat 1 out: 60 points
SECOND = hand(2, 1, [0, 15, 15, 15])  # seat 1 out again: 45 more, 105 ends the game


def stored(tournament):
    return (sorted((s.table_id, str(s.entries), s.version) for s in ScoreSheet.objects.filter(tournament=tournament)),
            sorted((p.table_id, str(p.entries), p.version) for p in PendingSheet.objects.filter(tournament=tournament)))


def test_the_phone_page_shows_the_players_and_a_row_per_hand(phone, domino_links, domino_of_four):
    link, token = domino_links[(1, 1)]
    response = phone.get(table_url(token))
    text = response.content.decode()
    assert response.status_code == 200
    for seat in link.table.seats.select_related("participant"):
        assert seat.participant.name in text
    assert 'name="h1-pips-4"' in text and 'name="h15-pips-1"' in text
    assert "Round 1 · Table 1" in text


def test_hands_sent_from_the_phone_await_confirmation_then_count(phone, domino_links, domino_of_four, director,
                                                                client):
    link, token = domino_links[(1, 1)]
    assert phone.post(table_url(token), FIRST).status_code == 302
    pending = PendingSheet.objects.get(table=link.table)
    assert pending.source_link == link and pending.entered_by is None and len(pending.entries) == 1
    assert phone.post(table_url(token), FIRST).status_code == 302  # sent twice: one entry, unchanged
    assert PendingSheet.objects.get(table=link.table).version == pending.version
    page = phone.get(table_url(token)).content.decode()
    assert 'id="sent-note"' in page and "60" in page
    sent = phone_notes(phone, table_url(token), "sent-note")
    assert "paper score sheet" in sent["en"] and "Spielbogen" in sent["de"] and "pointsedlen" in sent["da"]
    offline = phone_notes(phone, table_url(token), "ph-offline")
    assert "Send the score sheet again" in offline["en"] and "Senden Sie den Spielbogen" in offline["de"]
    assert "Send pointsedlen igen" in offline["da"]
    assert phone.post(table_url(token), {**FIRST, **SECOND}).status_code == 302  # the next hand: the same entry
    pending = PendingSheet.objects.get(table=link.table)
    assert len(pending.entries) == 2 and pending.version == 2
    client.force_login(director)
    sheet_page = client.get(sheet_url(domino_of_four, 1, 1)).content.decode()
    assert "sent by the table from its link" in sheet_page
    response = client.post(sheet_url(domino_of_four, 1, 1), {"action": "confirm",
                                                               "pending_version": pending.version})
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get(table=link.table)
    assert sheet.derived["finished"] and sheet.derived["totals"]["1"] == 105
    assert sheet.revisions.get().source_link == link
    page = phone.get(table_url(token)).content.decode()
    assert 'id="counted"' in page and 'name="h1-pips-1"' not in page
    assert phone_notes(phone, table_url(token), "counted") == {
        "en": "Your score sheet has been recorded and counts. Here is what was recorded. If something is wrong, "
              "bring the paper score sheet to the referee table.",
        "de": "Ihr Spielbogen ist erfasst und zählt. Hier sehen Sie, was erfasst wurde. "
              "Stimmt etwas nicht, bringen Sie den Spielbogen aus Papier zur Turnierleitung.",
        "da": "Jeres pointseddel er registreret og tæller. Her er det, der blev registreret. "
              "Er noget forkert, så bring pointsedlen på papir til dommerbordet."}
    before = stored(domino_of_four)
    assert phone.post(table_url(token), hand(3, 2, [5, 0, 5, 5])).status_code == 200  # read-only now
    assert stored(domino_of_four) == before


def test_the_round_page_says_a_phones_sheet_was_sent_by_the_table(phone, domino_links, domino_of_four, director,
                                                                   client):
    """The round's list of tables says who the awaiting sheet came from: the table's phone has no user, and the
    badge read "awaiting confirmation: 1 row entered by None"."""
    link, token = domino_links[(1, 1)]
    phone.post(table_url(token), FIRST)
    client.force_login(director)
    page = client.get(reverse("tournament:tablegames:round", args=[domino_of_four.slug, 1])).content.decode()
    assert "awaiting confirmation: 1 row sent by the table" in page and "None" not in page


@pytest.mark.parametrize("hour", [2, 14])
def test_the_note_of_a_phones_sheet_reads_as_one_sentence_in_english(phone, domino_links, domino_of_four, director,
                                                                    client, hour):
    """English writes the time "3:46 a.m.": the note went on "a.m.. It does not count"."""
    import datetime

    link, token = domino_links[(1, 1)]
    phone.post(table_url(token), FIRST)
    at = datetime.datetime(2026, 11, 25, hour, 46, tzinfo=datetime.UTC)
    PendingSheet.objects.filter(table=link.table).update(updated_at=at)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    page = client.get(sheet_url(domino_of_four, 1, 1)).content.decode()
    assert "sent by the table from its link at" in page
    assert "a.m.." not in page and "p.m.." not in page


def test_a_confirmed_sheet_from_the_phone_says_the_table_started_it(phone, domino_links, domino_of_four, director,
                                                                    client):
    """Once the referee table confirmed a phone's sheet, the sheet's page says who started it: the table (it read
    "Started by None")."""
    link, token = domino_links[(1, 1)]
    phone.post(table_url(token), FIRST)
    client.force_login(director)
    version = PendingSheet.objects.get(table=link.table).version
    client.post(sheet_url(domino_of_four, 1, 1), {"action": "confirm", "pending_version": version})
    page = client.get(sheet_url(domino_of_four, 1, 1)).content.decode()
    assert "Started by the table, from its link;" in page and "None" not in page


def test_later_hands_from_the_phone_are_confirmed_from_the_board_with_enter(phone, domino_links, domino_of_four,
                                                                           director, client):
    """Hands a table sent after its first ones counted: opened from the board, *Confirm the first entry* has the
    focus (it was on *Next table* of the finished game, so Enter, Enter left the sheet unconfirmed), says the table
    sent them (it said "later entries by None") and leads back to the board."""
    from scoring.board_views import board_url

    link, token = domino_links[(1, 1)]
    phone.post(table_url(token), FIRST)
    client.force_login(director)
    version = PendingSheet.objects.get(table=link.table).version
    client.post(sheet_url(domino_of_four, 1, 1), {"action": "confirm", "pending_version": version})
    phone.post(table_url(token), {**FIRST, **SECOND})  # the game's last hand
    pending = PendingSheet.objects.get(table=link.table)
    page = client.get(sheet_url(domino_of_four, 1, 1) + "?from=board").content.decode()
    assert "None" not in page and "later hands sent by the table from its link" in page
    assert re.findall(r"<[^>]*autofocus[^>]*>", page) == re.findall(r'<button[^>]*id="confirm-entry"[^>]*>', page)
    response = client.post(sheet_url(domino_of_four, 1, 1), {"action": "confirm", "pending_version": pending.version,
                                                              "from": "board"})
    assert response.status_code == 302 and response["Location"] == board_url(domino_of_four, "1")
    assert ScoreSheet.objects.get(table=link.table).derived["finished"]


def test_the_referee_table_types_the_hands_blind_and_sees_the_differences(phone, domino_links, domino_of_four,
                                                                          director, client):
    link, token = domino_links[(1, 1)]
    phone.post(table_url(token), FIRST)
    client.force_login(director)
    differs = client.post(sheet_url(domino_of_four, 1, 1), {"version": "0", **hand(1, 1, [0, 10, 20, 31])})
    assert "The two entries differ" in differs.content.decode()
    assert not ScoreSheet.objects.exists()
    # the sheet shows the table's hands as the first entry: checked against the paper, one button lets them count
    # (a director's decision: the audit keeps the typing that differed, so no plain Confirm beside it)
    pending = PendingSheet.objects.get(table=link.table)
    assert 'id="keep-first"' in differs.content.decode() and 'id="confirm-entry"' not in differs.content.decode()
    confirm = client.post(sheet_url(domino_of_four, 1, 1), {"version": "0", **hand(1, 1, [0, 10, 20, 31]),
                                                            "decide": "first", "pending_version": pending.version})
    assert confirm.status_code == 302 and ScoreSheet.objects.get(table=link.table).derived["totals"]["1"] == 60
    assert AuditEntry.objects.filter(action="sheet.decided").exists()


def test_the_phone_has_the_referee_sheets_rules_and_messages(phone, domino_links, domino_of_four):
    _link, token = domino_links[(1, 1)]
    unreadable = phone.post(table_url(token), {**hand(1, 9, [0, "abc", 4, 2])})
    text = unreadable.content.decode()
    assert unreadable.status_code == 400
    assert "type the seat number of a player of this table (1, 2, 3, 4), not “9”" in text
    assert "“abc” is not a whole number" in text
    winner_with_pips = phone.post(table_url(token), hand(1, 1, [5, 10, 20, 30]))
    assert winner_with_pips.status_code == 400
    assert phone.post(table_url(token), {}).status_code == 400
    assert stored(domino_of_four) == ([], [])


def test_hands_added_after_those_that_count_and_counted_at_once_when_allowed(phone, domino_links, domino_of_four,
                                                                            director):
    domino_of_four.link_entries_count = True
    domino_of_four.save()
    link, token = domino_links[(1, 1)]
    services.enter_sheet(link.table, by=director, entries=[services.working_entries(link.table) or None][0:0]
                         + [{"out": 1, "pips": {"1": 0, "2": 10, "3": 20, "4": 30}}])
    page = phone.get(table_url(token)).content.decode()
    assert 'name="h1-pips-1"' not in page and 'name="h2-pips-1"' in page
    assert phone.post(table_url(token), SECOND).status_code == 302
    sheet = ScoreSheet.objects.get(table=link.table)
    assert sheet.version == 2 and sheet.derived["finished"] and not PendingSheet.objects.exists()
    assert sheet.revisions.last().source_link == link


def test_wrong_revoked_and_other_tables_tokens_are_refused_and_change_nothing(phone, domino_links, domino_of_four,
                                                                           director):
    link, token = domino_links[(1, 1)]
    for wrong in ("x" * 43, token[:-1] + ("A" if token[-1] != "A" else "B"), "short", token + "extra"):
        assert phone.get(table_url(wrong)).status_code in (403, 404)
        assert phone.post(table_url(wrong), FIRST).status_code in (403, 404)
    revoke_link(link, by=director)
    for data in (FIRST, {"action": "problem", "kind": "dispute"}):
        assert phone.post(table_url(token), data).status_code == 403
    assert phone.get(table_url(token)).status_code == 403
    assert stored(domino_of_four) == ([], []) and not TableProblem.objects.exists()
    other, other_token = domino_links[(2, 1)]
    assert phone.post(table_url(other_token), FIRST).status_code == 302
    assert PendingSheet.objects.get().table == other.table  # round 2's link: round 2's table only
    new = reissue_link(TableLink.objects.get(pk=link.pk), by=director)
    assert phone.get(table_url(token_of(new))).status_code == 200 and phone.get(table_url(token)).status_code == 403


def test_a_link_is_rate_limited(phone, domino_links, domino_of_four):
    _link, token = domino_links[(1, 1)]
    for _ in range(REFUSED_LIMIT):
        phone.post(table_url(token), hand(1, 9, [0, 0, 0, 0]))
    assert phone.post(table_url(token), FIRST).status_code == 429
    assert stored(domino_of_four) == ([], [])


def test_a_problem_signalled_shows_on_the_round_page_and_is_closed_there(phone, domino_links, domino_of_four,
                                                                         director, client):
    link, token = domino_links[(1, 1)]
    phone.post(table_url(token), {"action": "problem", "kind": "wrong_player", "note": "seat 3"})
    problem = TableProblem.objects.get()
    assert problem.table == link.table
    client.force_login(director)
    round_url = reverse("tournament:tablegames:round", args=[domino_of_four.slug, 1])
    assert "seat 3" in client.get(round_url).content.decode()
    close = reverse("tournament:tablegames:close_problem", args=[domino_of_four.slug, 1, problem.pk])
    assert client.post(close).status_code == 302
    TableProblem.objects.get(closed_at__isnull=False)
    assert "seat 3" not in client.get(round_url).content.decode()


def test_the_directors_links_page_and_the_qr_code_on_the_sheet(client, domino_of_four, director):
    from scoring.games.tablegames.documents import score_sheets

    client.force_login(director)
    page_url = reverse("tournament:tablegames:links", args=[domino_of_four.slug, 1])
    assert 'id="issue-links"' in client.get(page_url).content.decode()
    client.post(page_url, {"action": "issue"})
    link = TableLink.objects.get(table__round__number=1)
    assert table_url(token_of(link)) in client.get(page_url).content.decode()
    pages = score_sheets(domino_of_four, 1).pages
    assert pages[0]["link"]["url"].endswith(table_url(token_of(link)))
    client.post(page_url, {"action": "revoke", "link": link.pk})
    assert score_sheets(domino_of_four, 1).pages[0]["link"] is None
    assert client.get(reverse("tournament:tablegames:links", args=[domino_of_four.slug, 9])).status_code == 404


def test_the_printed_sheet_carries_the_tables_address_beside_its_qr_code(client, domino_of_four, director):
    """As a Schafkopf list does (and the guide says): the address is printed too, for a phone that cannot read the
    code; the sheet had the QR code only."""
    from documents import render
    from scoring.games.tablegames.documents import score_sheets
    from tests.pdf_text import page_texts

    round_ = Round.objects.get(stage__tournament=domino_of_four, number=1)
    tokens = {link.table.number: token_of(link) for link in issue_links(round_, by=director)}
    first = page_texts(render(score_sheets(domino_of_four, 1), "pdf", tournament=domino_of_four))[0]
    assert table_url(tokens[1]) in "".join(first.split())  # the address breaks across lines


def test_the_links_pages_print_link_opens_the_rounds_score_sheets(client, domino_of_four, director):
    """"Print the score sheets with their QR codes" on round 2's links page opens round 2's score sheets (it led to
    a 404: a document named "sheets" that the table games do not have)."""
    client.force_login(director)
    page = client.get(reverse("tournament:tablegames:links", args=[domino_of_four.slug, 2])).content.decode()
    href = page.split('id="print-sheets"')[0].rsplit('href="', 1)[1].split('"')[0].replace("&amp;", "&")
    response = client.get(href)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert href == reverse("tournament:tablegames:download", args=[domino_of_four.slug, "score-sheets-2", "pdf"])


def test_the_phone_shows_no_more_rows_than_a_fixed_number_of_hands(make_game, add_players, director, phone):
    """A game of three hands: the phone offers three rows, also after a hand was sent (it offered a fourth, which
    the referee table refuses as played after the game was over)."""
    three = make_game("domino", max_hands=3)
    add_players(three, 4)
    seated_services.draw_seating(three, by=director, seed=1)
    token = token_of(issue_links(Round.objects.get(stage__tournament=three, number=1), by=director)[0])
    assert 'name="h3-pips-4"' in phone.get(table_url(token)).content.decode()
    phone.post(table_url(token), FIRST)
    page = phone.get(table_url(token)).content.decode()
    assert 'name="h3-pips-4"' in page and 'name="h4-' not in page


def test_a_patience_has_no_table_links(make_game, add_players, director, phone):
    patience = make_game("domino_patience")
    add_players(patience, 5)
    seated_services.draw_seating(patience, by=director, seed=1)
    round_ = Round.objects.get(stage__tournament=patience, number=1)
    link = issue_links(round_, by=director)[0]
    assert phone.get(table_url(token_of(link))).status_code == 404


def test_the_round_board_reads_each_tables_state(phone, domino_links, domino_of_four, director):
    from scoring import board

    def table_one():
        return game_of(domino_of_four).board(domino_of_four, "1", user=director).items[0]

    link, token = domino_links[(1, 1)]
    assert [item.state for item in game_of(domino_of_four).board(domino_of_four, "1").items] == [board.MISSING]
    phone.post(table_url(token), FIRST)
    assert table_one().state == board.AWAITING and table_one().from_table
    services.confirm_sheet(link.table, by=director)
    assert table_one().state == board.RUNNING
    phone.post(table_url(token), {"action": "problem", "kind": "dispute"})
    phone.post(table_url(token), SECOND)
    services.confirm_sheet(link.table, by=director)
    item = table_one()
    assert item.state == board.COUNTED and item.problems and item.label == "Table 1"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_sent_sheet_is_said_once_in_each_language(phone, domino_links, domino_of_four, language):
    """After a send the page says so in one place: the note saying when it was sent, not a message repeating it."""
    _link, token = domino_links[(1, 1)]
    said = said_after_sending(phone, table_url(token), FIRST, language)
    assert len(said) == 1, said
    assert said == [phone_notes(phone, table_url(token), "sent-note")[language]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_sheet_counted_at_once_is_said_once_in_each_language(phone, domino_links, domino_of_four, language):
    domino_of_four.link_entries_count = True
    domino_of_four.save()
    _link, token = domino_links[(1, 1)]
    said = said_after_sending(phone, table_url(token), {**FIRST, **SECOND}, language)  # 105: the game is over
    assert said == [phone_notes(phone, table_url(token), "counted")[language]]


def test_hands_counted_at_once_before_the_games_end_are_said_once(phone, domino_links, domino_of_four):
    """No note on the page for hands that count while the game goes on: the message alone says it."""
    domino_of_four.link_entries_count = True
    domino_of_four.save()
    _link, token = domino_links[(1, 1)]
    assert said_after_sending(phone, table_url(token), FIRST, "de") == ["Ihr Spielbogen ist erfasst und zählt."]


@pytest.mark.parametrize("key", ["rummi", "quadominos"])
def test_a_sheet_sent_in_the_other_table_games_is_said_once(phone, make_game, add_players, director, key):
    game = make_game(key)
    add_players(game, 4)
    seated_services.draw_seating(game, by=director, seed=1)
    link = issue_links(Round.objects.get(stage__tournament=game, number=1), by=director)[0]
    page = phone.get(table_url(token_of(link))).content.decode()
    assert 'id="ph-send"' in page
    if key == "rummi":
        data = {"h1-out": "1", **{f"h1-penalties-{seat}": typed for seat, typed in enumerate("0579", start=1)}}
    else:
        data = {"h1-winner": "1", **{f"h1-turn_points-{seat}": "10" for seat in range(1, 5)},
                **{f"h1-remaining-{seat}": typed for seat, typed in enumerate("0739", start=1)}}
    said = said_after_sending(phone, table_url(token_of(link)), data, "da")
    assert said == [phone_notes(phone, table_url(token_of(link)), "sent-note")["da"]]


def test_the_phones_draft_key_holds_the_links_hint_and_no_part_of_its_token(phone, domino_links):
    link, token = domino_links[(1, 1)]
    key = draft_key(phone.get(table_url(token)).content.decode())
    assert key == f"table-entry:t{link.table_id}:{link.hint}"
    assert not holds_part_of(key, token)
