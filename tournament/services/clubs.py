"""A club's people: its admin invites directors and assistants, changes their roles and removes them
(tournament/models/organisation.py, the club page tournament/views/clubs.py); `manage.py createclub` makes a club.

An invited person gets an account without a password and a one-time link to set it (Django's password-reset
token: it opens until the password is set, then never again); no e-mail is sent at a venue. Every change is in
the club's audit log.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from ..models import MemberRole, Membership, Organisation, Person, Role, Season, Tournament, TournamentRole
from ..models.organisation import DIRECTING
from ..tenancy import administers, forget_club_roles
from .audit import log_action
from .errors import DomainError


def _admin_site_access(user) -> None:
    """Whoever directs in a club uses the admin's role form, as the Directors group's users always have (staff, in
    the group); whoever directs nowhere any more leaves the group. A superuser is left as they are."""
    from django.contrib.auth.models import Group

    from ..permissions import DIRECTORS_GROUP

    if user.is_superuser:
        return
    forget_club_roles(user)
    group, _created = Group.objects.get_or_create(name=DIRECTORS_GROUP)
    if Membership.objects.filter(user=user, role__in=DIRECTING).exists():
        user.groups.add(group)
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
    else:
        user.groups.remove(group)


def _require_admin(by, club: Organisation) -> None:
    if not administers(by, club):
        raise DomainError(_("Only an admin of this club can manage its members."))


def _entry(membership: Membership) -> dict:
    return {"user": membership.user.get_username(), "role": membership.role}


def _unused_first_club() -> Organisation | None:
    """The installation's only club while nothing is in it yet (a new server's, made by the first migrate)."""
    clubs = list(Organisation.objects.order_by("pk")[:2])
    if len(clubs) != 1:
        return None
    club = clubs[0]
    used = (Tournament.objects.of(club).exists() or Season.objects.of(club).exists()
            or Person.objects.of(club).exists() or Membership.objects.filter(organisation=club).exists())
    return None if used else club


def create_club(name: str, admin) -> Organisation:
    """A club on the server with its first admin (the server's superuser's `manage.py createclub`). A new server's
    empty first club is named so rather than left beside it unused."""
    name = " ".join(name.split())
    if not name:
        raise DomainError(_("A club needs a name."), field="name")
    with transaction.atomic():
        if Organisation.objects.filter(name__iexact=name).exists():
            raise DomainError(_("There is a club of this name already."), field="name")
        club = _unused_first_club()
        if club is None:
            club = Organisation.objects.create(name=name)
        else:
            club.name = name  # and its addresses' short name, made from the name as a new club's is
            club.slug = Organisation.unique_slug(name, exclude_pk=club.pk)
            club.save(update_fields=["name", "slug"])
        membership = Membership.objects.create(organisation=club, user=admin, role=MemberRole.ADMIN)
        _admin_site_access(admin)
        log_action("club.add", by=None, organisation=club, obj=club, after=_entry(membership))
    return club


def password_link(user) -> str:
    """The address where `user` sets a password: valid until a password is set (or for PASSWORD_RESET_TIMEOUT)."""
    return reverse("set_password", kwargs={"uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                                           "token": default_token_generator.make_token(user)})


def invite(club: Organisation, *, by, username: str, first_name: str = "", last_name: str = "",
           role: str = MemberRole.DIRECTOR) -> tuple[Membership, str]:
    """A new account in the club, with no password yet; returns the membership and the one-time link."""
    _require_admin(by, club)
    user_model = get_user_model()
    username = username.strip()
    if role not in MemberRole.values:
        raise DomainError(_("Unknown role: %(role)s") % {"role": role}, field="role")
    field = user_model._meta.get_field(user_model.USERNAME_FIELD)
    try:
        username = field.clean(username, None)
    except Exception as error:  # the model's validators: a ValidationError with the translated reason
        raise DomainError(" ".join(getattr(error, "messages", [str(error)])), field="username") from None
    with transaction.atomic():
        if user_model._default_manager.filter(**{f"{user_model.USERNAME_FIELD}__iexact": username}).exists():
            raise DomainError(_("This user name is taken: choose another."), field="username")
        user = user_model._default_manager.create_user(username=username, first_name=first_name.strip()[:150],
                                                       last_name=last_name.strip()[:150])
        user.set_unusable_password()
        user.save(update_fields=["password"])
        membership = Membership.objects.create(organisation=club, user=user, role=role)
        _admin_site_access(user)
        log_action("club.invite", by=by, organisation=club, obj=membership.user.get_username(),
                   after=_entry(membership))
    return membership, password_link(user)


def new_password_link(membership: Membership, *, by) -> str:
    """A fresh link for a member who lost theirs or their password; the password stays until a new one is set."""
    _require_admin(by, membership.organisation)
    with transaction.atomic():
        log_action("club.password_link", by=by, organisation=membership.organisation,
                   obj=membership.user.get_username())
    return password_link(membership.user)


def _admins_left(club: Organisation, without: Membership) -> bool:
    return Membership.objects.filter(organisation=club, role=MemberRole.ADMIN).exclude(pk=without.pk).exists()


def set_club_address(club: Organisation, slug: str, *, by) -> Organisation:
    """The club's short name in addresses (/c/<slug>/… on a server of several clubs): letters, digits and dashes,
    no reserved word, no other club's. The club's old addresses answer 404 from then on (printed QR codes too)."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_slug

    from ..models.organisation import RESERVED_CLUB_SLUGS

    _require_admin(by, club)
    slug = slug.strip().lower()
    try:
        validate_slug(slug)
    except ValidationError:
        raise DomainError(_("A short name has only letters, digits, dashes and underscores."), field="slug") from None
    if slug in RESERVED_CLUB_SLUGS:
        raise DomainError(_("“%(slug)s” is a word of the addresses themselves: choose another.") % {"slug": slug},
                          field="slug")
    with transaction.atomic():
        club = Organisation.objects.select_for_update().get(pk=club.pk)
        if club.slug == slug:
            return club
        if Organisation.objects.filter(slug=slug).exclude(pk=club.pk).exists():
            raise DomainError(_("Another club has this short name."), field="slug")
        before = {"slug": club.slug}
        club.slug = slug
        club.save(update_fields=["slug"])
        log_action("club.address", by=by, organisation=club, obj=club.name, before=before, after={"slug": slug})
    return club


