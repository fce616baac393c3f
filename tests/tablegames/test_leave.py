"""A table-game player who leaves mid-evening (table-games.md, Decision: a player leaves after play started):
the departure on the sheet, the table playing on, the empty seat in the rounds after, standings and prizes."""

import dataclasses
import html
from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from scoring.games.tablegames import services
from scoring.games.tablegames.config import settings_of
from scoring.games.tablegames.documents import score_sheets
from scoring.games.tablegames.standings import standings
from scoring.models import ScoreSheet
from scoring.seated import services as seated_services
from tournament.models import AuditEntry, Participant, Seat, Table
from tournament.services.errors import DomainError

pytestmark = pytest.mark.django_db


def rummi_hand(out, penalties):
    """A rummi hand: who went out and the penalty of each seat given (seat -> typed)."""
    return {"out": out, "hand_rummi": False, "penalties": {str(seat): str(p) for seat, p in penalties.items()}}


@pytest.fixture
def evening(make_game, add_players, director):
    """A rummi evening of 8 players at two tables of four, three rounds."""
    tournament = make_game("rummi")
    add_players(tournament, 8)
    seated_services.draw_seating(tournament, by=director, seed=5)
    return tournament


def table(tournament, round_number, number=1):
    return Table.objects.get(round__stage__tournament=tournament, round__number=round_number, number=number)


def player_at(tab, seat):
    return Seat.objects.get(table=tab, number=seat).participant


def three_hands():
    return [rummi_hand(1, {1: 0, 2: 10, 3: 20, 4: 30}), rummi_hand(2, {1: 5, 2: 0, 3: 15, 4: 25}),
            rummi_hand(3, {1: 10, 2: 10, 3: 0, 4: 5})]


def test_he_leaves_after_hand_3_the_table_plays_on_and_he_finishes_last(evening, director):
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands())
    leaver = player_at(tab, 3)
    services.leave_table(tab, 3, 3, by=director)
    sheet = ScoreSheet.objects.get(table=tab)
    assert sheet.entries[2]["left"] == [3]
    leaver.refresh_from_db()
    assert leaver.status == Participant.Status.WITHDRAWN
    assert AuditEntry.objects.filter(tournament=evening, action="participant.withdrawn").exists()
    # he has no entry after he left; the table plays on with three to the limit
    entries = [*sheet.entries, rummi_hand(1, {1: 0, 2: 260, 4: 40})]
    sheet = services.enter_sheet(tab, by=director, entries=entries, expected_version=sheet.version)
    derived = sheet.derived
    assert derived["finished"] and derived["left"] == {"3": 3}
    assert derived["totals"]["3"] == 35  # what he had when he left
    # lowest penalty but behind every opponent: each of them gains the point
    assert derived["table_points"] == {"1": "3", "2": "1", "3": "0", "4": "2"}


def test_a_value_typed_for_him_after_he_left_is_refused_with_a_clear_message(evening, director):
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands())
    services.leave_table(tab, 3, 3, by=director)
    sheet = ScoreSheet.objects.get(table=tab)
    with pytest.raises(services.SheetRefused) as refused:
        services.enter_sheet(tab, by=director, entries=[*sheet.entries, rummi_hand(1, {1: 0, 2: 9, 3: 7, 4: 4})],
                             expected_version=sheet.version)
    assert "left the table after hand 3" in refused.value.message
    assert ScoreSheet.objects.get(table=tab).version == sheet.version


def test_a_departure_needs_a_hand_entered_and_a_director(evening, director, django_user_model):
    tab = table(evening, 1)
    with pytest.raises(DomainError) as refused:
        services.leave_table(tab, 3, 1, by=director)
    assert refused.value.field == "after_hand"
    services.enter_sheet(tab, by=director, entries=three_hands())
    with pytest.raises(DomainError):
        services.leave_table(tab, 3, 4, by=director)
    stranger = django_user_model.objects.create_user("stranger", password="x")
    with pytest.raises(DomainError):
        services.leave_table(tab, 3, 2, by=stranger)
    assert "left" not in str(ScoreSheet.objects.get(table=tab).entries)
    assert player_at(tab, 3).status == Participant.Status.ACTIVE


