"""The public pages: nothing unpublished ever answers, what is published shows, find my seat, the cache."""

import datetime
import html
import re

import pytest
from django.urls import reverse

from scoring import games
from scoring.games.voms import entries as voms_entries
from scoring.games.voms.services import slips as voms_slips
from scoring.seated import services as seated_services
from scoring.seated.queries import places_by_participant, seated_tables
from tests.conftest import built_once_fixtures, new_director
from tournament.models import Match, Participant, Role, Round, TournamentRole
from tournament.public.content import fold, matches_name
from tournament.services import clock
from tournament.services.publishing import KINDS, set_publication
from tournament.services.tournaments import create_tournament

from .conftest import fill_schafkopf, fill_voms

pytestmark = pytest.mark.django_db

#: every public page with the published kind it needs (None: any kind)
PAGES = {"index": None, "schedule": "schedule", "standings": "standings", "bracket": "bracket",
         "results": "results", "seat": "schedule", "beamer": None}


def build_both():
    """The director and conftest.py's `voms` and `schafkopf`, made as those fixtures make them."""
    director = new_director()
    date = datetime.date(2026, 12, 5)
    voms = fill_voms(create_tournament(by=director, name="Voms cup", game="voms", date=date), director)
    schafkopf = fill_schafkopf(create_tournament(by=director, name="Schafkopf cup", game="schafkopf", date=date),
                               director)
    return director, voms, schafkopf


#: both drawn tournaments built once for the module's tests (each test's changes roll back), in place of
#: conftest.py's per-test `voms` and `schafkopf`
built, world, director, voms, schafkopf = built_once_fixtures(build_both, "director", "voms", "schafkopf")


def page_url(t, page):
    return reverse(f"public:{page}", args=[t.slug])


def live_url(t, page):
    return reverse("public:live", args=[t.slug, page])


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def since(response) -> str:
    return re.search(r"since=([0-9a-f]+)", text_of(response)).group(1)


def enter(t, table, lus_a, lus_b, by, round_number=1):
    match = Match.objects.get(stage__tournament=t, round__number=round_number, table_number=table)
    return voms_slips.record_slip(match, by=by, entry=voms_entries.slip_entry(lus_a=lus_a, lus_b=lus_b))


# --- nothing unpublished is reachable ---------------------------------------------------------------------------


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("game", ["voms", "schafkopf"])
def test_nothing_published_nothing_answers(client, request, world, game, page):
    t = request.getfixturevalue(game)  # built before the test's transaction began: `world` is asked for above
    assert client.get(page_url(t, page)).status_code == 404
    assert client.get(live_url(t, page)).status_code == 404


@pytest.mark.parametrize("page", [p for p, kind in PAGES.items() if kind])
def test_publishing_the_other_kinds_does_not_open_this_one(client, voms, publish, page):
    publish(voms, *[kind for kind in KINDS if kind != PAGES[page]])
    assert client.get(page_url(voms, page)).status_code == 404
    assert client.get(live_url(voms, page)).status_code == 404


@pytest.mark.parametrize("page", list(PAGES))
def test_unpublishing_closes_the_page_at_once(client, voms, publish, page):
    publish(voms)
    assert client.get(page_url(voms, page)).status_code == 200
    set_publication(voms, by=voms.created_by, kinds=[])
    assert client.get(page_url(voms, page)).status_code == 404
    assert client.get(live_url(voms, page)).status_code == 404


def test_unknown_tournaments_pages_and_games_without_public_pages_are_404(client, publish, voms, make_tournament,
                                                                           director, monkeypatch):
    publish(voms)
    assert client.get("/p/no-such-cup/").status_code == 404
    assert client.get(reverse("public:live", args=[voms.slug, "audit"])).status_code == 404
    domino = make_tournament(director, name="Domino night", game="domino")
    set_publication(domino, by=director, kinds=KINDS)
    assert client.get(page_url(domino, "index")).status_code == 200
    # a game that registers no public pages answers 404 even when everything is published
    monkeypatch.setattr(games.get_game("domino"), "public", lambda tournament: None)
    assert client.get(page_url(domino, "index")).status_code == 404


