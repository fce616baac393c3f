"""The player register and seasons with the database: links, merge, take-over, ranking, met_before."""

import datetime
import json
import random
import re
from collections import Counter
from decimal import Decimal
from itertools import combinations

import pytest

from scoring.games.schafkopf import services as schafkopf
from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.demo import enter_random_results, random_list
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tournament.models import AuditEntry, Participant, Person, Season, Seat
from tournament.services import register, seasons
from tournament.services.errors import DomainError
from tournament.services.participants import add_participant, update_participant


def enter_one_list(tournament, director):
    """The list of round 1's first table only: the evening stays provisional."""
    table = seated_tables(tournament)[1][0]
    entries = random_list(random.Random(5), settings_of(tournament).games_at(table.size), table.size)
    schafkopf.enter_sheet(table.seats[0].table, by=director, mode="games", entries=entries)


@pytest.fixture
def season(director):
    return seasons.create_season(by=director, name="Season 2026", game="schafkopf", scoring=Season.Scoring.PLACES,
                                 place_points=["10", "8", "6", "5", "4", "3", "2", "1"], best_of=2, min_evenings=2)


def test_a_new_player_links_to_the_register_entry_of_the_same_name_and_club(director, make_tournament):
    one = make_tournament(director, name="One", game="schafkopf")
    two = make_tournament(director, name="Two", game="schafkopf")
    a = add_participant(one, by=director, first_name="Anna", last_name="Huber", club="SK Au")
    b = add_participant(two, by=director, first_name="anna ", last_name="HUBER", club="sk au")
    c = add_participant(two, by=director, first_name="Anna", last_name="Huber", club="Other club",
                        confirm_duplicate=True)
    assert a.person == b.person != c.person
    assert Person.objects.count() == 2
    # a second Anna Huber of SK Au in the same tournament is someone else
    d = add_participant(one, by=director, first_name="Anna", last_name="Huber", club="SK Au", confirm_duplicate=True)
    assert d.person != a.person


def test_a_picked_register_entry_is_linked_and_cannot_play_twice(director, make_tournament):
    one = make_tournament(director, name="One", game="schafkopf")
    person = register.create_person(by=director, first_name="Sepp", last_name="Maier", contact="0171 555")
    p = add_participant(one, by=director, first_name="Josef", last_name="Maier", person=person)
    assert p.person == person
    with pytest.raises(DomainError):
        add_participant(one, by=director, first_name="Sepp", last_name="Maier", person=person)
    assert one.participants.count() == 1


def test_suggestions_find_every_typed_word(director):
    register.create_person(by=director, first_name="Anna", last_name="Huber", club="SK Au")
    register.create_person(by=director, first_name="Hans", last_name="Huber", club="Moosach")
    club = director.memberships.get().organisation
    assert [p.first_name for p in register.suggest("hub", organisation=club)] == ["Anna", "Hans"]
    assert [p.first_name for p in register.suggest("huber moos", organisation=club)] == ["Hans"]
    assert register.suggest("   ", organisation=club) == []


def test_merging_two_entries_moves_the_participations_and_is_audited(director, make_tournament):
    one = make_tournament(director, name="One", game="schafkopf")
    two = make_tournament(director, name="Two", game="schafkopf")
    a = add_participant(one, by=director, first_name="Anna", last_name="Huber", club="SK Au")
    b = add_participant(two, by=director, first_name="Anne", last_name="Huber", club="SK Au")
    other = b.person
    register.update_person(other, by=director, contact="anna@example.org")
    register.merge_persons(a.person, other, by=director, reason="typo")
    b.refresh_from_db()
    assert b.person == a.person and not Person.objects.filter(pk=other.pk).exists()
    assert Person.objects.get(pk=a.person.pk).contact == "anna@example.org"
    entry = AuditEntry.objects.get(action="person.merge")
    assert entry.before["merged"]["first_name"] == "Anne" and entry.reason == "typo"
    assert "anna@example.org" not in str(AuditEntry.objects.filter(action="person.update").values("after"))


