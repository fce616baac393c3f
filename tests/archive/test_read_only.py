"""An archived tournament is read-only: every way in (a director's correction, an assistant's entry, a table's phone,
a problem signalled from it, a registration at the desk) is refused with a message that says how to reopen it, and
nothing is stored. One test per way in and game family where the way differs (Voms slip and series, Schafkopf
list, table-game sheet, patience). A finished tournament's links show the result and record nothing either."""

import html
import json

import pytest
from django.urls import reverse

from scoring.games.schafkopf import services as schafkopf
from scoring.games.voms import queries as voms_queries
from scoring.games.voms.services import knockout as voms_knockout
from scoring.games.voms.services import slips as voms_slips
from scoring.models import PendingSheet, ScoreSheet, SheetRevision, TableLink, TableProblem
from scoring.results.counting import record_table_entry
from scoring.results.links import LinkRefused, issue_links, issue_match_links, token_of
from scoring.seated import services as seated_services
from tests.doubleentry.conftest import _helper, _rummi, _schafkopf, _voms
from tests.schafkopf.test_tablelink_views import grid_post as phone_grid
from tests.schafkopf.test_views import grid_post
from tests.tablegames.conftest import new_game
from tests.tablegames.test_views import hand_post
from tournament.draw.bracket import Qualifier
from tournament.models import AuditEntry, Match, Participant, Round, SentForm, Table, Team
from tournament.services.audit import TournamentArchived
from tournament.services.participants import add_participant
from tournament.services.tournaments import set_archived

pytestmark = pytest.mark.django_db

#: what the director's and the assistant's pages say (tournament.services.audit.archived_message)
REFUSED = "This tournament is archived, so it is read-only: nothing was saved."
REOPEN = "“Restore from archive” on the tournament's page"
#: what a table's phone says (scoring.results.links.closed_reason)
CLOSED = "This tournament is archived: its table links show the results and record nothing any more."


def stored() -> dict:
    """Everything an entry, a problem or a registration could write, and the audit log."""
    counts = {model.__name__: model.objects.count() for model in (
        ScoreSheet, PendingSheet, SheetRevision, TableProblem, Participant, Team, AuditEntry, SentForm)}
    counts["sheets"] = sorted(json.dumps([s.pk, s.version, s.entries]) for s in ScoreSheet.objects.all())
    counts["audit"] = list(AuditEntry.objects.order_by("pk").values_list("pk", "action"))
    counts["link_sends"] = list(TableLink.objects.order_by("pk").values_list("window_count", flat=True))
    return counts


def text(response) -> str:
    return html.unescape(response.content.decode())


def archive(tournament, director):
    set_archived(tournament, True, by=director)
    tournament.refresh_from_db()
    assert tournament.archived


def refused(client, user, address, data, *, says=REFUSED, **extra):
    """POST as `user` (None: a phone, no account): the page says `says` and nothing was stored."""
    if user is not None:
        client.force_login(user)
    before = stored()
    response = client.post(address, data, follow=True, **extra)
    page = text(response)
    assert says in page, page[:3000]
    if says == REFUSED:
        assert REOPEN in page
    assert stored() == before
    return page


@pytest.fixture
def phone(client):
    client.cookies.pop("django_language", None)
    return client


# --- Voms: a pool game's slip ------------------------------------------------------------------------------------


@pytest.fixture
def voms_game(director, make_tournament, django_user_model):
    game = _voms(director, make_tournament)
    first = Match.objects.filter(stage__tournament=game.tournament, round__number=1,
                                 team_b__isnull=False).order_by("table_number")
    voms_slips.record_slip(first[0], by=director, entry={"lus_a": 9, "lus_b": 2})
    links = issue_match_links(game.tournament, list(first), by=director)
    assistant = _helper(django_user_model, game.tournament, "helper")
    archive(game.tournament, director)
    return game.tournament, list(first), links, assistant


def test_voms_a_directors_correction_of_a_slip_is_refused(voms_game, director, client):
    tournament, (entered, _other), _links, _assistant = voms_game
    address = reverse("tournament:voms:correct", args=[tournament.slug, entered.pk])
    refused(client, director, address, {"lus_a": "9", "lus_b": "5", "version": 1, "reason": "misread"})
    assert ScoreSheet.objects.get(match=entered).entries == [{"lus_a": 9, "lus_b": 2}]


