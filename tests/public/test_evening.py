"""My evening: a player's personal page (tournament/public/evening.py) and its link (evening_links.py)."""

import html
import logging
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.games.schafkopf import services as schafkopf_services
from scoring.games.schafkopf.demo import random_list
from scoring.models import TableLink
from scoring.results.links import issue_links
from scoring.seated.queries import places_by_participant, seated_tables
from tournament.logs import HideTableLinkTokens
from tournament.models import AuditEntry, Match, Participant, Table, Team
from tournament.public.evening_links import (
    TOKEN_LENGTH,
    evening_path,
    evening_token,
    find_holder,
    reissue_evening_links,
)
from tournament.services.errors import DomainError
from tournament.services.participants import set_participant_status

from .conftest import fill_schafkopf

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def visible(response) -> str:
    """The page's text without its markup."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text_of(response)))


def sheet_states(response) -> list[str]:
    return re.findall(r'class="sheet sheet-(\w+)"', text_of(response))


def a_list(seed):
    import random

    return random_list(random.Random(seed), 30, 4)


def player(t, number) -> Participant:
    return Participant.objects.get(tournament=t, number=number)


def table_of(t, round_number, number) -> Table:
    return Table.objects.get(round__stage__tournament=t, round__number=round_number, number=number)


# --- the link ----------------------------------------------------------------------------------------------------


def test_a_token_is_unguessable_and_opens_its_holder_only(schafkopf):
    one, two = player(schafkopf, 1), player(schafkopf, 2)
    token = evening_token(schafkopf, one)
    assert len(token) == TOKEN_LENGTH and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert find_holder(schafkopf, token, Participant) == one
    assert evening_token(schafkopf, one) == token  # shown again, the same, without being stored
    assert evening_token(schafkopf, two) != token
    # the holder's id with another's code, a changed letter, garbage: nothing
    forged = evening_token(schafkopf, two)[:7] + token[7:]
    assert find_holder(schafkopf, forged, Participant) is None
    changed = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert find_holder(schafkopf, changed, Participant) is None
    assert find_holder(schafkopf, "x" * TOKEN_LENGTH, Participant) is None
    assert find_holder(schafkopf, "é" * TOKEN_LENGTH, Participant) is None


def test_another_tournaments_token_answers_404(client, director, schafkopf, make_tournament, publish):
    other = fill_schafkopf(make_tournament(director, name="Second cup", game="schafkopf"), director)
    publish(schafkopf)
    publish(other)
    token = evening_token(schafkopf, player(schafkopf, 1))
    assert client.get(reverse("public:evening", args=[schafkopf.slug, token])).status_code == 200
    answer = client.get(reverse("public:evening", args=[other.slug, token]))
    assert answer.status_code == 404 and "not valid" in text_of(answer)
    assert "Anna1 Huber1" not in text_of(answer)
    # the same participant id under the other tournament's code does not open this one either
    theirs = evening_token(other, player(other, 1))
    assert client.get(reverse("public:evening", args=[schafkopf.slug, theirs])).status_code == 404
    assert client.get(reverse("public:evening_live", args=[other.slug, token])).status_code == 404


def test_unpublished_shows_nothing_and_publishing_again_opens_the_same_link(client, schafkopf, publish):
    url = evening_path(schafkopf, player(schafkopf, 1))
    answer = client.get(url)
    assert answer.status_code == 404
    assert "not published" in text_of(answer) and "Huber1" not in text_of(answer)
    assert client.get(url + "live/").status_code == 404
    publish(schafkopf, "schedule")
    assert client.get(url).status_code == 200
    publish(schafkopf, "standings")  # any published page keeps it open
    assert client.get(url).status_code == 200
    schafkopf.refresh_from_db()
    from tournament.services.publishing import set_publication

    set_publication(schafkopf, by=schafkopf.created_by, kinds=[])
    answer = client.get(url)
    assert answer.status_code == 404 and "Huber1" not in text_of(answer)


def test_reissuing_withdraws_every_old_link_and_is_audited(client, director, schafkopf, publish):
    publish(schafkopf)
    one = player(schafkopf, 1)
    old = evening_path(schafkopf, one)
    assert client.get(old).status_code == 200
    reissued = reissue_evening_links(schafkopf, by=director)
    new = evening_path(reissued, one)
    assert new != old
    assert client.get(old).status_code == 404 and client.get(old + "live/").status_code == 404
    assert client.get(new).status_code == 200
    assert AuditEntry.objects.filter(tournament=schafkopf, action="public.evening_links").count() == 1


def test_only_a_director_reissues(schafkopf, django_user_model):
    stranger = django_user_model.objects.create_user(username="stranger", password="pw-Stranger-1")
    nonce = schafkopf.evening_nonce
    with pytest.raises(DomainError):
        reissue_evening_links(schafkopf, by=stranger)
    schafkopf.refresh_from_db()
    assert schafkopf.evening_nonce == nonce


def test_the_token_stays_out_of_the_apps_log(schafkopf):
    token = evening_token(schafkopf, player(schafkopf, 1))
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "Not Found: %s",
                               (f"/p/{schafkopf.slug}/me/{token}/live/",), None)
    assert HideTableLinkTokens().filter(record)
    assert token not in record.getMessage() and record.getMessage() == f"Not Found: /p/{schafkopf.slug}/me/…/live/"


# --- a seated player's page ----------------------------------------------------------------------------------------


def test_a_seated_players_page_shows_every_round_and_each_sheets_state(client, director, schafkopf, publish):
    publish(schafkopf, "schedule")
    me = player(schafkopf, 1)
    tables = seated_tables(schafkopf)
    places = places_by_participant(tables)[me.pk]
    url = evening_path(schafkopf, me)
    page = client.get(url)
    assert page.status_code == 200
    text = visible(page)
    assert "Anna1 Huber1" in text and "My evening" in text
    for number, (table, _seat) in sorted(places.items()):
        mates = [s.participant.name for t in tables[number] if t.number == table for s in t.seats
                 if s.participant_id != me.pk]
        assert f"With {', '.join(mates)}" in text
    assert sheet_states(page) == ["missing", "missing"]
    assert "Rank" not in text  # the standings are not published: no rank

    # round 1: the table sends its list from its link (the referee checks), then the referee confirms it
    first = table_of(schafkopf, 1, places[1][0])
    issue_links(first.round, by=director)
    link = TableLink.objects.get(table=first, revoked_at__isnull=True)
    schafkopf_services.enter_from_link(link, mode="games", entries=a_list(1))
    page = client.get(url)
    assert sheet_states(page) == ["pending", "missing"]
    assert "List: sent, the referee checks" in visible(page)
    schafkopf_services.confirm_sheet(first, by=director)
    publish(schafkopf, "schedule", "standings")
    page = client.get(url)
    assert sheet_states(page) == ["counted", "missing"]
    text = visible(page)
    assert "List: counted" in text and "My place in the standings" in text
    from scoring.games.schafkopf.standings import standings

    row = next(r for r in standings(schafkopf).rows if r.participant.pk == me.pk)
    assert f"Rank {row.rank} of" in text
    assert 'class="chart' in text_of(page) or "<svg" in text_of(page)  # the progression picture with me


def test_my_rank_says_of_how_many_ranked_and_how_many_have_no_result_yet(client, director, schafkopf, publish):
    # "Rank 2 of 4" while twelve players wait for their first list read as the whole field (issue 27); the
    # public standings say "Players without a rank have no result yet"
    publish(schafkopf, "schedule", "standings")
    me = player(schafkopf, 1)
    places = places_by_participant(seated_tables(schafkopf))[me.pk]
    schafkopf_services.enter_sheet(table_of(schafkopf, 1, places[1][0]), by=director, mode="games", entries=a_list(3))
    text = visible(client.get(evening_path(schafkopf, me)))
    assert re.search(r"Rank \d of 4 ranked \(12 without a result yet\)", text), text
    for table in Table.objects.filter(round__stage__tournament=schafkopf, round__number=1).exclude(
            number=places[1][0]):
        schafkopf_services.enter_sheet(table, by=director, mode="games", entries=a_list(table.number))
    text = visible(client.get(evening_path(schafkopf, me)))
    assert re.search(r"Rank \d+ of 16 ", text) and "without a result" not in text, text


def test_a_withdrawn_player_sees_the_rounds_played_and_what_the_standings_say(client, director, schafkopf, publish):
    me = player(schafkopf, 1)
    places = places_by_participant(seated_tables(schafkopf))[me.pk]
    first = table_of(schafkopf, 1, places[1][0])
    schafkopf_services.enter_sheet(first, by=director, mode="games", entries=a_list(2))
    set_participant_status(me, Participant.Status.WITHDRAWN, by=director, reason="went home")
    publish(schafkopf)
    page = client.get(evening_path(schafkopf, me))
    text = visible(page)
    assert "Withdrawn: no further rounds to play" in text
    assert sheet_states(page) == ["counted"]  # round 1 only, where he played
    assert "withdrawn" in text.split("My place in the standings")[1].lower()


def test_the_page_polls_204_until_something_changes(client, director, schafkopf, publish, settings):
    settings.PUBLIC_RENDER_SECONDS = 0
    publish(schafkopf)
    me = player(schafkopf, 1)
    page = client.get(evening_path(schafkopf, me))
    poll = re.search(r'hx-get="([^"]+)"', text_of(page)).group(1)
    assert "/me/" in poll and poll.startswith(evening_path(schafkopf, me) + "live/?since=")
    assert client.get(poll).status_code == 204
    table = table_of(schafkopf, 1, places_by_participant(seated_tables(schafkopf))[me.pk][1][0])
    schafkopf_services.enter_sheet(table, by=director, mode="games", entries=a_list(3))
    answer = client.get(poll)
    assert answer.status_code == 200 and sheet_states(answer)[0] == "counted"


def test_find_my_seat_shows_the_personal_link_and_its_code(client, schafkopf, publish):
    publish(schafkopf, "schedule")
    answer = client.get(reverse("public:seat", args=[schafkopf.slug]) + "?q=Huber12")
    text = text_of(answer)
    path = evening_path(schafkopf, player(schafkopf, 12))
    assert f'href="{path}"' in text and "Follow your evening" in text
    assert text.count('class="qr"') == 1
    assert Client().get(path).status_code == 200


# --- a Voms team's page --------------------------------------------------------------------------------------------


def test_a_voms_teams_page_shows_its_games_tables_opponents_and_slips(client, director, voms, publish):
    from scoring.games.voms import entries as voms_entries
    from scoring.games.voms.services import slips as voms_slips

    publish(voms, "schedule")
    team = Team.objects.filter(tournament=voms).order_by("number").first()
    url = evening_path(voms, team)
    assert find_holder(voms, url.rstrip("/").rsplit("/", 1)[1], Team) == team
    page = client.get(url)
    assert page.status_code == 200
    text = visible(page)
    assert team.name in text
    for member in team.members.all():
        assert member.name in text
    games = list(Match.objects.filter(stage__tournament=voms).filter(team_a=team) | Match.objects.filter(
        stage__tournament=voms).filter(team_b=team))
    assert len(sheet_states(page)) == len(games) > 0
    for match in games:
        opponent = match.team_b if match.team_a_id == team.pk else match.team_a
        if opponent is not None:
            assert opponent.name in text
    first = min((m for m in games if m.team_b_id), key=lambda m: m.round.number)
    voms_slips.record_slip(first, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))
    publish(voms, "schedule", "standings", "results")
    page = client.get(url)
    states = sheet_states(page)
    assert states.count("counted") == 1
    text = visible(page)
    assert "Result: 9 : 4" in text and "Slip: counted" in text and "Sheet" not in text
    assert "My place in the standings" in text and "Pool A" in text
    # the page of a player: a Voms link is a team's, a participant's id opens nothing
    member = team.members.first()
    assert find_holder(voms, evening_token(voms, member), Team) is None


def test_find_my_seat_in_voms_links_each_team(client, voms, publish):
    publish(voms, "schedule")
    member = Participant.objects.get(tournament=voms, number=1)
    answer = client.get(reverse("public:seat", args=[voms.slug]) + "?q=1")
    team = member.teams.get()
    assert f'href="{evening_path(voms, team)}"' in text_of(answer)


# --- the director's side ----------------------------------------------------------------------------------------


def test_the_desk_shows_a_players_and_a_teams_link(client, director, schafkopf, voms):
    client.force_login(director)
    me = player(schafkopf, 3)
    page = text_of(client.get(reverse("tournament:desk_entry", args=[schafkopf.slug, me.pk])))
    assert f'value="http://testserver{evening_path(schafkopf, me)}"' in page
    team = Team.objects.filter(tournament=voms).first()
    page = text_of(client.get(reverse("tournament:desk_entry", args=[voms.slug, team.pk])))
    assert f'value="http://testserver{evening_path(voms, team)}"' in page


def test_the_director_replaces_all_links_after_confirming(client, director, schafkopf, publish):
    publish(schafkopf)
    old = evening_path(schafkopf, player(schafkopf, 1))
    client.force_login(director)
    url = reverse("tournament:evening_links", args=[schafkopf.slug])
    asked = client.post(url)
    assert asked.status_code == 200 and "Replace every player" in text_of(asked)
    assert Client().get(old).status_code == 200  # nothing changed before the confirmation
    done = client.post(url, {"confirmed": "1"})
    assert done.status_code == 302
    assert Client().get(old).status_code == 404
    schafkopf.refresh_from_db()
    assert Client().get(evening_path(schafkopf, player(schafkopf, 1))).status_code == 200


def test_the_participant_cards_carry_each_players_link(schafkopf):
    from scoring.games.schafkopf.documents import participant_cards
    from tournament.public.evening_links import evening_url

    cards = [card for page in participant_cards(schafkopf).pages for card in page["cards"]]
    assert len(cards) == 16
    for card in cards:
        url = evening_url(schafkopf, card["player"])
        assert "<svg" in card["evening"] and f"<title>{url}</title>" in card["evening"]


def test_a_table_game_players_evening_names_the_score_sheet_and_captions_its_chart(client, director):
    """Walking the evening (issue 27): a table game's sheet state read "Liste: gewertet" (Schafkopf's word) and
    the chart's numbers began with ": " (a hidden label after "Show the numbers", read on its own line)."""
    from scoring.games.tablegames.demo import create_demo
    from scoring.games.tablegames.family import game_by_key
    from tournament.services.publishing import set_publication

    rummi = create_demo(game_by_key("rummi"), director, seed=4, results=True)
    set_publication(rummi, by=director, kinds=["schedule", "standings"])
    url = evening_path(rummi, Participant.objects.filter(tournament=rummi).order_by("number").first())
    english, german, danish = (client.get(url, HTTP_ACCEPT_LANGUAGE=language) for language in ("en", "de", "da"))
    assert sheet_states(english) == ["counted"] * 3
    assert visible(english).count("Score sheet: counted") == 3 and "List" not in visible(english)
    assert visible(german).count("Spielbogen: gewertet") == 3 and "Liste" not in visible(german)
    assert visible(danish).count("Pointseddel: talt med") == 3
    assert "<summary>Show the numbers</summary>" in text_of(english)
    assert "<summary>Die Zahlen zeigen</summary>" in text_of(german)
    assert not re.search(r">\s*:", text_of(english))  # no text anywhere begins with a colon
    assert "<caption class=\"sr-only\">Tournament points after each round</caption>" in text_of(english)