def test_a_name_corrected_at_the_desk_is_corrected_in_the_register(director, make_tournament):
    """A typo at the desk made a register entry of the typo: the correction at the desk reaches it, so the
    season does not show the typo and the next evening's correct spelling finds the same person."""
    one = make_tournament(director, name="One", game="schafkopf")
    two = make_tournament(director, name="Two", game="schafkopf")
    typo = add_participant(one, by=director, first_name="Josef", last_name="Hubr", club="SK Au")
    update_participant(typo, by=director, last_name="Huber")
    assert Person.objects.get(pk=typo.person_id).last_name == "Huber"
    again = add_participant(two, by=director, first_name="Josef", last_name="Huber", club="SK Au")
    assert again.person_id == typo.person_id and Person.objects.count() == 1


def test_a_desk_correction_to_a_known_player_links_the_register_entry_of_earlier_evenings(director,
                                                                                        make_tournament):
    one = make_tournament(director, name="One", game="schafkopf")
    two = make_tournament(director, name="Two", game="schafkopf")
    known = add_participant(one, by=director, first_name="Anna", last_name="Huber", club="SK Au")
    typo = add_participant(two, by=director, first_name="Ana", last_name="Huber", club="SK Au")
    update_participant(typo, by=director, first_name="Anna")
    typo.refresh_from_db()
    assert typo.person_id == known.person_id and Person.objects.count() == 1
    assert AuditEntry.objects.filter(action="person.merge").exists()


def test_a_desk_correction_leaves_a_register_entry_of_other_evenings_alone(director, make_tournament):
    one = make_tournament(director, name="One", game="schafkopf")
    two = make_tournament(director, name="Two", game="schafkopf")
    add_participant(one, by=director, first_name="Anna", last_name="Huber", club="SK Au")
    here = add_participant(two, by=director, first_name="Anna", last_name="Huber", club="SK Au")
    update_participant(here, by=director, first_name="Hanna")  # another person on this entry: the register stays
    assert Person.objects.get(pk=here.person_id).first_name == "Anna"


def test_two_people_of_one_tournament_cannot_be_merged(director, make_tournament):
    one = make_tournament(director, name="One", game="schafkopf")
    a = add_participant(one, by=director, first_name="Anna", last_name="Huber")
    b = add_participant(one, by=director, first_name="Hans", last_name="Huber")
    with pytest.raises(DomainError):
        register.merge_persons(a.person, b.person, by=director)
    assert Person.objects.count() == 2


def test_only_a_director_keeps_the_register(django_user_model, director):
    nobody = django_user_model.objects.create_user(username="nobody", password="x")
    with pytest.raises(DomainError):
        register.create_person(by=nobody, last_name="Huber")
    assert not Person.objects.exists()


def test_taking_the_players_of_an_earlier_tournament(director, make_tournament):
    before = make_tournament(director, name="Before", game="schafkopf")
    for first in ("Anna", "Bert", "Carl"):
        add_participant(before, by=director, first_name=first, last_name="Huber", club="SK Au")
    carl = before.participants.get(first_name="Carl")
    carl.status = Participant.Status.WITHDRAWN
    carl.save()
    now = make_tournament(director, name="Now", game="schafkopf")
    add_participant(now, by=director, first_name="Bert", last_name="Huber", club="SK Au")
    created = register.take_participants(now, before, by=director)
    assert [p.name for p in created] == ["Anna Huber"]
    assert sorted(now.participants.values_list("number", flat=True)) == [1, 2]
    assert created[0].person == before.participants.get(first_name="Anna").person
    assert AuditEntry.objects.filter(action="participant.take_over", tournament=now).exists()
    voms = make_tournament(director, name="Voms", game="voms")
    with pytest.raises(DomainError):
        register.take_participants(now, voms, by=director)


def test_taken_over_players_keep_their_numbers_where_free(director, make_tournament):
    """A regular keeps his number from evening to evening: a withdrawn player of the earlier evening leaves a gap,
    the others do not move up into it; a number taken in the new tournament is given anew, after the others."""
    before = make_tournament(director, name="Before", game="schafkopf")
    for first in ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gerd"):
        add_participant(before, by=director, first_name=first, last_name="Huber", club="SK Au")
    fritz = before.participants.get(first_name="Fritz")
    fritz.status = Participant.Status.WITHDRAWN
    fritz.save()
    now = make_tournament(director, name="Now", game="schafkopf")
    add_participant(now, by=director, first_name="Zoe", last_name="New", club="SK Au")
    created = register.take_participants(now, before, by=director)
    numbers = dict(now.participants.values_list("first_name", "number"))
    assert numbers == {"Zoe": 1, "Bert": 2, "Carl": 3, "Dora": 4, "Emil": 5, "Gerd": 7, "Anna": 8}
    assert [p.number for p in created] == [2, 3, 4, 5, 7, 8]
    # the evening after: the same numbers again
    later = make_tournament(director, name="Later", game="schafkopf")
    register.take_participants(later, now, by=director)
    assert dict(later.participants.values_list("first_name", "number")) == numbers