def set_member_role(membership: Membership, role: str, *, by) -> Membership:
    club = membership.organisation
    _require_admin(by, club)
    if role not in MemberRole.values:
        raise DomainError(_("Unknown role: %(role)s") % {"role": role}, field="role")
    with transaction.atomic():
        membership = Membership.objects.select_for_update().select_related("user").get(pk=membership.pk)
        if membership.role == role:
            return membership
        if membership.role == MemberRole.ADMIN and not _admins_left(club, membership):
            raise DomainError(_("A club keeps at least one admin: make another member admin first."))
        before = _entry(membership)
        membership.role = role
        membership.save(update_fields=["role"])
        _admin_site_access(membership.user)
        log_action("club.role", by=by, organisation=club, obj=membership.user.get_username(), before=before,
                   after=_entry(membership))
    return membership


def remove_member(membership: Membership, *, by) -> None:
    """The member leaves the club, with their roles in its tournaments and seasons. A tournament or season they
    directed alone is directed by the admin who removed them from then on (nothing is left without a director)."""
    club = membership.organisation
    _require_admin(by, club)
    with transaction.atomic():
        membership = Membership.objects.select_for_update().select_related("user").get(pk=membership.pk)
        if membership.role == MemberRole.ADMIN and not _admins_left(club, membership):
            raise DomainError(_("A club keeps at least one admin: make another member admin first."))
        user = membership.user
        held = TournamentRole.objects.filter(user=user, tournament__in=Tournament.objects.of(club))
        alone = [role.tournament for role in held.filter(role=Role.DIRECTOR).select_related("tournament")
                 if not TournamentRole.objects.filter(tournament=role.tournament_id, role=Role.DIRECTOR)
                 .exclude(user=user).exists()]
        roles = [f"{role.tournament.name}: {role.role}" for role in held.select_related("tournament")]
        held.delete()
        for tournament in alone:
            TournamentRole.objects.update_or_create(tournament=tournament, user=by,
                                                    defaults={"role": Role.DIRECTOR})
        seasons = list(Season.objects.of(club).filter(directors=user))
        for season in seasons:
            season.directors.remove(user)
            if not season.directors.exists():
                season.directors.add(by)
        membership.delete()
        _admin_site_access(user)
        log_action("club.remove", by=by, organisation=club, obj=user.get_username(), before=_entry(membership),
                   after={"roles_removed": roles, "seasons_left": [s.name for s in seasons],
                          "directed_now_by": by.get_username() if alone else None})