@pytest.fixture
def pairs(make_game, add_players, director):
    """Rummi at tables of two, drawn; table 1 of round 1 has played one hand."""
    tournament = make_game("rummi")
    sizes = dataclasses.replace(settings_of(tournament), table_sizes=(2,))
    seated_services.update_settings(tournament, sizes, by=director)
    add_players(tournament, 4)
    seated_services.draw_seating(tournament, by=director, seed=1)
    services.enter_sheet(table(tournament, 1), by=director, entries=[rummi_hand(1, {1: 0, 2: 10})])
    return tournament


def test_a_table_of_two_cannot_play_on_a_substitute_is_needed(pairs, director):
    tab = table(pairs, 1)
    with pytest.raises(services.SheetRefused) as refused:
        services.leave_table(tab, 2, 1, by=director)
    assert "substitute" in refused.value.message
    # table games have substitutes now: the old "none in this app" is gone, the message offers one
    assert "none in this app" not in refused.value.message and "Let a substitute take the seat" in refused.value.message
    assert player_at(tab, 2).status == Participant.Status.ACTIVE
    assert "left" not in str(ScoreSheet.objects.get(table=tab).entries)


def test_a_table_left_too_small_links_the_substitute_page_of_the_seat(pairs, director, client):
    """The sheet said the table "cannot play the round (table games have no substitutes in this app yet)" and told
    to end the game: it now links the substitute page of the seat (de and da as well)."""
    tournament = pairs
    tab = table(tournament, 1)
    seat = Seat.objects.get(table=tab, number=2)
    client.force_login(director)
    page = client.post(url(tournament, "sheet", 1, 1), {"action": "leave", "leave_seat": "2", "leave_after": "1",
                                                         "version": "1", "confirmed": "1"}).content.decode()
    assert url(tournament, "substitute", seat.pk) in page and "have none in this app" not in page
    # a later round whose empty seat leaves one player: the sheet links that seat's substitute page
    seat.participant.status = Participant.Status.WITHDRAWN
    seat.participant.save()
    later = Seat.objects.get(table__round__number=2, participant=seat.participant)
    for language in ("en", "de", "da"):
        client.cookies["django_language"] = language
        text = text_of(client.get(url(tournament, "sheet", 2, later.table.number)))
        assert url(tournament, "substitute", later.pk) in text, language
        assert "no substitutes in this app" not in text and "keine Ersatzspieler" not in text, language


def test_in_the_next_round_his_seat_is_empty_a_smaller_table(evening, director):
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands())
    leaver = player_at(tab, 3)
    services.leave_table(tab, 3, 3, by=director)
    later = Seat.objects.get(table__round__number=2, participant=leaver).table
    seats = {s.number: s.participant for s in later.seats.all()}
    empty = next(n for n, p in seats.items() if p == leaver)
    others = [n for n in seats if n != empty]
    hand = rummi_hand(others[0], {n: 0 if n == others[0] else 260 if n == others[1] else 20 for n in others})
    sheet = services.enter_sheet(later, by=director, entries=[hand])
    assert sheet.derived["finished"]
    assert set(sheet.derived["totals"]) == {str(n) for n in others}
    assert sorted(Decimal(v) for v in sheet.derived["table_points"].values()) == [0, 1, 2]  # among three
    ranked = {row.participant.pk: row for row in standings(evening, after_round=2).rows}
    assert ranked[leaver.pk].withdrawn
    assert ranked[leaver.pk].rounds[1] is None  # no result in round 2


def test_withdrawn_player_with_hands_on_the_sheet_must_be_marked_as_left(evening, director):
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands()[:1])
    leaver = player_at(tab, 3)
    leaver.status = Participant.Status.WITHDRAWN
    leaver.save()
    with pytest.raises(services.SheetRefused) as refused:
        services.enter_sheet(tab, by=director, entries=[three_hands()[0], rummi_hand(1, {1: 0, 2: 5, 4: 6})],
                             expected_version=1)
    assert "is withdrawn" in refused.value.message


# --- the pages ------------------------------------------------------------------------------------------


def url(tournament, name, *args):
    return reverse(f"tournament:tablegames:{name}", args=[tournament.slug, *args])


