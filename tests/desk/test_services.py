"""The registration desk's services: corrections, deletions, duplicates, check-in, no-shows, takings."""

from decimal import Decimal

import pytest

from scoring.games.voms.services import pools as voms_pools
from scoring.seated import services as seated_services
from tournament.models import AuditEntry, Participant, Team
from tournament.services import participants as desk
from tournament.services.errors import DomainError

pytestmark = pytest.mark.django_db


def test_a_second_player_of_the_same_name_needs_a_confirmation(schafkopf, director):
    desk.add_participant(schafkopf, by=director, first_name="Anna", last_name="Huber")
    with pytest.raises(desk.DuplicateName) as refused:
        desk.add_participant(schafkopf, by=director, first_name=" anna ", last_name="HUBER ")
    assert "Anna Huber is registered already (number 1)" in refused.value.message
    assert schafkopf.participants.count() == 1
    second = desk.add_participant(schafkopf, by=director, first_name="Anna", last_name="Huber",
                                  confirm_duplicate=True)
    assert second.number == 2
    latest = AuditEntry.objects.filter(action="participant.add").order_by("-id").first()
    assert latest.reason.startswith("second registration")


def test_a_second_team_of_the_same_name_needs_a_confirmation(voms, director):
    desk.register_team(voms, by=director, name="Kings", players=["A One"])
    with pytest.raises(desk.DuplicateName):
        desk.register_team(voms, by=director, name="  kings ", players=["B Two"])
    desk.register_team(voms, by=director, name="kings", players=["B Two"], confirm_duplicate=True)
    assert voms.teams.count() == 2


def test_renaming_a_player_is_audited_and_the_number_can_change(schafkopf, director):
    player = desk.add_participant(schafkopf, by=director, first_name="Ana", last_name="Hubr", club="SK")
    schafkopf.settings = {**schafkopf.settings, "fixed_tables": {"1": 3}}
    schafkopf.save()
    desk.update_participant(player, by=director, first_name="Anna", last_name="Huber", club="SK Au", group="",
                            number=7)
    player.refresh_from_db()
    assert (player.name, player.club, player.number) == ("Anna Huber", "SK Au", 7)
    entry = AuditEntry.objects.get(action="participant.update")
    assert entry.before == {"first_name": "Ana", "last_name": "Hubr", "club": "SK", "number": 1}
    assert entry.after["last_name"] == "Huber" and entry.after["number"] == 7
    schafkopf.refresh_from_db()
    assert schafkopf.settings["fixed_tables"] == {"7": 3}, "the fixed table follows the player"


def test_a_rename_to_a_taken_number_or_an_empty_name_changes_nothing(schafkopf, director, add_players):
    first, second = add_players(schafkopf, 2)
    with pytest.raises(DomainError, match="number 2 is taken"):
        desk.update_participant(first, by=director, number=2, last_name="New")
    with pytest.raises(DomainError, match="needs a last name"):
        desk.update_participant(first, by=director, last_name="  ")
    with pytest.raises(desk.DuplicateName):
        desk.update_participant(first, by=director, first_name="Anna2", last_name="Huber2")
    first.refresh_from_db()
    assert (first.number, first.last_name) == (1, "Huber1")


def test_a_team_named_after_its_players_follows_a_renamed_player(voms, director):
    team = desk.register_team(voms, by=director, name="", players=["Naja Lynge", "Malik Kleist"])
    named = desk.register_team(voms, by=director, name="Kings", players=["Aka Berthelsen"])
    desk.update_participant(team.members.get(last_name="Lynge"), by=director, last_name="Lyberth")
    desk.update_participant(named.members.get(), by=director, first_name="Aqqa")
    team.refresh_from_db()
    named.refresh_from_db()
    assert team.name == "Naja Lyberth & Malik Kleist"
    assert named.name == "Kings", "a name of its own is kept"


def test_renaming_a_team_is_audited(voms, director, add_teams):
    team, _other = add_teams(voms, 2)
    with pytest.raises(desk.DuplicateName):
        desk.update_team(team, by=director, name="team 2")
    desk.update_team(team, by=director, name="Polar Bears")
    team.refresh_from_db()
    assert team.name == "Polar Bears"
    entry = AuditEntry.objects.get(action="team.update")
    assert (entry.before, entry.after) == ({"name": "Team 1"}, {"name": "Polar Bears"})