def test_place_points_are_parsed_and_checked():
    assert seasons.parse_place_points("25, 20; 16 12.5") == ["25", "20", "16", "12.5"]
    for wrong in ("25 x", "-1", "1e9", "NaN", "0.25"):
        with pytest.raises(DomainError):
            seasons.parse_place_points(wrong)


def test_the_season_ranking_counts_final_evenings_best_two(director, season, evening, names):
    first = evening(10, names[:16], season=season, seed=1)
    second = evening(17, names[:12] + [f"Q{i} New{i}" for i in range(4)], season=season, seed=2)
    third = evening(24, names[4:16] + [f"Q{i} New{i}" for i in range(4)], season=season, seed=3, results=False)
    enter_one_list(third, director)
    table = seasons.season_table(season)
    assert [e.final for e in table.evenings] == [True, True, False]
    assert table.provisional
    by_name = {row.person.name: row for row in table.rows}
    # P1 played two final evenings: ranked; the newcomers only one final: unranked; everyone of the third
    # evening shows a provisional cell, not counted
    assert by_name["P1 Player1"].rank is not None
    places = {1: dict(), 2: dict()}
    for number, tournament in ((1, first), (2, second)):
        for row in seasons.evening_ranking(tournament).rows:
            places[number][Participant.objects.get(pk=row.participant).person_id] = row.place
    points = dict(enumerate([Decimal(v) for v in season.place_points], start=1))
    for row in table.rows:
        played = [n for n in (1, 2) if row.person.pk in places[n]]
        assert row.evenings == len(played)
        assert row.total == sum((points.get(places[n][row.person.pk], Decimal(0)) for n in played), Decimal(0))
        assert (row.rank is not None) == (len(played) >= 2)
        if 3 in row.cells:
            assert row.cells[3].provisional and not row.cells[3].counted and row.cells[3].worth is None
    assert sum(3 in row.cells for row in table.rows) == 4, "the four players of the one list entered"
    ranked = [r for r in table.rows if r.rank is not None]
    assert [r.total for r in ranked] == sorted((r.total for r in ranked), reverse=True)
    assert len(ranked) == 12
    assert by_name["Q0 New0"].rank is None and by_name["Q0 New0"].stats.evenings == 1


def test_a_season_director_only_changes_the_season(django_user_model, make_director, season):
    other = make_director("other")
    with pytest.raises(DomainError):
        seasons.update_season(season, by=other, name="Mine")
    with pytest.raises(DomainError):
        seasons.update_season(season, by=season.created_by, scoring=Season.Scoring.PLACES, place_points=[])
    season.refresh_from_db()
    assert season.name == "Season 2026" and season.place_points


def test_a_tournament_of_another_game_is_not_an_evening(director, season, make_tournament):
    voms = make_tournament(director, name="Voms", game="voms")
    with pytest.raises(DomainError):
        seasons.add_evening(season, voms, by=director)
    voms.refresh_from_db()
    assert voms.season is None


def test_met_before_counts_every_table_shared_in_earlier_evenings(director, season, evening, names):
    first = evening(10, names[:16], season=season, seed=1, results=False)
    second = evening(17, names[:8], season=season, seed=2, results=False)
    now = evening(24, names[:12], season=season, seed=3, results=False)
    expected = Counter()
    number = {p.person_id: p.number for p in now.participants.all()}
    for earlier in (first, second):
        tables = {}
        for seat in Seat.objects.filter(table__round__stage__tournament=earlier).select_related("participant"):
            tables.setdefault(seat.table_id, []).append(seat.participant.person_id)
        for persons in tables.values():
            for a, b in combinations(persons, 2):
                if a in number and b in number:
                    expected[frozenset((number[a], number[b]))] += 1
    met = seasons.met_before(now)
    assert met == dict(expected) and met
    # the first evening knows no earlier one; a tournament in no season none at all
    assert seasons.met_before(first) == {}
    first.season = None
    first.save()
    assert seasons.met_before(first) == {}


# --- the tournament file carries the register links ----------------------------------------------------------