def test_schafkopf_has_no_bracket(client, schafkopf, publish):
    publish(schafkopf)
    assert client.get(page_url(schafkopf, "bracket")).status_code == 404
    assert "Bracket" not in text_of(client.get(page_url(schafkopf, "index")))


# --- published pages show their content -------------------------------------------------------------------------


def test_voms_pages_show_schedule_standings_results_and_bracket(client, voms, director, publish):
    publish(voms)
    enter(voms, 1, 9, 0, director)
    first = Match.objects.get(stage__tournament=voms, round__number=1, table_number=1)
    standings = text_of(client.get(page_url(voms, "standings")))
    assert "Pool A" in standings and first.team_a.name in standings and "2.5" in standings
    schedule = text_of(client.get(page_url(voms, "schedule")))
    assert "Round 5" in schedule and first.team_b.name in schedule and "9 : 0" in schedule
    assert "9 : 0" in text_of(client.get(page_url(voms, "results")))
    assert client.get(page_url(voms, "bracket")).status_code == 200
    beamer = text_of(client.get(page_url(voms, "beamer")))
    assert "Round 1: who plays where" in beamer and "Pool A" in beamer


def test_schedule_without_published_results_shows_no_results(client, voms, director, publish):
    publish(voms, "schedule")
    enter(voms, 1, 9, 0, director)
    assert "9 : 0" not in text_of(client.get(page_url(voms, "schedule")))


def test_schafkopf_pages_show_seating_standings_and_lists(client, schafkopf, publish):
    publish(schafkopf)
    schedule = text_of(client.get(page_url(schafkopf, "schedule")))
    assert "Round 2" in schedule and "Table 4" in schedule and "Anna16 Huber16" in schedule
    standings = text_of(client.get(page_url(schafkopf, "standings")))
    assert "Anna1 Huber1" in standings and "Provisional" in standings
    assert "Seating by name" in text_of(client.get(page_url(schafkopf, "beamer")))


def test_public_pages_show_no_personal_data_beyond_names_numbers_and_clubs(client, voms, director, publish):
    director.email = "secret.director@example.org"
    director.save()
    Participant.objects.filter(tournament=voms, number=1).update(group="Family Lynge", status_reason="Cheated at cards")
    publish(voms)
    enter(voms, 1, 9, 4, director)
    clock.start_clock(Round.objects.get(stage__tournament=voms, number=1), by=director)
    for page in PAGES:
        for url in (page_url(voms, page) + "?q=Naja", live_url(voms, page) + "?q=Naja"):
            text = text_of(client.get(url))
            for secret in ("secret.director", director.username + "<", "Family Lynge", "Cheated", "sheet.entry",
                           "clock.start"):
                assert secret not in text, (url, secret)


# --- find my seat --------------------------------------------------------------------------------------------------


def next_game_of(t, participant):
    team = participant.teams.get()
    match = Match.objects.filter(stage__tournament=t, round__number=1).filter(team_a=team).first() or \
        Match.objects.get(stage__tournament=t, round__number=1, team_b=team)
    opponent = match.team_b if match.team_a_id == team.pk else match.team_a
    return match, opponent


@pytest.mark.parametrize("query", ["3", "møller", "MOLLER", "Søren M"])
def test_voms_find_my_seat_by_number_and_part_of_the_name(client, voms, publish, query):
    publish(voms, "schedule")
    soren = Participant.objects.get(tournament=voms, number=3)
    match, opponent = next_game_of(voms, soren)
    text = text_of(client.get(page_url(voms, "seat"), {"q": query}))
    assert "Søren Møller" in text
    assert "Next game" in text
    if match.team_b_id:
        assert f"Table {match.table_number}" in text and opponent.name in text
    else:
        assert "bye" in text


def test_voms_next_game_moves_on_when_the_result_is_in(client, voms, director, publish):
    publish(voms, "schedule")
    soren = Participant.objects.get(tournament=voms, number=3)
    match, _opponent = next_game_of(voms, soren)
    enter(voms, match.table_number, 9, 2, director)
    text = text_of(client.get(page_url(voms, "seat"), {"q": "3"}))
    assert "Round 2" in text


