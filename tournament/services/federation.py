"""A federation above clubs: its register of members with stable numbers, the clubs' links to it, merges held by
the federation, and its seasons (tournament/models/federation.py).

Who may: a federation's admins (`tenancy.administered_federation`) give numbers, merge members and keep the
federation's seasons; they read no club's contacts. A club's directors link their register's entries to a member
of their club's federation by number, ask for a new number, and let their tournaments join a federation season.
Every change is audited: the federation's own changes in its log, a club's links in the club's.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import (
    Federation,
    FederationAdmin,
    FederationMember,
    FederationSeason,
    Organisation,
    Participant,
    Person,
    Tournament,
)
from ..permissions import is_director
from ..tenancy import administered_federation, directs_in
from .audit import log_action
from .errors import DomainError
from .register import link_to_register
from .seasons import new_season_values, season_snapshot


def _tidy(text: str) -> str:
    return " ".join(str(text).split())


def _require_admin(by, federation: Federation) -> None:
    found = administered_federation(by)
    if found is None or found.pk != federation.pk:
        raise DomainError(_("Only an admin of the federation can do this."))


def _require_entry_keeper(by, person: Person) -> Federation:
    """The federation of the entry's club, where `by` keeps the club's register."""
    if not directs_in(by, person.organisation_id):
        raise DomainError(_("Only a director can change the player register."))
    federation = Organisation.objects.get(pk=person.organisation_id).federation
    if federation is None:
        raise DomainError(_("Your club belongs to no federation."))
    return federation


# --- the federation and its clubs (manage.py createfederation) ----------------------------------------------------


def create_federation(name: str, *, admin, clubs=()) -> Federation:
    """A federation with its first admin and its member clubs; the server's superuser runs it."""
    name = _tidy(name)
    if not name:
        raise DomainError(_("A federation needs a name."))
    if Federation.objects.filter(name__iexact=name).exists():
        raise DomainError(_("There is a federation of this name already."))
    with transaction.atomic():
        federation = Federation.objects.create(name=name)
        FederationAdmin.objects.create(federation=federation, user=admin)
        for club in clubs:
            join_federation(federation, club)
        log_action("federation.add", by=None, obj=federation, federation=federation,
                   after={"admin": str(admin), "clubs": [club.name for club in clubs]})
    admin.__dict__.pop("_federation", None)
    return federation


def join_federation(federation: Federation, club: Organisation) -> None:
    """The club becomes a member club of the federation (a club belongs to one federation at most)."""
    if club.federation_id not in (None, federation.pk):
        raise DomainError(_("“%(club)s” belongs to another federation.") % {"club": club.name})
    if club.federation_id is None:
        club.federation = federation
        club.save(update_fields=["federation"])
        log_action("federation.club", by=None, obj=club, federation=federation, after={"club": club.name})


# --- member numbers --------------------------------------------------------------------------------------------------


def resolve(federation, number: int) -> FederationMember | None:
    """The member a number stands for in the federation: a merged (retired) number resolves to the member kept."""
    member = FederationMember.objects.filter(federation=federation, number=number).first()
    seen = set()
    while member is not None and member.merged_into_id is not None and member.pk not in seen:
        seen.add(member.pk)
        member = member.merged_into
    return member


def _next_number(federation: Federation) -> int:
    federation = Federation.objects.select_for_update().get(pk=federation.pk)
    federation.last_number += 1
    federation.save(update_fields=["last_number"])
    return federation.last_number


def request_number(person: Person, *, by) -> Person:
    """The club asks its federation for a member number for this entry (the federation's admin assigns it)."""
    _require_entry_keeper(by, person)
    if person.member_id is not None:
        raise DomainError(_("This entry has a member number already."))
    with transaction.atomic():
        Person.objects.filter(pk=person.pk).update(member_requested=True)
        person.member_requested = True
        log_action("federation.number_requested", by=by, obj=person)
    return person


def number_requests(federation: Federation):
    """The entries of member clubs waiting for a number: their names and clubs (the federation reads no contact)."""
    return (Person.objects.filter(organisation__federation=federation, member_requested=True, member__isnull=True)
            .select_related("organisation").only("first_name", "last_name", "organisation__name"))


def assign_number(person: Person, *, by) -> FederationMember:
    """A new member of the federation for an entry that asked for one: the next number, the entry's name, its club
    as home club; the entry links to it."""
    federation = Organisation.objects.get(pk=person.organisation_id).federation
    if federation is None:
        raise DomainError(_("There is no such request."))
    _require_admin(by, federation)
    with transaction.atomic():
        person = Person.objects.select_for_update().get(pk=person.pk)
        if person.member_id is not None or not person.member_requested:
            raise DomainError(_("There is no such request."))
        member = FederationMember.objects.create(
            federation=federation, number=_next_number(federation), first_name=person.first_name,
            last_name=person.last_name, home_club_id=person.organisation_id)
        person.member, person.member_requested = member, False
        person.save(update_fields=["member", "member_requested"])
        log_action("federation.member_add", by=by, obj=member, federation=federation,
                   after={"number": member.number, "name": member.name, "home_club": str(member.home_club)})
    return member


def link_entry(person: Person, number, *, by) -> FederationMember:
    """Link a club's register entry to the member of this number in the club's federation (a retired number: to
    the member it was merged into). A number of another federation is as unknown as one never given."""
    federation = _require_entry_keeper(by, person)
    member = resolve(federation, number) if isinstance(number, int) and 0 < number < 2**31 else None
    if member is None:
        raise DomainError(_("Your federation has no member with the number %(number)s.") % {"number": number},
                          field="number")
    with transaction.atomic():
        before = Person.objects.select_for_update().get(pk=person.pk).member
        if before is not None and before.pk == member.pk:
            return member
        Person.objects.filter(pk=person.pk).update(member=member, member_requested=False)
        person.member, person.member_requested = member, False
        log_action("federation.link", by=by, obj=person, before={"number": before.number if before else None},
                   after={"number": member.number})
    return member