def test_voms_an_assistants_slip_is_refused(voms_game, client):
    tournament, (_entered, other), _links, assistant = voms_game
    address = reverse("tournament:voms:enter", args=[tournament.slug])
    refused(client, assistant, address, {"round": 1, "table": other.table_number, "lus_a": "9", "lus_b": "4",
                                         "winner": ""})
    assert not ScoreSheet.objects.filter(match=other).exists()


def test_voms_a_slip_sent_from_the_phone_is_refused_and_the_page_says_why(voms_game, phone):
    _tournament, (_entered, other), links, _assistant = voms_game
    token = token_of(next(link for link in links if link.match_id == other.pk))
    page = refused(phone, None, reverse("table:entry", args=[token]), {"g1-lus_a": "9", "g1-lus_b": "4"},
                   says=CLOSED)
    assert 'name="g1-lus_a"' not in page  # no form to type on
    assert not PendingSheet.objects.filter(match=other).exists()


def test_voms_the_phone_of_an_archived_tournament_shows_the_result_without_a_form(voms_game, phone):
    _tournament, (entered, _other), links, _assistant = voms_game
    token = token_of(next(link for link in links if link.match_id == entered.pk))
    page = text(phone.get(reverse("table:entry", args=[token])))
    assert CLOSED in page and 'id="counted"' in page
    assert 'name="g1-lus_a"' not in page and 'id="ph-problem"' not in page


def test_voms_a_problem_signalled_from_the_phone_is_refused(voms_game, phone):
    _tournament, (_entered, other), links, _assistant = voms_game
    token = token_of(next(link for link in links if link.match_id == other.pk))
    refused(phone, None, reverse("table:entry", args=[token]), {"action": "problem", "kind": "dispute"},
            says=CLOSED)


def test_voms_a_team_registered_at_the_desk_is_refused(director, make_tournament, client):
    tournament = make_tournament(director, name="Voms later", game="voms")
    archive(tournament, director)
    refused(client, director, reverse("tournament:desk", args=[tournament.slug]),
            {"name": "Late", "player1": "Lea Late", "player2": "Max Late"})


def test_voms_the_services_refuse_what_a_link_sends_even_past_the_page(voms_game):
    """The phone page refuses first; the service refuses too (one place for every caller)."""
    _tournament, (_entered, other), links, _assistant = voms_game
    link = TableLink.objects.get(match=other)
    before = stored()
    with pytest.raises(LinkRefused, match="archived"):
        record_table_entry(link, entries=[{"lus_a": 9, "lus_b": 4}], mode="games",
                           derive=lambda entries, mode: {"finished": True})
    with pytest.raises(TournamentArchived):
        voms_slips.record_slip(other, by=_helper_director(other), entry={"lus_a": 9, "lus_b": 4})
    assert stored() == before


def _helper_director(match):
    return match.stage.tournament.created_by


# --- Voms: a knockout series ---------------------------------------------------------------------------------------


@pytest.fixture
def voms_series(director, make_tournament):
    tournament = _voms(director, make_tournament).tournament
    for match in Match.objects.filter(stage__tournament=tournament, team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 4})
    teams = [t.pk for t in tournament.teams.order_by("pk")][:4]
    voms_knockout.create_knockout(tournament, by=director, qualifiers=[Qualifier(pool=0, place=n, team=t)
                                                              for n, t in enumerate(teams, 1)],
                         third_place=False, semifinal="bracket")
    semifinal = voms_queries.knockout_stage(tournament).matches.filter(team_a__isnull=False, team_b__isnull=False) \
        .order_by("key").first()
    (link,) = issue_match_links(tournament, [semifinal], by=director)
    archive(tournament, director)
    return tournament, semifinal, link


def test_voms_a_series_game_typed_by_the_director_is_refused(voms_series, director, client):
    tournament, semifinal, _link = voms_series
    refused(client, director, reverse("tournament:voms:series", args=[tournament.slug, semifinal.pk]),
            {"lus_a": "9", "lus_b": "4"})
    assert not ScoreSheet.objects.filter(match=semifinal).exists()


def test_voms_a_series_game_sent_from_the_phone_is_refused(voms_series, phone):
    _tournament, semifinal, link = voms_series
    refused(phone, None, reverse("table:entry", args=[token_of(link)]), {"g1-lus_a": "9", "g1-lus_b": "3"},
            says=CLOSED)
    assert not PendingSheet.objects.filter(match=semifinal).exists()