def test_the_new_name_is_shown_after_the_draw_too(voms, director, add_teams):
    team = add_teams(voms, 4)[0]
    voms_pools.draw_pools(voms, by=director, pools=1, seed=1)
    desk.update_team(team, by=director, name="Renamed")
    match = voms.stages.get().matches.filter(team_a=team).first() or voms.stages.get().matches.get(team_b=team)
    assert "Renamed" in (str(match.team_a), str(match.team_b))


def test_delete_before_the_draw_only(schafkopf, director, add_players):
    players = add_players(schafkopf, 8)
    desk.delete_participant(players[0], by=director, reason="typed twice")
    assert not Participant.objects.filter(pk=players[0].pk).exists()
    entry = AuditEntry.objects.get(action="participant.delete")
    assert entry.before["last_name"] == "Huber1" and entry.reason == "typed twice"
    add_players(schafkopf, 1, start=20)
    schafkopf_draw(schafkopf, director)
    with pytest.raises(DomainError, match="only withdrawn"):
        desk.delete_participant(players[1], by=director)
    assert Participant.objects.filter(pk=players[1].pk).exists()


def schafkopf_draw(tournament, director):
    seated_services.draw_seating(tournament, by=director, seed=3)


def test_deleting_a_team_deletes_its_players(voms, director, add_teams):
    team = add_teams(voms, 3)[0]
    members = list(team.members.values_list("pk", flat=True))
    desk.delete_team(team, by=director)
    assert not Team.objects.filter(pk=team.pk).exists()
    assert not Participant.objects.filter(pk__in=members).exists()
    assert AuditEntry.objects.get(action="team.delete").before["name"] == "Team 1"
    voms_pools.draw_pools(voms, by=director, pools=1, seed=1)
    with pytest.raises(DomainError):
        desk.delete_team(voms.teams.first(), by=director)


def test_check_in_counts_and_payments(schafkopf, director, add_players):
    schafkopf.entry_fee = Decimal("10.00")
    schafkopf.save()
    players = add_players(schafkopf, 4)
    assert desk.checkin_counts(schafkopf) == desk.CheckInCounts(4, 0, 0, Decimal("0.00"))
    desk.mark_arrived(players[0], by=director)
    desk.mark_paid(players[1], by=director)  # paying marks arrived too
    desk.mark_paid(players[2], by=director, amount=Decimal("5.00"))
    counts = desk.checkin_counts(schafkopf)
    assert (counts.registered, counts.arrived, counts.paid, counts.takings) == (4, 3, 2, Decimal("15.00"))
    assert [p.number for p in desk.no_shows(schafkopf)] == [4]
    desk.mark_paid(players[2], by=director, paid=False)
    assert desk.checkin_counts(schafkopf).takings == Decimal("10.00")
    assert AuditEntry.objects.filter(action__startswith="checkin.").count() == 4
    with pytest.raises(DomainError):
        desk.mark_paid(players[3], by=director, amount=Decimal("-1"))


def test_a_withdrawn_players_payment_stays_in_the_paid_count_as_in_the_takings(schafkopf, director, add_players):
    """Withdrawn after paying: the fee is not refunded, so it stays in the takings (and the prizes); the paid count
    keeps him too, and says how many of the paid withdrew (it dropped while the takings did not)."""
    schafkopf.entry_fee = Decimal("10.00")
    schafkopf.save()
    players = add_players(schafkopf, 3)
    for player in players:
        desk.mark_paid(player, by=director)
    desk.set_participant_status(players[0], Participant.Status.WITHDRAWN, by=director)
    counts = desk.checkin_counts(schafkopf)
    assert (counts.registered, counts.arrived, counts.paid, counts.takings) == (2, 2, 3, Decimal("30.00"))
    assert counts.paid_withdrawn == 1 and counts.no_shows == 0
    assert counts.takings == sum((p.paid_amount for p in Participant.objects.filter(tournament=schafkopf, paid=True)),
                                 Decimal("0"))


