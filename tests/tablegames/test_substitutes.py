"""A substitute on a table game's seat (table-games.md, Decision: a player leaves after play started), through the
seated layer Schafkopf uses: the seat's result goes to the seat's player or to the substitute, as the director
chose; the standings say who played whose seat; the prize rule and the season follow."""

import html
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.games.tablegames import services
from scoring.games.tablegames.standings import standings
from scoring.models import ScoreSheet
from scoring.seated import services as seated_services
from tournament.models import Participant, Seat, Table
from tournament.services.errors import DomainError
from tournament.services.participants import set_participant_status
from tournament.services.seasons import evening_ranking

pytestmark = pytest.mark.django_db


def rummi_hand(out, penalties):
    return {"out": out, "hand_rummi": False, "penalties": {str(seat): str(p) for seat, p in penalties.items()}}


def play(table, director, *, skip=()):
    """The table's game in one hand: the first seat present goes out, the second passes the limit."""
    seats = [n for n in sorted(table.seats.values_list("number", flat=True)) if n not in skip]
    first, second, *rest = seats
    return services.enter_sheet(table, by=director, entries=[
        rummi_hand(first, {first: 0, second: 260, **{s: 20 + s for s in rest}})])


def tables(tournament, round_number):
    return Table.objects.filter(round__stage__tournament=tournament, round__number=round_number)


@pytest.fixture
def evening(make_game, add_players, director):
    """Rummi, 8 players at two tables of four, three rounds; player 3 goes home after round 1 and 40, registered
    late, is there to take his seat in round 2."""
    tournament = make_game("rummi")
    add_players(tournament, 8)
    seated_services.draw_seating(tournament, by=director, seed=5)
    for table in tables(tournament, 1):
        play(table, director)
    (late,) = add_players(tournament, 1, start=40)
    gone = tournament.participants.get(number=3)
    set_participant_status(gone, Participant.Status.WITHDRAWN, by=director)
    return tournament, gone, late


def seat_of(player, round_number):
    return Seat.objects.select_related("table__round", "participant").get(participant=player,
                                                                          table__round__number=round_number)


def round_two_with(evening, director, *, to_substitute):
    tournament, gone, late = evening
    seat = seat_of(gone, 2)
    seated_services.set_substitute(seat, late, by=director, points_to_substitute=to_substitute)
    for table in tables(tournament, 2):
        play(table, director)
    return seat, ScoreSheet.objects.get(table=seat.table).derived


def rows_of(tournament, **kwargs):
    return {row.participant.number: row for row in standings(tournament, **kwargs).rows}


def test_the_substitute_plays_the_seat_no_longer_empty(evening, director):
    seat, derived = round_two_with(evening, director, to_substitute=False)
    # the withdrawn player's seat is played: it has a result, nobody left
    assert str(seat.number) in derived["totals"] and "left" not in derived
    assert len(derived["table_points"]) == 4


def test_points_stay_with_the_seat_player_the_substitute_has_no_result_of_his_own(evening, director):
    tournament, gone, late = evening
    seat, derived = round_two_with(evening, director, to_substitute=False)
    rows = rows_of(tournament, after_round=2)
    mine, his = rows[3], rows[40]
    assert mine.rounds[1] == Decimal(derived["table_points"][str(seat.number)])
    assert mine.played_by == [(2, late)] and mine.withdrawn
    # he did not play round 2 himself: no prize unless the director ticks him
    assert mine.missed == [2] and not mine.prize_eligible
    assert his.substitute_only and his.rank is None and his.played_for == [(2, gone)]
    # the season counts the substitute's evening only when the points were his
    assert late.pk not in {row.participant for row in evening_ranking(tournament).rows}


def test_points_to_the_substitute_rank_him_with_that_round(evening, director):
    tournament, gone, late = evening
    seat, derived = round_two_with(evening, director, to_substitute=True)
    rows = rows_of(tournament, after_round=2)
    mine, his = rows[3], rows[40]
    assert mine.rounds[1] is None and mine.missed == [2]
    assert his.rank is not None and not his.substitute_only
    assert his.rounds == [None, Decimal(derived["table_points"][str(seat.number)])]
    assert his.missed == [1] and his.played_for == [(2, gone)]
    for table in tables(tournament, 3):
        play(table, director)
    result = standings(tournament)
    assert result.final
    assert late.pk in {row.participant for row in evening_ranking(tournament).rows}


def test_the_standings_say_who_played_whose_seat(evening, director, client):
    tournament, gone, late = evening
    round_two_with(evening, director, to_substitute=False)
    client.force_login(director)
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", client.get(
        reverse("tournament:tablegames:standings", args=[tournament.slug])).content.decode())).split())
    assert f"withdrawn, round 2 played by 40 {late.name}" in page
    assert f"played round 2 for 3 {gone.name}" in page
    assert "A substitute whose seats' points stay with the players he replaced has no result of his own" in page