def test_the_file_carries_register_links_and_import_matches_by_name_and_club(director, make_tournament, season):
    from tournament.transfer import check_tournament_file, export_tournament, import_tournament

    tournament = make_tournament(director, name="Export me", game="schafkopf")
    anna = add_participant(tournament, by=director, first_name="Anna", last_name="Huber", club="SK Au")
    register.update_person(anna.person, by=director, contact="0171 secret")
    hans = add_participant(tournament, by=director, first_name="Hans", last_name="Wolf", club="SK Au")
    seasons.add_evening(season, tournament, by=director)
    data = export_tournament(tournament)
    assert b"0171 secret" not in data and b'"season"' not in data
    rows = next(t["rows"] for t in json.loads(data)["models"] if t["model"] == "tournament.participant")
    assert rows[0]["person"] == {"first_name": "Anna", "last_name": "Huber", "club": "SK Au"}
    # here: Anna is known exactly; Hans Wolf is known in another club only (unsure); nobody else
    other_hans = Person.objects.create(first_name="Hans", last_name="Wolf", club="Moosach")
    hans.person.delete()
    count = Person.objects.count()
    preview = check_tournament_file(data, by=director)
    assert Person.objects.count() == count, "the trial import leaves the register as it was"
    assert [(p.label, p.candidates) for p in preview.people] == [
        ("Hans Wolf (SK Au)", ((other_hans.pk, str(other_hans)),))]
    imported = import_tournament(data, by=director, people={preview.people[0].key: other_hans.pk})
    assert imported.season is None
    assert imported.participants.get(last_name="Huber").person == anna.person
    assert imported.participants.get(last_name="Wolf").person == other_hans
    # answered "someone else": a new entry
    again = import_tournament(data, by=director, people={preview.people[0].key: None})
    new_hans = again.participants.get(last_name="Wolf").person
    assert new_hans not in (other_hans, None) and new_hans.club == "SK Au"


def test_a_bad_register_link_in_the_file_is_refused(director, make_tournament):
    from tournament.transfer import TransferError, export_tournament, import_tournament

    tournament = make_tournament(director, name="Export me", game="schafkopf")
    add_participant(tournament, by=director, first_name="Anna", last_name="Huber")
    document = json.loads(export_tournament(tournament))
    for table in document["models"]:
        if table["model"] == "tournament.participant":
            table["rows"][0]["person"] = {"first_name": "A", "last_name": 5, "club": ""}
    before = Person.objects.count()
    with pytest.raises(TransferError):
        import_tournament(json.dumps(document).encode(), by=director)
    assert Person.objects.count() == before


def test_an_evening_of_a_season_is_drawn_keeping_apart_who_met_before(director, season, evening, names, client):
    """The draw of a season's evening passes `met_before` to the seating: the pairs who met at the earlier
    evenings are counted in the draw's record, and with 16 players over 2 rounds nobody meets again."""
    from tournament.models import Draw

    evening(3, names[:16], season=season, seed=1, results=False)
    now = evening(10, names[:16], season=season, seed=2, results=False)
    params = Draw.objects.filter(tournament=now, kind=Draw.Kind.SEATING).latest("pk").params
    assert params["met_before"] == len(seasons.met_before(now)) > 0
    assert params["met_before_again"] == 0
    client.force_login(director)
    page = client.get(f"/manage/{now.slug}/schafkopf/seating/").content.decode()
    assert 'id="met-before"' in page and "0 of them meet again tonight" in page
    # outside a season the draw records nothing of the kind
    alone = evening(17, names[:16], seed=3, results=False)
    assert "met_before" not in Draw.objects.filter(tournament=alone, kind=Draw.Kind.SEATING).latest("pk").params