# --- Schafkopf: a score list -----------------------------------------------------------------------------------------


@pytest.fixture
def schafkopf_game(director, make_tournament, django_user_model):
    game = _schafkopf(director, make_tournament)
    tournament = game.tournament
    schafkopf.enter_sheet(game.place, by=director, mode="games", entries=game.entries())
    links = {link.table.number: link for link in issue_links(Round.objects.get(stage__tournament=tournament,
                                                                                number=1), by=director)}
    assistant = _helper(django_user_model, tournament, "helper")
    archive(tournament, director)
    return game, links, assistant


def sheet_url(tournament, family, round_number, table):
    return reverse(f"tournament:{family}:sheet", args=[tournament.slug, round_number, table])


def test_schafkopf_a_directors_correction_of_a_list_is_refused(schafkopf_game, director, client):
    game, _links, _assistant = schafkopf_game
    games = game.entries()
    games[0] = {**games[0], "won": not games[0]["won"]}
    refused(client, director, sheet_url(game.tournament, "schafkopf", 1, 1),
            grid_post(games, version="1", reason="misread"))
    assert ScoreSheet.objects.get(table=game.place).entries == game.entries()


def test_schafkopf_an_assistants_list_is_refused(schafkopf_game, client):
    game, _links, assistant = schafkopf_game
    refused(client, assistant, sheet_url(game.tournament, "schafkopf", 1, 2), grid_post(game.entries()))
    assert not ScoreSheet.objects.filter(table__number=2, table__round__number=1).exists()


def test_schafkopf_a_list_sent_from_the_phone_is_refused(schafkopf_game, phone):
    game, links, _assistant = schafkopf_game
    page = refused(phone, None, reverse("table:entry", args=[token_of(links[2])]), phone_grid(game.entries()),
                   says=CLOSED)
    assert "Send the list" not in page


def test_schafkopf_a_problem_signalled_from_the_phone_is_refused(schafkopf_game, phone):
    _game, links, _assistant = schafkopf_game
    refused(phone, None, reverse("table:entry", args=[token_of(links[2])]),
            {"action": "problem", "kind": "wrong_player", "note": "seat 3"}, says=CLOSED)


def test_schafkopf_a_player_registered_at_the_desk_is_refused(director, make_tournament, client):
    tournament = make_tournament(director, name="Schafkopf later", game="schafkopf")
    archive(tournament, director)
    refused(client, director, reverse("tournament:desk", args=[tournament.slug]),
            {"number": "41", "first_name": "Resi", "last_name": "Gruber", "club": "", "group": ""})


# --- a table game (Rummi): a score sheet -------------------------------------------------------------------------


@pytest.fixture
def rummi_game(director, make_tournament, django_user_model):
    game = _rummi(director, make_tournament)
    tournament = game.tournament
    links = {link.table.number: link for link in issue_links(Round.objects.get(stage__tournament=tournament,
                                                                                number=1), by=director)}
    assistant = _helper(django_user_model, tournament, "helper")
    archive(tournament, director)
    return tournament, links, assistant


RUMMI_HAND = hand_post(1, 1, ["0", "100", "90", "80"])


def test_rummi_a_directors_sheet_is_refused(rummi_game, director, client):
    tournament, _links, _assistant = rummi_game
    refused(client, director, sheet_url(tournament, "tablegames", 1, 1), RUMMI_HAND)


def test_rummi_an_assistants_sheet_is_refused(rummi_game, client):
    tournament, _links, assistant = rummi_game
    refused(client, assistant, sheet_url(tournament, "tablegames", 1, 2), RUMMI_HAND)


def test_rummi_hands_sent_from_the_phone_are_refused(rummi_game, phone):
    _tournament, links, _assistant = rummi_game
    page = refused(phone, None, reverse("table:entry", args=[token_of(links[1])]),
                   {key: value for key, value in RUMMI_HAND.items() if key.startswith("h1-")}, says=CLOSED)
    assert 'name="h1-out"' not in page


def test_rummi_a_problem_signalled_from_the_phone_is_refused(rummi_game, phone):
    _tournament, links, _assistant = rummi_game
    refused(phone, None, reverse("table:entry", args=[token_of(links[1])]), {"action": "problem", "kind": "dispute"},
            says=CLOSED)