def text_of(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def test_the_sheet_page_asks_once_then_marks_him_left_and_drops_his_fields(evening, director, client):
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands())
    name = player_at(tab, 3).name
    client.force_login(director)
    page = text_of(client.get(url(evening, "sheet", 1, 1)))
    assert "A player leaves the table" in page and 'name="leave_after" value="3"' in page
    asked = client.post(url(evening, "sheet", 1, 1), {"action": "leave", "leave_seat": "3", "leave_after": "3",
                                                       "version": "1"})
    assert f"{name} left table 1 after hand 3?" in text_of(asked)
    assert "left" not in str(ScoreSheet.objects.get(table=tab).entries), "nothing before the confirmation"
    done = client.post(url(evening, "sheet", 1, 1), {"action": "leave", "leave_seat": "3", "leave_after": "3",
                                                      "version": "1", "confirmed": "1"}, follow=True)
    page = text_of(done)
    assert f"{name} left after hand 3 and is withdrawn." in page
    assert 'name="h4-penalties-3"' not in page and 'name="h4-penalties-2"' in page
    # the next hand is typed without him
    client.post(url(evening, "sheet", 1, 1), {"version": "2", "action": "save", "h4-out": "1",
                                              "h4-penalties-1": "0", "h4-penalties-2": "260", "h4-penalties-4": "9"})
    derived = ScoreSheet.objects.get(table=tab).derived
    assert derived["finished"] and derived["table_points"]["3"] == "0"


def test_a_departure_without_a_hand_number_is_refused_on_the_page(evening, director, client):
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands())
    client.force_login(director)
    response = client.post(url(evening, "sheet", 1, 1), {"action": "leave", "leave_seat": "3", "leave_after": "x",
                                                          "version": "1", "confirmed": "1"})
    assert "Say after which hand he left" in text_of(response)
    assert player_at(tab, 3).status == Participant.Status.ACTIVE


def test_standings_mark_him_and_the_director_ticks_him_eligible(evening, director, client):
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands())
    leaver = player_at(tab, 3)
    services.leave_table(tab, 3, 3, by=director)
    sheet = ScoreSheet.objects.get(table=tab)
    services.enter_sheet(tab, by=director, entries=[*sheet.entries, rummi_hand(1, {1: 0, 2: 260, 4: 40})],
                         expected_version=sheet.version)
    client.force_login(director)
    page = text_of(client.get(url(evening, "standings")))
    assert "withdrawn, not eligible: did not play every round" in page
    assert "Prize eligibility" in page
    # a table game plays for no prize money: the tick has no empty "Prize" column
    assert '<th scope="col">Prize</th>' not in client.get(url(evening, "standings")).content.decode()
    client.post(url(evening, "prize_eligibility"), {"participant": leaver.pk, "eligible": "on"})
    leaver.refresh_from_db()
    assert leaver.prize_eligible
    assert "did not play every round, eligible by the director's decision" in text_of(
        client.get(url(evening, "standings")))
    row = next(r for r in standings(evening).rows if r.participant == leaver)
    assert row.missed == [1] and row.prize_eligible


def test_the_score_sheet_of_a_later_round_leaves_his_seat_empty(evening, director):
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands())
    leaver = player_at(tab, 3)
    services.leave_table(tab, 3, 3, by=director)
    document = score_sheets(evening, 2)
    later = next(page for page in document.pages if leaver in [s.participant for s in page["table"].seats])
    assert [s.participant for s in later["empty"]] == [leaver]
    assert leaver not in [s.participant for s in later["seats"]] and len(later["seats"]) == 3
    text = render_to_string(document.template_name, {**document.context, **later})
    assert f"{leaver.name} – withdrawn: seat empty" in text
    assert text.count(leaver.name) == 1


def test_the_referee_sheet_offers_no_hand_1_field_for_an_empty_seat(evening, director, client):
    """A player who left in round 1: his seat in round 2 is empty (table-games.md, Decision), so the referee's
    sheet of that table offers no field for him, already in hand 1 (it offered his hand-1 fields until a hand was
    entered, and the printed sheet and the phone leave him out)."""
    tab = table(evening, 1)
    services.enter_sheet(tab, by=director, entries=three_hands())
    leaver = player_at(tab, 3)
    services.leave_table(tab, 3, 3, by=director)
    later = Seat.objects.get(table__round__number=2, participant=leaver)
    others = [n for n in later.table.seats.values_list("number", flat=True) if n != later.number]
    client.force_login(director)
    page = client.get(url(evening, "sheet", 2, later.table.number)).content.decode()
    assert f'name="h1-penalties-{others[0]}"' in page  # the players at the table have their fields
    assert f'name="h1-penalties-{later.number}"' not in page