def test_the_season_pdf_keeps_every_row_whole_and_fills_its_pages(director, season, make_tournament):
    """A club's season: 48 people with long names and clubs over five evenings. Rows whose names wrap were cut
    into pages as if one line high: a page overflowed, a row was split across two pages (its name on the next),
    and every further page began half empty (10 pages for 66 people)."""
    from tests.pdf_text import page_texts
    from tournament.season_documents import render_season

    clubs = ["Schafkopffreunde Dachau", "Ober-Unter Freising", "Stammtisch Erding", "Trumpf Landshut"]
    for day in range(1, 6):
        tournament = make_tournament(director, name=f"Evening {day}", game="schafkopf",
                                     date=datetime.date(2026, 1, day))
        for i in range(48):
            add_participant(tournament, by=director, first_name=f"Korbinian{i}", last_name=f"Obermeier-Steiner{i}",
                            club=clubs[i % 4])
        seasons.add_evening(season, tournament, by=director)
        seated_services.draw_seating(tournament, by=director, seed=day)
        enter_random_results(tournament, director, random.Random(day))
    pages = page_texts(render_season(season, "pdf"))
    for i in range(48):
        # the whole row on one page: its rank and the name beside it
        assert any(re.search(rf"^\d+ Korbinian{i}\b", page, re.MULTILINE) for page in pages), i
    # ranking and statistics of 48 people, about 40 rows a page, and the season's picture on a page of its own
    assert len(pages) <= 6, len(pages)
    assert "Saisonpunkte Abend für Abend" in pages[-1]


@pytest.mark.parametrize("points_to_substitute", [False, True])
def test_a_substitutes_evening_counts_in_his_season_only_when_the_points_were_his(director, season, evening, names,
                                                                                   points_to_substitute):
    """table-games.md, Decision (prizes and withdrawn players): the season counts the evenings a player played; a
    substitute's evening counts in his own season only when the seat's points were credited to him."""
    from tournament.services.participants import set_participant_status

    tournament = evening(10, names[:16], season=season, seed=1, results=False)
    late = add_participant(tournament, by=director, first_name="Sepp", last_name="Late", club="SK Au")
    gone = tournament.participants.get(number=3)
    set_participant_status(gone, Participant.Status.WITHDRAWN, by=director)
    seat = Seat.objects.get(participant=gone, table__round__number=2)
    seated_services.set_substitute(seat, late, by=director, points_to_substitute=points_to_substitute)
    enter_random_results(tournament, director, random.Random(1))
    table = seasons.season_table(season)
    assert table.evenings[0].final
    by_person = {row.person.pk: row for row in table.rows}
    late.refresh_from_db()
    gone.refresh_from_db()
    assert late.person_id is not None and gone.person_id is not None
    # the player who left played round 1: his evening counts either way (the season counts the evenings he played)
    assert by_person[gone.person_id].evenings == 1 and 1 in by_person[gone.person_id].cells
    if points_to_substitute:
        assert by_person[late.person_id].evenings == 1 and 1 in by_person[late.person_id].cells
    else:
        assert late.person_id not in by_person


def test_the_season_excel_holds_numbers_and_marks_discarded_evenings_by_format(director, season, evening, names):
    """Each evening's points and place are number cells (not "(10 · 1.)" as text), the total a number exactly as
    the page shows it (34, not 34.0); a discarded evening's points are in brackets by their number format."""
    import io

    import openpyxl

    from tournament.season_documents import render_season

    for day, seed in ((10, 1), (17, 2), (24, 3)):
        evening(day, names, season=season, seed=seed)
    fourth = evening(31, names, season=season, seed=4, results=False)
    enter_one_list(fourth, director)
    table = seasons.season_table(season)
    sheet = openpyxl.load_workbook(io.BytesIO(render_season(season, "xlsx"))).worksheets[0]
    header = [cell.value for cell in sheet[1]]
    assert header[:5] == ["Rang", "Name", "Verein", "Summe", "Abende"]
    assert header[5::2][3].endswith("(vorläufig)") and header[6] == "1: Platz"
    discarded = 0
    for row, line in zip(table.rows, sheet.iter_rows(min_row=2, max_row=len(table.rows) + 1), strict=True):
        total = line[3]
        assert total.data_type == "n" and Decimal(str(total.value)) == row.total
        if row.total == row.total.to_integral_value():
            assert isinstance(total.value, int)
        for e in table.evenings:
            points, place = line[3 + 2 * e.number], line[4 + 2 * e.number]
            cell = row.cells.get(e.number)
            if cell is None:
                assert points.value is None and place.value is None
                continue
            assert place.value == cell.place and isinstance(place.value, int)
            if cell.provisional:
                assert points.value is None
                continue
            assert points.data_type == "n" and Decimal(str(points.value)) == cell.worth
            assert ("(" in points.number_format) == (not cell.counted)
            discarded += not cell.counted
    assert discarded > 0, "best 2 of 3: someone has a discarded evening"
    assert not any(isinstance(c.value, str) and "·" in c.value for line in sheet.iter_rows() for c in line)