def test_rummi_a_player_registered_at_the_desk_is_refused(director, make_tournament, client):
    tournament = new_game(director, "rummi", name="Rummi later")
    archive(tournament, director)
    refused(client, director, reverse("tournament:desk", args=[tournament.slug]),
            {"number": "9", "first_name": "Ida", "last_name": "Late", "club": "", "group": ""})


# --- a patience: results at the referee table only ---------------------------------------------------------------


@pytest.fixture
def patience_game(director, django_user_model):
    tournament = new_game(director, "domino_patience", "knock_out", name="Patience night")
    for number in (1, 2, 3):
        add_participant(tournament, by=director, number=number, first_name=f"Ida{number}", last_name="Holm")
    seated_services.draw_seating(tournament, by=director)
    assistant = _helper(django_user_model, tournament, "helper")
    archive(tournament, director)
    return tournament, assistant


@pytest.mark.parametrize("who", ["director", "assistant"])
def test_a_patience_result_is_refused(patience_game, director, client, who):
    tournament, assistant = patience_game
    refused(client, director if who == "director" else assistant, sheet_url(tournament, "tablegames", 1, 1),
            {"version": "0", "r2-tiles_left": "4"})
    assert not ScoreSheet.objects.filter(tournament=tournament).exists()


# --- reopening, and the links of a finished tournament ----------------------------------------------------------


def test_reopened_the_tournament_takes_entries_again(voms_game, director, client):
    tournament, (_entered, other), _links, assistant = voms_game
    client.force_login(director)
    client.post(reverse("tournament:archive", args=[tournament.slug]), {"archived": "0"})
    tournament.refresh_from_db()
    assert not tournament.archived
    client.force_login(assistant)
    client.post(reverse("tournament:voms:enter", args=[tournament.slug]),
                {"round": 1, "table": other.table_number, "lus_a": "9", "lus_b": "4", "winner": ""})
    assert ScoreSheet.objects.filter(match=other).exists()


def test_the_pages_of_an_archived_tournament_say_it_is_read_only_and_how_to_reopen_it(voms_game, client):
    tournament, _matches, _links, assistant = voms_game
    client.force_login(assistant)
    page = text(client.get(reverse("tournament:voms:enter", args=[tournament.slug])))
    assert "This tournament is archived and read-only." in page and "“Restore from archive”" in page


def test_a_finished_tournaments_links_show_the_result_and_record_nothing(director, make_tournament, phone):
    game = _schafkopf(director, make_tournament)
    tournament = game.tournament
    links = {(link.table.round.number, link.table.number): link
             for round_ in Round.objects.filter(stage__tournament=tournament) for link in issue_links(round_,
                                                                                                    by=director)}
    for table in Table.objects.filter(round__stage__tournament=tournament):
        schafkopf.enter_sheet(table, by=director, mode="games", entries=game.entries())
    tournament.refresh_from_db()
    assert tournament.status == "finished" and not tournament.archived
    token = token_of(links[(1, 1)])
    finished = "This tournament is finished: its table links show the results and record nothing any more."
    page = refused(phone, None, reverse("table:entry", args=[token]), {"action": "problem", "kind": "dispute"},
                   says=finished)
    assert 'id="counted"' in page and 'id="ph-problem"' not in page
    before = stored()
    with pytest.raises(LinkRefused, match="finished"):
        record_table_entry(TableLink.objects.get(pk=links[(1, 2)].pk), entries=game.entries(1), mode="games",
                           derive=lambda entries, mode: {"finished": True})
    assert stored() == before
    # the director still corrects a finished (not archived) tournament
    game.correction(director, reason="misread")
    assert ScoreSheet.objects.get(table=game.place).version == 2


def test_what_is_no_content_of_an_archived_tournament_still_goes_through(voms_game, director):
    tournament, _matches, _links, assistant = voms_game
    from tournament.services.publishing import set_publication
    from tournament.services.roles import remove_role

    set_publication(tournament, by=director, kinds=["standings"])
    remove_role(tournament.roles.get(user=assistant), by=director)
    set_archived(tournament, False, by=director)
    tournament.refresh_from_db()
    assert tournament.publish_standings and not tournament.archived