def unlink_entry(person: Person, *, by) -> None:
    _require_entry_keeper(by, person)
    with transaction.atomic():
        before = Person.objects.select_for_update().get(pk=person.pk).member
        if before is None:
            return
        Person.objects.filter(pk=person.pk).update(member=None)
        person.member = None
        log_action("federation.unlink", by=by, obj=person, before={"number": before.number})


def merge_members(keep: FederationMember, other: FederationMember, *, by, reason: str = "") -> FederationMember:
    """`other` is the same person as `keep`: the clubs' entries linked to `other` link to `keep`, and `other`'s
    number is retired (it never goes to anyone else and still resolves to `keep`). `keep`'s number stays."""
    _require_admin(by, keep.federation)
    if keep.pk == other.pk:
        raise DomainError(_("Choose two different members to merge."), field="other")
    if keep.federation_id != other.federation_id:
        raise DomainError(_("There is no member with this number."), field="other")
    with transaction.atomic():
        keep = FederationMember.objects.select_for_update().get(pk=keep.pk)
        other = FederationMember.objects.select_for_update().get(pk=other.pk)
        if keep.merged_into_id or other.merged_into_id:
            raise DomainError(_("This number was merged already: merge into the member it stands for."),
                              field="other")
        mine = set(Participant.objects.filter(person__member=keep).values_list("tournament_id", flat=True))
        theirs = set(Participant.objects.filter(person__member=other).values_list("tournament_id", flat=True))
        if mine & theirs:
            raise DomainError(_("Both members play in the same tournament: they are two people, not one."),
                              field="other")
        moved = [f"{p.organisation.name}: {p.name}" for p in Person.objects.filter(member=other)
                 .select_related("organisation")]
        Person.objects.filter(member=other).update(member=keep)
        FederationMember.objects.filter(merged_into=other).update(merged_into=keep)
        other.merged_into = keep
        other.save(update_fields=["merged_into"])
        log_action("federation.merge", by=by, obj=keep, federation=keep.federation, reason=reason,
                   before={"merged": {"number": other.number, "first_name": other.first_name,
                                      "last_name": other.last_name}},
                   after={"kept": keep.number, "entries_moved": moved})
    return keep


def members_of(federation: Federation):
    """The federation's register: its members whose number is not retired."""
    return FederationMember.objects.filter(federation=federation, merged_into__isnull=True).select_related(
        "home_club")


def entries_of(member: FederationMember) -> list[tuple[str, str]]:
    """(club, name) of the clubs' register entries linked to the member: what the federation may read of them."""
    return list(Person.objects.filter(member=member).order_by("organisation__name", "pk")
                .values_list("organisation__name", "last_name"))


# --- the federation's seasons -----------------------------------------------------------------------------------


def create_federation_season(federation: Federation, *, by, **settings) -> FederationSeason:
    """A new season of the federation (`settings`: as `seasons.new_season_values` takes them)."""
    _require_admin(by, federation)
    values = new_season_values(**settings)
    with transaction.atomic():
        season = FederationSeason.objects.create(federation=federation, created_by=by,
                                                 slug=FederationSeason.unique_slug(values["name"]), **values)
        log_action("federation.season_add", by=by, obj=season, federation=federation,
                   after={**season_snapshot(season), "game": season.game})
    return season


def set_federation_season_published(season: FederationSeason, publish: bool, *, by) -> FederationSeason:
    _require_admin(by, season.federation)
    with transaction.atomic():
        season = FederationSeason.objects.select_for_update().get(pk=season.pk)
        if season.publish != publish:
            season.publish = publish
            season.save(update_fields=["publish"])
            log_action("federation.season_publish", by=by, obj=season, federation=season.federation_id,
                       before={"publish": not publish}, after={"publish": publish})
    return season


def seasons_open_to(tournament: Tournament):
    """The federation seasons the tournament may join: of its club's federation and its game."""
    federation_id = Organisation.objects.filter(pk=tournament.organisation_id).values_list("federation_id",
                                                                                         flat=True).first()
    if federation_id is None:
        return FederationSeason.objects.none()
    return FederationSeason.objects.filter(federation_id=federation_id, game=tournament.game)


def join_federation_season(tournament: Tournament, season: FederationSeason | None, *, by) -> Tournament:
    """The tournament counts in the federation's season (None: in none); its director decides, for his club's
    tournaments only. Its players are linked to the club's register, so that their member numbers count."""
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can change it."))
    if season is not None and not seasons_open_to(tournament).filter(pk=season.pk).exists():
        raise DomainError(_("Only a season of your club's federation and of the tournament's game can be chosen."),
                          field="federation_season")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = tournament.federation_season
        if getattr(before, "pk", None) == getattr(season, "pk", None):
            return tournament
        tournament.federation_season = season
        tournament.save(update_fields=["federation_season", "updated"])
        if season is not None:
            link_to_register(tournament)
        log_action("federation.season_evening", by=by, tournament=tournament,
                   obj=season or before, federation=(season or before).federation_id,
                   before={"season": str(before) if before else None},
                   after={"season": str(season) if season else None})
    return tournament


def federation_season_of(user, slug: str) -> FederationSeason | None:
    federation = administered_federation(user)
    if federation is None:
        return None
    return FederationSeason.objects.filter(federation=federation, slug=slug).first()