def test_a_withdrawn_teams_payment_stays_in_the_paid_count(voms, director, add_teams):
    voms.entry_fee = Decimal("20")
    voms.save()
    teams = add_teams(voms, 2)
    desk.mark_paid(teams[0], by=director)
    desk.mark_paid(teams[1], by=director, amount=Decimal("15"))
    desk.set_team_withdrawn(teams[1], True, by=director)
    counts = desk.checkin_counts(voms)
    assert (counts.registered, counts.paid, counts.paid_withdrawn, counts.takings) == (1, 2, 1, Decimal("35.00"))


def test_no_shows_are_withdrawn_in_one_audited_step_before_the_draw(schafkopf, director, add_players):
    players = add_players(schafkopf, 9)
    with pytest.raises(DomainError, match="Nobody is missing"):
        desk.withdraw_no_shows(schafkopf, by=director)  # check-in has not started: nobody counts as missing
    for player in players[:8]:
        desk.mark_arrived(player, by=director)
    missing = desk.withdraw_no_shows(schafkopf, by=director)
    assert [p.number for p in missing] == [9]
    players[8].refresh_from_db()
    assert players[8].status == Participant.Status.WITHDRAWN
    assert AuditEntry.objects.get(action="checkin.withdraw_no_shows").after == {"withdrawn": ["9 Anna9 Huber9"]}
    schafkopf_draw(schafkopf, director)
    assert schafkopf.stages.get().rounds.first().tables.count() == 2


def test_voms_no_shows_are_teams(voms, director, add_teams):
    teams = add_teams(voms, 5)
    for team in teams[:4]:
        desk.mark_arrived(team, by=director)
    (missing,) = desk.withdraw_no_shows(voms, by=director)
    missing.refresh_from_db()
    assert missing.withdrawn and set(missing.members.values_list("status", flat=True)) == {"withdrawn"}
    voms_pools.draw_pools(voms, by=director, pools=1, seed=1)
    assert missing.pk not in set(voms.stages.get().pools.get().teams.values_list("pk", flat=True))


def test_prizes_come_from_what_was_paid(schafkopf, director, add_players):
    from dataclasses import replace

    from scoring.games.schafkopf.config import settings_of
    from scoring.games.schafkopf.standings import _add_prizes, standings
    from scoring.rules.schafkopf import PrizeSpec

    players = add_players(schafkopf, 4)
    schafkopf.entry_fee = Decimal("10")
    schafkopf.save()
    settings = replace(settings_of(schafkopf), prizes=(PrizeSpec("percent", Decimal("50")),))
    result = standings(schafkopf)
    _add_prizes(result, settings, list(Participant.objects.filter(tournament=schafkopf)))
    assert result.prizes.takings == Decimal("40.00"), "before any payment: the fee times the players"
    desk.mark_paid(players[0], by=director)
    desk.mark_paid(players[1], by=director, amount=Decimal("5"))
    _add_prizes(result, settings, list(Participant.objects.filter(tournament=schafkopf)))
    assert result.prizes.takings == Decimal("15.00") and list(result.prizes) == [Decimal("7.50")]


def test_the_entry_fee_is_the_tournaments(schafkopf, director):
    schafkopf.settings = {**schafkopf.settings, "prizes": []}
    new = schafkopf_settings_with_fee(schafkopf, Decimal("12.50"))
    schafkopf.refresh_from_db()
    assert schafkopf.entry_fee == Decimal("12.50") and "entry_fee" not in schafkopf.settings
    assert new.entry_fee == Decimal("12.50")
    assert desk.fee_of(schafkopf) == Decimal("12.50")


def schafkopf_settings_with_fee(tournament, fee):
    from dataclasses import replace

    from scoring.games.schafkopf.config import settings_of

    seated_services.update_settings(tournament, replace(settings_of(tournament), entry_fee=fee),
                              by=tournament.created_by)
    return settings_of(tournament)


def test_only_a_director_uses_the_desk(schafkopf, django_user_model, add_players):
    (player,) = add_players(schafkopf, 1)
    stranger = django_user_model.objects.create_user("stranger", password="x")
    for change in (lambda: desk.mark_arrived(player, by=stranger),
                   lambda: desk.update_participant(player, by=stranger, last_name="X"),
                   lambda: desk.delete_participant(player, by=stranger),
                   lambda: desk.withdraw_no_shows(schafkopf, by=stranger)):
        with pytest.raises(DomainError):
            change()
    player.refresh_from_db()
    assert not player.arrived and player.last_name == "Huber1"