def test_a_substitute_who_plays_in_the_round_already_is_refused(evening, director):
    tournament, gone, _late = evening
    busy = tournament.participants.get(number=1)
    with pytest.raises(DomainError):
        seated_services.set_substitute(seat_of(gone, 2), busy, by=director)
    assert seat_of(gone, 2).substitute is None


def test_a_patience_deal_played_by_a_substitute(make_game, add_players, director):
    patience = make_game("domino_patience", "tolveren")
    add_players(patience, 4)
    seated_services.draw_seating(patience, by=director)
    (late,) = add_players(patience, 1, start=40)
    seat = Seat.objects.get(table__round__stage__tournament=patience, table__round__number=1, participant__number=2)
    results = [{"seat": number, "tiles_left": tiles} for number, tiles in ((1, 3), (2, 0), (3, 5), (4, 7))]
    for to_substitute, credited in ((True, 40), (False, 2)):
        seated_services.set_substitute(seat, late, by=director, points_to_substitute=to_substitute)
        sheet = ScoreSheet.objects.filter(table=seat.table).first()
        services.enter_sheet(seat.table, by=director, entries=results if sheet is None else results[::-1],
                             expected_version=sheet.version if sheet else 0, reason="order" if sheet else "")
        rows = {row.participant.number: row for row in standings(patience, after_round=1).rows}
        assert rows[credited].rounds == [0] and rows[credited].rank == 1
        other = rows[2 if credited == 40 else 40]
        assert other.rank is None and other.rounds == [None]
        assert rows[40].played_for and rows[2].played_by


# --- the pages --------------------------------------------------------------------------------------------------


def page_text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def test_the_seating_page_offers_a_substitute_for_each_seat_of_the_round_to_play(evening, director, client):
    tournament, gone, _late = evening
    seat = seat_of(gone, 2)
    client.force_login(director)
    page = client.get(reverse("tournament:tablegames:seating", args=[tournament.slug])).content.decode()
    assert reverse("tournament:tablegames:substitute", args=[tournament.slug, seat.pk]) in page
    # round 1 is in: no substitute offered there
    played = seat_of(gone, 1)
    assert reverse("tournament:tablegames:substitute", args=[tournament.slug, played.pk]) not in page


def test_the_substitute_page_says_what_to_print_again_with_links(evening, director, client):
    tournament, gone, late = evening
    seat = seat_of(gone, 2)
    table = seat.table.number
    client.force_login(director)
    address = reverse("tournament:tablegames:substitute", args=[tournament.slug, seat.pk])
    assert f"The score sheet of round 2, table {table}" in page_text(client.get(address))
    response = client.post(address, {"substitute": late.pk, "points_to_substitute": "on", "reason": "went home"},
                           follow=True)
    text = page_text(response)
    assert (f"Changes saved. Print again: the score sheet of round 2, table {table}; the seating by table (round 2); "
            "the seating by name.") in text
    assert response.redirect_chain[-1][0].endswith("#round-2")
    # the seating page links them
    box = response.content.decode().split('id="reprints"')[1].split("</section>")[0]
    assert "/table/printouts/score-sheets-2.pdf" in box and "/table/printouts/seating-by-table.pdf" in box
    assert f"played by 40 {late.name}" in text and "points to the substitute" in text
    seat.refresh_from_db()
    assert seat.substitute == late and seat.points_to_substitute


# --- the sheets: screen, PDF, phone ------------------------------------------------------------------------------


def test_the_sheets_name_the_substitute_screen_pdf_and_phone(evening, director, client):
    from documents import render
    from scoring.games.tablegames.documents import PRINTOUTS
    from scoring.results.links import issue_links, token_of
    from tests.pdf_text import page_texts

    tournament, gone, late = evening
    seat = seat_of(gone, 2)
    seated_services.set_substitute(seat, late, by=director)
    played_by = f"{gone.name}, played by {late.name}"
    pages = [" ".join(t.split()) for t in page_texts(render(PRINTOUTS.documents(tournament)["score-sheets-2"](),
                                                            "pdf", tournament=tournament))]
    page = next(text for text in pages if f"Table {seat.table.number}" in text)
    assert played_by in page and "withdrawn: seat empty" not in page
    client.force_login(director)
    sheet = page_text(client.get(reverse("tournament:tablegames:sheet", args=[tournament.slug, 2, seat.table.number])))
    assert f"played by {late.name}" in sheet
    (link,) = [link for link in issue_links(seat.table.round, by=director) if link.table_id == seat.table_id]
    phone = client.get(reverse("table:entry", args=[token_of(link)]))
    assert played_by in page_text(phone)
    # the substitute plays: his seat has its fields
    assert f'name="h1-penalties-{seat.number}"' in phone.content.decode()