def test_voms_find_says_when_nobody_matches_and_when_too_many_do(client, voms, publish):
    publish(voms, "schedule")
    assert "Nobody found" in text_of(client.get(page_url(voms, "seat"), {"q": "Zebedee"}))
    assert "Nobody found" in text_of(client.get(page_url(voms, "seat"), {"q": "99"}))
    many = text_of(client.get(page_url(voms, "seat"), {"q": "e"}))  # one letter: too short to search
    assert "Nobody found" in many
    crowd = text_of(client.get(page_url(voms, "seat"), {"q": "en"}))
    assert "people match" in crowd or crowd.count('class="card found"') <= 8


def test_schafkopf_find_my_seat_gives_table_and_seat_of_every_round(client, schafkopf, publish):
    publish(schafkopf, "schedule")
    places = places_by_participant(seated_tables(schafkopf))
    for query, number in (("7", 7), ("ber12", 12)):
        player = Participant.objects.get(tournament=schafkopf, number=number)
        text = text_of(client.get(page_url(schafkopf, "seat"), {"q": query}))
        assert player.name in text
        found = re.findall(r'<span class="big">(\d+)</span>', text)
        expected = [str(v) for r, (table, seat) in sorted(places[player.pk].items()) for v in (r, table, seat)]
        assert found == expected


def test_schafkopf_find_my_seat_says_a_player_withdrew_and_where_he_played(client, schafkopf, director, publish):
    """A player withdrawn after round 1 looked himself up and read "No seat yet: the seating has not been drawn,
    or you are not on it" (or saw his round-2 seat, which a substitute plays): it says he is withdrawn, shows the
    round he played and who played his seat."""
    import random

    from scoring.games.schafkopf import services as sk_services
    from scoring.games.schafkopf.demo import random_list
    from tournament.models import Seat
    from tournament.services.participants import add_participant, set_participant_status

    publish(schafkopf, "schedule")
    player = Participant.objects.get(tournament=schafkopf, number=7)
    set_participant_status(player, Participant.Status.WITHDRAWN, by=director)
    text = text_of(client.get(page_url(schafkopf, "seat"), {"q": "7"}))
    assert "Withdrawn: no seat to play." in text and "No seat yet" not in text
    assert re.findall(r'<span class="big">(\d+)</span>', text) == []

    first = Seat.objects.get(participant=player, table__round__number=1)
    sk_services.enter_sheet(first.table, by=director, mode="games", entries=random_list(random.Random(1), 30, 4))
    late = add_participant(schafkopf, by=director, number=40, first_name="Sepp", last_name="Sedlmair")
    second = Seat.objects.get(participant=player, table__round__number=2)
    seated_services.set_substitute(second, late, by=director)
    text = text_of(client.get(page_url(schafkopf, "seat"), {"q": "7"}))
    assert "Withdrawn: no further rounds to play. The rounds played:" in text and "No seat yet" not in text
    assert re.findall(r'<span class="big">(\d+)</span>', text) == ["1", str(first.table.number), str(first.number)]
    assert "Round 2 played by 40 Sepp Sedlmair." in text
    # the substitute finds the seat he plays
    text = text_of(client.get(page_url(schafkopf, "seat"), {"q": "40"}))
    assert re.findall(r'<span class="big">(\d+)</span>', text) == ["2", str(second.table.number),
                                                                    str(second.number)]
    assert "Withdrawn" not in text


def test_names_are_matched_without_case_and_accents():
    assert fold("  Jørgensen ") == "jorgensen" and fold("Müller") == "muller" and fold("STRAUSS") == fold("Strauß")
    assert matches_name("jorg", "Ida", "Jørgensen")
    assert matches_name("jørgensen ida", "Ida", "Jørgensen")
    assert matches_name("Ida J", "Ida", "Jørgensen")
    assert not matches_name("", "Ida", "Jørgensen")
    assert not matches_name("Ida K", "Ida", "Jørgensen")


# --- live updates and the cache -------------------------------------------------------------------------------------


