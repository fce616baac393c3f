"""A federation above clubs (issue 26): stable member numbers, clubs' links to them, merges held by the federation,
and a federation season that counts each member once across clubs (tournament/services/federation.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.clubs.conftest import new_member, played_evening
from tournament.models import AuditEntry, Federation, FederationMember, Organisation, Person
from tournament.services import federation as fed
from tournament.services.errors import DomainError
from tournament.services.register import create_person
from tournament.services.seasons import season_table

pytestmark = pytest.mark.django_db


def fresh(user):
    return get_user_model().objects.get(pk=user.pk)


def numbered(world, admin, person):
    """The entry asks for a number and the federation's admin assigns it."""
    fed.request_number(person, by=world.director)
    return fed.assign_number(person, by=admin)


def test_numbers_count_up_are_never_reused_and_resolve(federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    first = numbered(a, admin, a.person)
    second = numbered(b, admin, b.person)
    assert (first.number, second.number) == (1, 2)
    assert (first.home_club, second.home_club) == (a.club, b.club)
    a.person.refresh_from_db()
    assert a.person.member == first and not a.person.member_requested
    fed.merge_members(first, second, by=admin)
    third = numbered(a, admin, create_person(by=a.director, last_name="Maier"))
    assert third.number == 3, "a retired number is never given again"
    assert fed.resolve(federation.federation, 2) == first
    assert FederationMember.objects.get(number=2).merged_into == first


def test_a_merge_keeps_the_survivors_number_moves_the_links_and_is_audited(federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    keep, other = numbered(a, admin, a.person), numbered(b, admin, b.person)
    fed.merge_members(keep, other, by=admin, reason="same Anna")
    keep.refresh_from_db()
    assert keep.number == 1 and keep.merged_into is None
    assert set(Person.objects.filter(member=keep)) == {a.person, b.person}
    assert list(fed.members_of(federation.federation)) == [keep]
    entry = AuditEntry.objects.get(action="federation.merge")
    assert entry.federation == federation.federation and entry.organisation is None and entry.reason == "same Anna"
    assert entry.before["merged"]["number"] == 2 and entry.after["kept"] == 1
    with pytest.raises(DomainError):  # a retired number is merged no more
        fed.merge_members(keep, FederationMember.objects.get(number=2), by=admin)


def test_a_club_director_cannot_merge_or_assign(federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    keep, other = numbered(a, admin, a.person), numbered(b, admin, b.person)
    for user in (a.director, a.admin):
        with pytest.raises(DomainError):
            fed.merge_members(keep, other, by=user)
    fed.request_number(create_person(by=a.director, last_name="Maier"), by=a.director)
    with pytest.raises(DomainError):
        fed.assign_number(Person.objects.get(last_name="Maier"), by=a.director)
    assert FederationMember.objects.filter(merged_into__isnull=False).count() == 0


def test_an_entry_links_by_number_within_its_federation_only(federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    member = numbered(b, admin, b.person)
    entry = create_person(by=a.director, first_name="Anna", last_name="Huber")
    assert fed.link_entry(entry, member.number, by=a.director) == member
    with pytest.raises(DomainError, match="no member with the number 99"):
        fed.link_entry(entry, 99, by=a.director)
    # a club of another federation: the number is as unknown as one never given
    other_club = Organisation.objects.create(name="Dansk Skafkopf")
    other_admin = get_user_model().objects.create_user(username="other_fed")
    fed.create_federation("Dansk Forbund", admin=other_admin, clubs=[other_club])
    director_c = new_member(other_club, "director_c")
    stranger = create_person(by=director_c, organisation=other_club, last_name="Jensen")
    with pytest.raises(DomainError, match="no member with the number 1"):
        fed.link_entry(stranger, member.number, by=director_c)
    with pytest.raises(DomainError):  # nor does another club's director link club A's entry
        fed.link_entry(entry, member.number, by=b.director)
    stranger.refresh_from_db()
    assert stranger.member is None


def test_a_club_without_federation_links_nothing(clubs):
    with pytest.raises(DomainError, match="belongs to no federation"):
        fed.request_number(clubs.a.person, by=clubs.a.director)


def test_the_federation_admin_of_another_federation_cannot_merge(federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    keep, other = numbered(a, admin, a.person), numbered(b, admin, b.person)
    stranger = get_user_model().objects.create_user(username="other_fed")
    fed.create_federation("Dansk Forbund", admin=stranger)
    with pytest.raises(DomainError):
        fed.merge_members(keep, other, by=fresh(stranger))


def test_createfederation_makes_the_federation_with_its_admin_and_clubs(clubs, capsys):
    get_user_model().objects.create_user(username="verband")
    call_command("createfederation", "Verband", "--admin", "verband", "--club", clubs.a.club.name)
    federation = Federation.objects.get(name="Verband")
    assert federation.admins.get().user.username == "verband"
    assert list(federation.clubs.all()) == [clubs.a.club]
    assert "created" in capsys.readouterr().out


PLAYERS_A = ["Anna Huber", "Bert Maier", "Carl Ott", "Dora Lang", "Emil Berg", "Fritz Koch", "Gina Wolf",
             "Hans Roth"]
PLAYERS_B = ["Anna Huber", "Ines Graf", "Jan Beck", "Karl Frey", "Lena Haas", "Max Seidl", "Nina Vogt",
             "Otto Kurz"]


def test_the_federation_season_ranks_each_member_once_across_clubs(federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    league = fed.create_federation_season(federation.federation, by=admin, name="Liga 2026", game="schafkopf",
                                          place_points=["10", "8", "6", "5", "4", "3", "2", "1"])
    evening_a, evening_b = played_evening(a, 3, PLAYERS_A, seed=1), played_evening(b, 4, PLAYERS_B, seed=2)
    for world, evening in ((a, evening_a), (b, evening_b)):
        fed.join_federation_season(evening, league, by=world.director)
    anna_a = evening_a.participants.get(last_name="Huber").person
    anna_b = evening_b.participants.get(last_name="Huber").person
    member = numbered(a, admin, anna_a)
    fed.link_entry(anna_b, member.number, by=b.director)
    table = season_table(league)
    annas = [row for row in table.rows if row.person.name == "Anna Huber"]
    assert len(annas) == 1 and annas[0].person.number == member.number and annas[0].evenings == 2
    assert len(table.rows) == 15, "15 people: Anna once, the other 14 each alone"
    unnumbered = [row for row in table.rows if row.person.number is None]
    assert len(unnumbered) == 14 and all(row.evenings == 1 for row in unnumbered)


def test_a_tournament_joins_only_its_clubs_federation_season_of_its_game(federation):
    a, b, admin = federation.a, federation.b, federation.fed_admin
    league = fed.create_federation_season(federation.federation, by=admin, name="Liga", game="schafkopf",
                                          place_points=["3", "2", "1"])
    with pytest.raises(DomainError):  # another club's tournament
        fed.join_federation_season(a.tournament, league, by=b.director)
    other_club = Organisation.objects.create(name="Dansk Skafkopf")
    outsider = new_member(other_club, "director_c")
    from tournament.services.tournaments import create_tournament

    evening_c = create_tournament(by=outsider, name="C", game="schafkopf", date=a.tournament.date)
    with pytest.raises(DomainError, match="federation"):
        fed.join_federation_season(evening_c, league, by=outsider)
    fed.join_federation_season(a.tournament, league, by=a.director)
    a.tournament.refresh_from_db()
    assert a.tournament.federation_season == league and a.tournament.season == a.season
    assert AuditEntry.objects.filter(action="federation.season_evening", federation=federation.federation).exists()
