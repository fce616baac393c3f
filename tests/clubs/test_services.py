"""Each scoped service keeps a club's data in the club (issue 26): tournament/tenancy.py, the managers' of(club),
and the services of the register, seasons, roles, imports and the club's members."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command

from tests.clubs.conftest import new_member
from tournament.models import (
    AuditEntry,
    MemberRole,
    Membership,
    Organisation,
    Person,
    Role,
    Season,
    Tournament,
    TournamentRole,
)
from tournament.models.organisation import default_organisation
from tournament.permissions import DIRECTORS_GROUP, can_create_tournaments, visible_tournaments
from tournament.services import clubs as club_services
from tournament.services import register, roles, seasons
from tournament.services.errors import DomainError
from tournament.services.participants import add_participant
from tournament.services.tournaments import create_tournament
from tournament.tenancy import members_of, organisation_of, organisations_of, shows_club_page
from tournament.transfer import export_tournament, import_tournament

pytestmark = pytest.mark.django_db


def fresh(user):
    """The user as a new request loads it (the club roles are kept per request)."""
    return get_user_model().objects.get(pk=user.pk)


# --- who works for which club ---------------------------------------------------------------------------------


def test_a_member_works_for_their_club_and_sees_only_its_rows(clubs):
    a, b = clubs.a, clubs.b
    assert organisation_of(a.director) == a.club
    assert list(organisations_of(a.director)) == [a.club]
    assert list(Tournament.objects.of(a.club)) == [a.tournament]
    assert list(Season.objects.of(organisations_of(b.director))) == [b.season]
    assert list(Person.objects.of(b.club)) == [b.person]
    assert set(AuditEntry.objects.of(a.club).values_list("organisation_id", flat=True)) == {a.club.pk}
    assert not AuditEntry.objects.of(a.club).filter(tournament=b.tournament).exists()


def test_new_rows_belong_to_the_creators_club(clubs):
    a = clubs.a
    assert (a.tournament.organisation, a.season.organisation, a.person.organisation) == (a.club, a.club, a.club)
    entry = AuditEntry.objects.get(action="person.add", organisation=a.club)
    assert entry.object_repr == "Anna Huber (SK Au)"


def test_a_server_with_several_clubs_has_no_default_club(clubs):
    with pytest.raises(ValueError):
        default_organisation()


def test_a_laptop_is_one_club_made_on_first_use_and_its_directors_group_directs_it(db):
    Organisation.objects.all().delete()
    first = default_organisation()
    assert Organisation.objects.get().pk == first
    user = get_user_model().objects.create_user("old_style")
    user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    user.groups.get().permissions.add(*Permission.objects.filter(codename="add_tournament"))
    assert can_create_tournaments(fresh(user))
    assert create_tournament(by=fresh(user), name="Laptop", game="schafkopf",
                             date=datetime.date(2026, 1, 1)).organisation_id == first
    superuser = get_user_model().objects.create_superuser("boss", password="pw-Boss-1")
    assert organisation_of(superuser).pk == first
    assert not shows_club_page(superuser)  # a laptop shows nothing of clubs
    # the same group on a server with a second club gives nothing
    Organisation.objects.create(name="Second")
    assert not can_create_tournaments(fresh(user))
    assert organisation_of(fresh(superuser)) is None


def test_a_user_of_no_club_creates_nothing(clubs):
    nobody = get_user_model().objects.create_user("nobody")
    with pytest.raises(DomainError):
        create_tournament(by=nobody, name="X", game="schafkopf", date=datetime.date(2026, 1, 1))
    with pytest.raises(DomainError):
        seasons.create_season(by=nobody, name="X", game="schafkopf", place_points=["1"])
    with pytest.raises(DomainError):
        register.create_person(by=nobody, last_name="X")


# --- the register ---------------------------------------------------------------------------------------------


def test_suggestions_and_lookups_are_the_clubs_own(clubs):
    a, b = clubs.a, clubs.b
    assert register.suggest("huber", organisation=a.club) == [a.person]
    assert register.same_person("Anna", "Huber", "SK Au", organisation=b.club) == [b.person]


def test_a_participant_links_to_an_entry_of_the_tournaments_club(clubs):
    a, b = clubs.a, clubs.b
    player = add_participant(a.tournament, by=a.director, first_name="Anna", last_name="Huber", club="SK Au")
    assert player.person == a.person
    other = create_tournament(by=b.director, name="B two", game="schafkopf", date=datetime.date(2026, 4, 1))
    with pytest.raises(DomainError):
        add_participant(other, by=b.director, first_name="Anna", last_name="Huber", club="SK Au", person=a.person)
    assert not other.participants.exists()


def test_a_merge_joins_entries_of_one_club_only(clubs):
    a, b = clubs.a, clubs.b
    with pytest.raises(DomainError):
        register.merge_persons(a.person, b.person, by=a.director)
    with pytest.raises(DomainError):
        register.merge_persons(b.person, a.person, by=a.director)  # not a director of b's club
    assert Person.objects.filter(pk__in=[a.person.pk, b.person.pk]).count() == 2


def test_another_clubs_director_cannot_change_an_entry(clubs):
    with pytest.raises(DomainError):
        register.update_person(clubs.a.person, by=clubs.b.director, last_name="Renamed")
    clubs.a.person.refresh_from_db()
    assert clubs.a.person.last_name == "Huber"


def test_players_are_taken_over_only_from_the_same_club(clubs):
    a, b = clubs.a, clubs.b
    add_participant(b.tournament, by=b.director, first_name="Sepp", last_name="Maier")
    TournamentRole.objects.create(tournament=b.tournament, user=a.director, role=Role.DIRECTOR)
    later = create_tournament(by=a.director, name="A later", game="schafkopf", date=datetime.date(2026, 5, 1))
    assert register.earlier_tournaments(later, a.director) == [a.tournament]
    with pytest.raises(DomainError):
        register.take_participants(later, b.tournament, by=a.director)
    assert not later.participants.exists()


# --- seasons --------------------------------------------------------------------------------------------------


def test_a_season_takes_evenings_of_its_own_club(clubs):
    a, b = clubs.a, clubs.b
    mine = create_tournament(by=a.director, name="A two", game="schafkopf", date=datetime.date(2026, 4, 1))
    theirs = create_tournament(by=b.director, name="B two", game="schafkopf", date=datetime.date(2026, 4, 1))
    TournamentRole.objects.create(tournament=theirs, user=a.director, role=Role.DIRECTOR)
    assert seasons.candidate_evenings(a.season, a.director) == [mine]
    with pytest.raises(DomainError):
        seasons.add_evening(a.season, theirs, by=a.director)
    assert theirs.season_id is None or Tournament.objects.get(pk=theirs.pk).season_id is None
    assert list(seasons.visible_seasons(a.director)) == [a.season]
    assert seasons.season_of(b.director, a.season.slug) is None


def test_short_names_need_to_be_unique_only_within_a_club(clubs):
    """Another club's tournament or season of the same name takes the same short name (the addresses carry the
    club); within the club a second one still gets `-2`."""
    a, b = clubs.a, clubs.b
    same = create_tournament(by=b.director, name=a.tournament.name, game="schafkopf", date=datetime.date(2026, 3, 1))
    assert same.name == a.tournament.name and same.slug == a.tournament.slug
    again = create_tournament(by=a.director, name=a.tournament.name, game="schafkopf", date=datetime.date(2026, 3, 2))
    assert again.slug == f"{a.tournament.slug}-2"
    twin = seasons.create_season(by=b.director, name=a.season.name, game="schafkopf", place_points=["1"])
    assert twin.slug == a.season.slug
    assert seasons.create_season(by=a.director, name=a.season.name, game="schafkopf",
                                 place_points=["1"]).slug == f"{a.season.slug}-2"


def test_a_club_gets_a_short_name_of_its_own_never_a_reserved_word():
    from tournament.models import Organisation

    first, second = Organisation.objects.create(name="SK Isartal"), Organisation.objects.create(name="SK-Isartal")
    assert (first.slug, second.slug) == ("sk-isartal", "sk-isartal-2")
    assert Organisation.objects.create(name="Manage").slug == "manage-2"


# --- roles and the club's members ----------------------------------------------------------------------------


def test_a_tournament_role_goes_to_members_of_its_club_only(clubs):
    a, b = clubs.a, clubs.b
    with pytest.raises(DomainError):
        roles.set_role(a.tournament, b.director, Role.ASSISTANT, by=a.director)
    assert set(members_of(a.club)) == {a.admin, a.director}
    assert roles.set_role(a.tournament, a.admin, Role.ASSISTANT, by=a.director).role == Role.ASSISTANT


def test_an_invited_member_gets_an_account_and_a_one_time_link(clubs, client):
    a = clubs.a
    membership, link = club_services.invite(a.club, by=a.admin, username="newbie", first_name="Nina",
                                            last_name="Neu", role=MemberRole.DIRECTOR)
    user = membership.user
    assert not user.has_usable_password() and user.get_full_name() == "Nina Neu"
    assert AuditEntry.objects.filter(action="club.invite", organisation=a.club, object_repr="newbie").exists()
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert default_token_generator.check_token(user, token)
    page = client.get(link, follow=True)
    assert page.context["validlink"]
    client.post(page.redirect_chain[-1][0], {"new_password1": "Ein-gutes-Passwort-7", "new_password2":
                                             "Ein-gutes-Passwort-7"})
    user.refresh_from_db()
    assert user.check_password("Ein-gutes-Passwort-7")
    assert not default_token_generator.check_token(user, token)  # used up
    assert not client.get(link, follow=True).context["validlink"]


def test_only_the_clubs_admin_invites_and_names_are_not_taken_twice(clubs):
    a, b = clubs.a, clubs.b
    with pytest.raises(DomainError):
        club_services.invite(a.club, by=a.director, username="x")
    with pytest.raises(DomainError):
        club_services.invite(a.club, by=b.admin, username="x")
    with pytest.raises(DomainError):
        club_services.invite(a.club, by=a.admin, username="DIRECTOR_B")
    assert not get_user_model().objects.filter(username="x").exists()


def test_a_club_keeps_an_admin(clubs):
    a = clubs.a
    admin = Membership.objects.get(user=a.admin)
    with pytest.raises(DomainError):
        club_services.set_member_role(admin, MemberRole.DIRECTOR, by=a.admin)
    with pytest.raises(DomainError):
        club_services.remove_member(admin, by=a.admin)
    director = Membership.objects.get(user=a.director)
    club_services.set_member_role(director, MemberRole.ADMIN, by=a.admin)
    assert club_services.set_member_role(admin, MemberRole.DIRECTOR, by=fresh(a.director)).role == "director"


def test_a_removed_member_loses_the_clubs_roles_and_nothing_is_left_without_a_director(clubs):
    a, b = clubs.a, clubs.b
    both = new_member(b.club, "both")
    Membership.objects.create(organisation=a.club, user=both)
    TournamentRole.objects.create(tournament=b.tournament, user=both, role=Role.ASSISTANT)
    club_services.remove_member(Membership.objects.get(user=a.director), by=a.admin)
    assert not Membership.objects.filter(user=a.director).exists()
    assert not TournamentRole.objects.filter(user=a.director).exists()
    assert TournamentRole.objects.get(tournament=a.tournament).user == a.admin  # directed alone: the admin's now
    assert list(Season.objects.get(pk=a.season.pk).directors.all()) == [a.admin]
    club_services.remove_member(Membership.objects.get(user=both, organisation=a.club), by=a.admin)
    assert TournamentRole.objects.filter(user=both, tournament=b.tournament).exists()  # club b's role stays
    assert visible_tournaments(fresh(a.director)).count() == 0
    entry = AuditEntry.objects.filter(action="club.remove", organisation=a.club).first()
    assert entry.object_repr == "both"


def test_the_club_page_is_linked_where_there_is_something_to_manage(clubs):
    assert shows_club_page(fresh(clubs.a.admin))
    assert not shows_club_page(fresh(clubs.a.director))


# --- imports and the command ----------------------------------------------------------------------------------


def test_an_imported_tournament_and_its_register_entries_belong_to_the_importers_club(clubs):
    a, b = clubs.a, clubs.b
    add_participant(a.tournament, by=a.director, first_name="Anna", last_name="Huber", club="SK Au")
    copy = import_tournament(export_tournament(a.tournament), by=b.director, keep_roles=["admin_a"])
    assert copy.organisation == b.club
    assert copy.participants.get().person == b.person  # b's own Anna Huber, not a's
    assert set(AuditEntry.objects.filter(tournament=copy).values_list("organisation_id", flat=True)) == {b.club.pk}
    assert not TournamentRole.objects.filter(tournament=copy, user=a.admin).exists()  # not a member of b


def test_createclub_names_a_new_servers_empty_club_then_adds_clubs(db, capsys):
    Organisation.objects.all().delete()
    default_organisation()
    call_command("createclub", "SK Isartal", "--admin", "anna")
    assert list(Organisation.objects.values_list("name", flat=True)) == ["SK Isartal"]
    anna = get_user_model().objects.get(username="anna")
    assert Membership.objects.get(user=anna).role == MemberRole.ADMIN and not anna.has_usable_password()
    assert "/accounts/password/" in capsys.readouterr().out
    call_command("createclub", "TC Moosach", "--admin", "anna")
    assert Organisation.objects.count() == 2 and anna.memberships.count() == 2


def test_createclub_gives_the_new_servers_first_club_the_short_name_of_its_name(db):
    """Its addresses are /c/sk-isartal/…, not /c/club/… (the name the first migrate gave it) beside /c/tc-moosach/."""
    Organisation.objects.all().delete()
    default_organisation()
    call_command("createclub", "SK Isartal", "--admin", "anna")
    call_command("createclub", "TC Moosach", "--admin", "bernd")
    assert sorted(Organisation.objects.values_list("slug", flat=True)) == ["sk-isartal", "tc-moosach"]


def test_a_file_naming_another_clubs_season_does_not_join_it(clubs):
    """The season a tournament file names is looked up in the importer's club only: club B's copy of club A's
    evening gets a season of B's own, and A's season keeps its one evening."""
    a, b = clubs.a, clubs.b
    copy = import_tournament(export_tournament(a.tournament), by=b.director, keep_roles=[])
    copy.refresh_from_db()
    assert copy.organisation == b.club
    assert copy.season_id not in (None, a.season.pk) and copy.season.organisation == b.club
    assert copy.season.uid != a.season.uid
    assert list(Season.objects.get(pk=a.season.pk).tournaments.all()) == [a.tournament]