def test_a_poll_gets_nothing_new_until_a_result_is_entered(client, voms, director, publish):
    publish(voms)
    url = live_url(voms, "standings")
    first = client.get(url)
    tag = since(first)
    assert "2.5" not in text_of(first)
    assert client.get(url, {"since": tag}).status_code == 204
    enter(voms, 1, 9, 0, director)
    after = client.get(url, {"since": tag})
    assert after.status_code == 200 and "2.5" in text_of(after)
    assert since(after) != tag


def test_a_clock_press_reaches_the_pages_at_the_next_poll(client, voms, director, publish):
    publish(voms, "standings")
    url = live_url(voms, "standings")
    tag = since(client.get(url))
    clock.start_clock(Round.objects.get(stage__tournament=voms, number=1), by=director)
    response = client.get(url, {"since": tag})
    assert response.status_code == 200
    text = text_of(response)
    assert "Round 1" in text and 'data-status="running"' in text and "left in this round" in text


def test_a_cached_poll_costs_at_most_two_queries(client, voms, director, publish, django_assert_max_num_queries):
    publish(voms)
    enter(voms, 1, 9, 4, director)
    clock.start_clock(Round.objects.get(stage__tournament=voms, number=1), by=director)
    for page in ("standings", "schedule", "results", "bracket", "beamer"):
        url = live_url(voms, page)
        tag = since(client.get(url))  # the first poll after a change renders and fills the cache
        with django_assert_max_num_queries(2):
            assert client.get(url).status_code == 200
        with django_assert_max_num_queries(2):
            assert client.get(url, {"since": tag}).status_code == 204
    seat = live_url(voms, "seat")
    client.get(seat, {"q": "Naja"})
    with django_assert_max_num_queries(2):
        assert "Naja Lynge" in text_of(client.get(seat, {"q": "Naja"}))


def test_each_language_gets_its_own_cached_page(client, voms, publish):
    publish(voms, "standings")
    url = live_url(voms, "standings")
    assert ">Pts<" in text_of(client.get(url))
    german = text_of(client.get(url, HTTP_ACCEPT_LANGUAGE="de"))
    assert ">Pkt.<" in german and ">Pts<" not in german
    assert ">Pts<" in text_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))


# --- the director's pages -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tournament:public", "tournament:clock"])
def test_director_pages_are_for_this_tournaments_directors_only(client, voms, make_director, django_user_model, name):
    url = reverse(name, args=[voms.slug])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    helper = django_user_model.objects.create_user(username="helper", password="pw-Helper-1")
    TournamentRole.objects.create(tournament=voms, user=helper, role=Role.ASSISTANT)
    for user in (make_director("stranger"), helper):
        client.force_login(user)
        assert client.get(url).status_code == 404
        assert client.post(url, {}).status_code == 404
    client.force_login(voms.created_by)
    assert client.get(url).status_code == 200


def test_director_publishes_and_unpublishes_with_the_form(client, voms, director):
    client.force_login(director)
    url = reverse("tournament:public", args=[voms.slug])
    page = text_of(client.get(url))
    assert f"/p/{voms.slug}/" in page and "<svg" in page
    response = client.post(url, {"publish_standings": "on", "publish_schedule": "on", "beamer_seconds": "20"})
    assert response.status_code == 302
    voms.refresh_from_db()
    assert (voms.publish_standings, voms.publish_schedule, voms.publish_bracket, voms.beamer_seconds) == \
        (True, True, False, 20)
    assert client.post(url, {"beamer_seconds": "2"}).status_code == 200  # refused: too short
    client.post(url, {"beamer_seconds": "20"})
    voms.refresh_from_db()
    assert not voms.publish_standings


def test_the_address_for_the_players_says_when_phones_cannot_reach_it(client, voms, director, settings):
    """On 127.0.0.1 (plain `make run`) the page says that phones cannot open the address, and how to serve the
    hall; it never sends the director to set PUBLIC_BASE_URL, which `HOST=0.0.0.0 make run` does not need."""
    client.force_login(director)
    url = reverse("tournament:public", args=[voms.slug])
    settings.PUBLIC_BASE_URL = ""
    page = text_of(client.get(url, HTTP_HOST="127.0.0.1:8000"))
    assert 'id="local-only"' in page and "phones cannot open it" in page and "PUBLIC_BASE_URL" not in page
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    page = text_of(client.get(url))
    assert 'id="local-only"' not in page and "http://192.168.1.20:8000/p/" in page and "PUBLIC_BASE_URL" not in page