def test_the_phone_has_no_field_for_an_empty_seat_nor_for_a_player_who_left(evening, director, client):
    from scoring.results.links import issue_links, token_of

    tournament, gone, _late = evening
    empty = seat_of(gone, 2)
    tokens = {link.table_id: token_of(link) for link in issue_links(empty.table.round, by=director)}
    page = client.get(reverse("table:entry", args=[tokens[empty.table_id]])).content.decode()
    assert f'name="h1-penalties-{empty.number}"' not in page
    others = [n for n in sorted(empty.table.seats.values_list("number", flat=True)) if n != empty.number]
    assert all(f'name="h1-penalties-{n}"' in page for n in others)
    # a player of another table leaves after hand 1: no field for him from hand 2 on
    table = tables(tournament, 2).exclude(pk=empty.table_id).first()
    services.enter_sheet(table, by=director, entries=[rummi_hand(1, {1: 0, 2: 10, 3: 20, 4: 30})])
    services.leave_table(table, 4, 1, by=director)
    page = client.get(reverse("table:entry", args=[tokens[table.pk]])).content.decode()
    assert 'name="h2-penalties-4"' not in page and 'name="h2-penalties-3"' in page


# --- a substitute mid-game, from the sheet's "A player leaves the table" ----------------------------------------


def test_a_substitute_takes_the_seat_mid_game_no_departure_is_recorded(make_game, add_players, director, client):
    tournament = make_game("rummi")
    add_players(tournament, 8)
    seated_services.draw_seating(tournament, by=director, seed=5)
    (late,) = add_players(tournament, 1, start=40)
    table = tables(tournament, 1).first()
    services.enter_sheet(table, by=director, entries=[rummi_hand(1, {1: 0, 2: 10, 3: 20, 4: 30})])
    player = Seat.objects.get(table=table, number=3).participant
    client.force_login(director)
    address = reverse("tournament:tablegames:sheet", args=[tournament.slug, 1, table.number])
    form = page_text(client.get(address))
    assert f"a substitute takes it: 40 {late.name}" in form
    posted = {"action": "leave", "leave_seat": "3", "leave_after": "1", "leave_to": str(late.pk),
              "leave_points": "on", "version": "1"}
    asked = page_text(client.post(address, posted))
    assert f"{late.name} takes the seat of {player.name} at table {table.number} from the next hand?" in asked
    assert Seat.objects.get(table=table, number=3).substitute is None, "nothing before the confirmation"
    done = page_text(client.post(address, {**posted, "confirmed": "1"}, follow=True))
    assert f"{late.name} plays the seat of {player.name} from the next hand on." in done
    seat = Seat.objects.get(table=table, number=3)
    assert seat.substitute == late and seat.points_to_substitute
    player.refresh_from_db()
    assert player.status == Participant.Status.WITHDRAWN
    # the seat plays on: hand 2 has his field, no departure on the sheet
    assert 'name="h2-penalties-3"' in client.get(address).content.decode()
    sheet = services.enter_sheet(table, by=director, expected_version=1, entries=[
        *ScoreSheet.objects.get(table=table).entries, rummi_hand(3, {1: 260, 2: 10, 3: 0, 4: 30})])
    assert sheet.derived["finished"] and "left" not in sheet.derived
    row = rows_of(tournament, after_round=1)[40]
    assert row.rounds == [Decimal(sheet.derived["table_points"]["3"])] and row.played_for == [(1, player)]


def test_a_substitute_who_plays_elsewhere_in_the_round_is_refused_and_nothing_changes(evening, director, client):
    tournament, gone, _late = evening
    table = tables(tournament, 2).first()
    services.enter_sheet(table, by=director, entries=[rummi_hand(1, {n: 0 if n == 1 else 10 for n in (1, 2, 3, 4)
                                                                      if n in set(table.seats.values_list(
                                                                          "number", flat=True))})])
    busy = Seat.objects.filter(table__round__number=2).exclude(table=table).first().participant
    client.force_login(director)
    address = reverse("tournament:tablegames:sheet", args=[tournament.slug, 2, table.number])
    page = page_text(client.post(address, {"action": "leave", "leave_seat": "2", "leave_after": "1",
                                           "leave_to": str(busy.pk), "version": "1", "confirmed": "1"}))
    assert "Choose a substitute who does not play in this round." in page
    assert not Seat.objects.filter(table=table).exclude(substitute=None).exists()
