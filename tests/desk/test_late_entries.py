"""Nobody lands in no pool and at no table: once the draw is fixed, a Voms team registered one by one and a list
imported into any game are refused with what to do instead."""

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.games import all_games, game_of
from scoring.games.voms import entries as voms_entries
from scoring.games.voms.services import pools as voms_pools
from scoring.games.voms.services import slips as voms_slips
from scoring.games.voms.services import teams as voms_teams
from scoring.models import ScoreSheet
from scoring.seated import services as seated_services
from tournament.models import Match, Participant, Team
from tournament.services import participants as desk
from tournament.services.errors import DomainError
from tournament.services.seating import rounds_stage

pytestmark = pytest.mark.django_db


def first_slip(tournament, director):
    match = Match.objects.filter(stage__tournament=tournament, team_b__isnull=False).order_by("round__number",
                                                                                              "table_number")[0]
    return voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=4))


def playing_voms(voms_tournament, director, add_teams):
    add_teams(voms_tournament, 4)
    voms_pools.draw_pools(voms_tournament, by=director, pools=1, seed=3)
    first_slip(voms_tournament, director)
    return voms_tournament


def test_a_team_registered_after_the_first_result_is_refused_with_the_way_in(voms, director, add_teams):
    playing_voms(voms, director, add_teams)
    teams, players = Team.objects.count(), Participant.objects.count()
    with pytest.raises(DomainError, match="would play in no pool") as refused:
        desk.register_team(voms, by=director, name="Late", players=["Lea Late"])
    assert "correct that player's name on the team's page" in refused.value.message
    with pytest.raises(DomainError, match="would play in no pool"):
        voms_teams.register_individual(voms, by=director, name="Lea Late")
    assert (Team.objects.count(), Participant.objects.count()) == (teams, players)


def test_between_the_draw_and_the_first_result_a_team_can_still_join_for_a_new_draw(voms, director, add_teams):
    add_teams(voms, 4)
    voms_pools.draw_pools(voms, by=director, pools=1, seed=3)
    late = desk.register_team(voms, by=director, name="Late", players=["Lea Late"])
    voms_pools.draw_pools(voms, by=director, pools=1, seed=3)
    assert late.pool_entries.count() == 1


def test_the_desk_page_says_why_a_late_team_is_refused(voms, director, add_teams, client):
    playing_voms(voms, director, add_teams)
    client.force_login(director)
    response = client.post(reverse("tournament:desk", args=[voms.slug]),
                           {"name": "Late", "player1": "Lea Late", "player2": ""})
    assert response.status_code == 200
    assert "would play in no pool" in response.content.decode()
    assert not Team.objects.filter(name="Late").exists()


def fix_the_draw(tournament, director, add_players, add_teams):
    """Put `tournament` in play the way its game does: a first Voms slip, or round 1 of the seating started."""
    if game_of(tournament).participants == "team":
        playing_voms(tournament, director, add_teams)
        return
    add_players(tournament, 12)
    if tournament.game == "schafkopf":

        seated_services.draw_seating(tournament, by=director, seed=1)
        seated_services.start_round(rounds_stage(tournament).rounds.get(number=1), by=director)
    else:
        seated_services.draw_seating(tournament, by=director, seed=1)
        # what a table game's first sheet leaves behind (tablegames.services.enter_sheet): round 1 has started
        rounds_stage(tournament).rounds.filter(number=1).update(starts_at=timezone.now())


LIST = {"team": b"Team,Player 1,Player 2\nLate,Lea Late,Leo Late\n",
        "player": b"First name,Last name\nLea,Late\n"}


@pytest.mark.parametrize("game", [g.key for g in all_games()])
def test_a_list_for_a_tournament_in_play_is_refused_in_every_game(game, director, make_tournament, add_players,
                                                                  add_teams):
    tournament = make_tournament(director, name=f"{game} night", game=game)
    fix_the_draw(tournament, director, add_players, add_teams)
    participants = Participant.objects.filter(tournament=tournament).count()
    kind = game_of(tournament).participants
    if kind == "team":
        report = voms_teams.import_teams(tournament, "late.csv", LIST[kind], by=director)
        expected = "would play in no pool"
    else:
        report = desk.import_participants(tournament, "late.csv", LIST[kind], by=director)
        expected = "Register a late player one by one"
    assert not report.ok
    assert expected in report.rejected[0][1]
    assert Participant.objects.filter(tournament=tournament).count() == participants


def test_a_team_registered_after_the_draw_holds_back_the_first_slip_until_the_draw_is_redone(
        voms, director, add_teams, client):
    add_teams(voms, 4)
    voms_pools.draw_pools(voms, by=director, pools=1, seed=3)
    late = desk.register_team(voms, by=director, name="Late", players=["Lea Late"])
    client.force_login(director)
    draw_page = client.get(reverse("tournament:voms:draw", args=[voms.slug])).content.decode()
    assert "in no pool:" in draw_page and "Late" in draw_page
    with pytest.raises(DomainError, match="Late registered after the pool draw and play in no pool"):
        first_slip(voms, director)
    assert not ScoreSheet.objects.filter(tournament=voms).exists()
    # withdrawn (it is in no pool, so it can be), the first slip goes in
    desk.set_team_withdrawn(late, True, by=director)
    first_slip(voms, director)
    with pytest.raises(DomainError):  # a team in a pool is not withdrawn after the draw
        desk.set_team_withdrawn(Team.objects.get(tournament=voms, name="Team 1"), True, by=director)



@pytest.mark.parametrize(("game", "substitutes"), [("schafkopf", True), ("rummi", True), ("domino", True)])
def test_the_desk_offers_substitutes_only_where_the_game_has_them(game, substitutes, director, make_tournament,
                                                                  add_players, add_teams, client):
    """Once the seating is drawn the desk says "after that, put them on seats as substitutes" in every seated game:
    the table games have substitutes too (a player who goes home, table-games.md)."""
    tournament = make_tournament(director, name=f"{game} night", game=game)
    fix_the_draw(tournament, director, add_players, add_teams)
    client.force_login(director)
    page = client.get(reverse("tournament:desk", args=[tournament.slug])).content.decode()
    assert "The seating is drawn." in page
    assert ("put them on seats as substitutes" in page) == substitutes