def test_director_runs_the_clock_from_its_page(client, voms, director):
    client.force_login(director)
    url = reverse("tournament:clock", args=[voms.slug])
    round1 = Round.objects.get(stage__tournament=voms, number=1)
    assert client.post(url, {"round": round1.pk, "action": "start"}).status_code == 302
    round1.refresh_from_db()
    assert round1.clock_started_at is not None
    client.post(url, {"round": round1.pk, "action": "pause"})
    round1.refresh_from_db()
    assert round1.clock_paused_at is not None
    page = text_of(client.get(url))
    assert "Resume" in page and "Reset" in page
    client.post(url, {"round": round1.pk, "action": "slot", "minutes": "25"})
    round1.refresh_from_db()
    assert round1.slot_minutes == 25
    response = client.post(url, {"round": round1.pk, "action": "start"}, follow=True)
    assert "running already" in text_of(response)


def test_detail_page_links_the_public_pages(client, voms, director):
    client.force_login(director)
    assert reverse("tournament:public", args=[voms.slug]) in text_of(client.get(voms.get_absolute_url()))


def test_the_public_pages_switch_language(client, schafkopf, publish):
    publish(schafkopf)
    page = client.get(page_url(schafkopf, "index")).content.decode()
    form = page[page.index('class="pub-lang"'):]
    assert 'id="pub-language"' in form and form.count("<option") == 3 and 'value="/p/' in form
    answer = client.post(reverse("set_language"), {"language": "de", "next": page_url(schafkopf, "index")})
    assert answer.status_code == 302
    assert 'lang="de"' in client.get(page_url(schafkopf, "index")).content.decode()


def test_the_beamer_clock_belongs_to_the_round_the_beamer_shows(client, voms, director, publish):
    """Round 1's clock was started; once its slips are in the beamer shows round 2's games, and the clock shows
    round 2 as not started (it showed round 1's time: the clock followed the round started last)."""
    publish(voms)
    clock.start_clock(Round.objects.get(stage__tournament=voms, number=1), by=director)
    for match in Match.objects.filter(stage__tournament=voms, round__number=1, team_b__isnull=False):
        enter(voms, match.table_number, 9, 4, director)
    text = text_of(client.get(page_url(voms, "beamer")))
    assert "Round 2: who plays where" in text
    assert '<p class="clock-round"><strong>Round 2</strong>' in text
    assert 'data-status="idle"' in text and "Not started yet" in text
    clock.start_clock(Round.objects.get(stage__tournament=voms, number=2), by=director)
    text = text_of(client.get(page_url(voms, "beamer")))
    assert '<p class="clock-round"><strong>Round 2</strong>' in text and 'data-status="running"' in text


def test_the_clock_of_a_seated_game_moves_to_the_round_still_to_play(client, schafkopf, director, publish):
    import random

    from scoring.games.schafkopf import services as schafkopf_services
    from scoring.games.schafkopf.demo import random_list

    publish(schafkopf)
    clock.start_clock(Round.objects.get(stage__tournament=schafkopf, number=1), by=director)
    text = text_of(client.get(page_url(schafkopf, "beamer")))
    assert '<p class="clock-round"><strong>Round 1</strong>' in text and 'data-status="running"' in text
    rng = random.Random(3)
    settings = schafkopf_services.settings_of(schafkopf)
    for table in seated_tables(schafkopf)[1]:
        schafkopf_services.enter_sheet(table.seats[0].table, by=director, mode="games",
                                       entries=random_list(rng, settings.games_at(table.size), table.size))
    text = text_of(client.get(page_url(schafkopf, "beamer")))
    assert '<p class="clock-round"><strong>Round 2</strong>' in text
    assert 'data-status="idle"' in text and "Not started yet" in text


def test_no_clock_on_the_beamer_while_the_director_runs_none(client, voms, director, publish):
    publish(voms)
    assert 'class="clock-round"' not in text_of(client.get(page_url(voms, "beamer")))
