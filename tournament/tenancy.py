"""Which clubs a user works for: the one place a request's club comes from (tournament/models/organisation.py).

A user's clubs are their memberships. Two cases need none, so that a laptop installation works as before clubs:
a superuser works for every club (and creates in the installation's only one), and on an installation with only
one club whoever has the old director permission (`add_tournament`, the "Directors" group) directs that club. On a
server with several clubs the group alone gives nothing: a club admin invites the club's people.

Pages and services scope a club's data with the managers' `of(...)` and these answers; no page filters by hand.
"""

from __future__ import annotations

import copy

from django.contrib.auth.models import Permission
from django.db.models import Q

from .models import Federation, MemberRole, Membership, Organisation
from .models.organisation import DIRECTING, default_organisation
from .prepared import Prepared


def club_roles(user) -> dict[int, str]:
    """{club pk: role} of the user's memberships (the superuser's clubs need none), read once a request."""
    if not user.is_authenticated or not user.is_active:
        return {}
    cached = user.__dict__.get("_club_roles")
    if cached is None:
        cached = dict(_MEMBERSHIPS.all(user=user.pk))
        if not cached and not user.is_superuser and _directs_the_only_club(user):
            cached = {_the_only_club(): MemberRole.DIRECTOR}
        user.__dict__["_club_roles"] = cached
    return cached


def _director_permission(user):
    return Permission.objects.filter(Q(user=user) | Q(group__user=user), codename="add_tournament",
                                     content_type__app_label="tournament").values_list("pk", flat=True)[:1]


# Asked on every director page (its top bar): compiled once (tournament/prepared.py).
_MEMBERSHIPS = Prepared(Membership, lambda user: Membership.objects.filter(user_id=user)
                        .values_list("organisation_id", "role"))
_DIRECTOR_PERMISSION = Prepared(Permission, _director_permission)
_FEDERATION = Prepared(Federation, lambda user: Federation.objects.filter(admins__user=user).order_by("pk")[:1])


def forget_club_roles(user) -> None:
    """A membership of `user` changed in this request: read it again when next asked."""
    user.__dict__.pop("_club_roles", None)


def _the_only_club() -> int | None:
    """The installation's one club; None on a server of several. A fresh installation has none yet: its one club
    is made now, on first use (`default_organisation`), so the first director (the first start's superuser, a
    member of the Directors group) can create tournaments on a new laptop."""
    try:
        return default_organisation()
    except ValueError:  # several clubs: none is "the" club
        return None


def _directs_the_only_club(user) -> bool:
    """The director permission of a laptop installation (of the user's own or by a group), on an installation
    with one club."""
    return _the_only_club() is not None and bool(_DIRECTOR_PERMISSION.all(user=user.pk))


def organisations_of(user):
    """The clubs whose data the user may see (their memberships; every club for a superuser)."""
    if getattr(user, "is_superuser", False) and user.is_active:
        return Organisation.objects.all()
    return Organisation.objects.filter(pk__in=list(club_roles(user)))


def organisation_of(user) -> Organisation | None:
    """The club the user works for, where their new tournaments, seasons and register entries go: their
    membership (the directing one first, then the oldest), a superuser without one the installation's only club;
    None for a user of no club."""
    roles = club_roles(user)
    if roles:
        directing = [pk for pk, role in roles.items() if role in DIRECTING]
        return Organisation.objects.get(pk=min(directing or roles))
    if getattr(user, "is_superuser", False) and user.is_active:
        only = _the_only_club()
        return Organisation.objects.get(pk=only) if only is not None else None
    return None


def role_in_club(user, organisation) -> str | None:
    """The user's role in the club (a superuser is its admin)."""
    if getattr(user, "is_superuser", False) and user.is_active:
        return MemberRole.ADMIN
    return club_roles(user).get(getattr(organisation, "pk", organisation))


def directs_in(user, organisation) -> bool:
    """The user may create tournaments and seasons and keep the register in this club."""
    return role_in_club(user, organisation) in DIRECTING


def directs_a_club(user) -> bool:
    """The user directs in some club: the top bar offers the register and the seasons, the list "new tournament"."""
    if getattr(user, "is_superuser", False) and user.is_active:
        return True
    return any(role in DIRECTING for role in club_roles(user).values())


def administers(user, organisation) -> bool:
    return role_in_club(user, organisation) == MemberRole.ADMIN


def administered_club(user) -> Organisation | None:
    """The club whose members the user manages (the club page): the club they are admin of, a superuser's own
    club (the installation's only one)."""
    admin_of = [pk for pk, role in club_roles(user).items() if role == MemberRole.ADMIN]
    if admin_of:
        return Organisation.objects.get(pk=min(admin_of))
    if getattr(user, "is_superuser", False) and user.is_active:
        return organisation_of(user)
    return None


def shows_club_page(user) -> bool:
    """The top bar links the club page where there is something to manage: on a server with several clubs, for a
    club's admin and a superuser; on a one-club installation only for an admin who shares the club with another
    member. A laptop (one director, a superuser) shows nothing of clubs; a user who is no admin costs no query."""
    admin_of = [pk for pk, role in club_roles(user).items() if role == MemberRole.ADMIN]
    superuser = getattr(user, "is_superuser", False) and user.is_active
    if not admin_of and not superuser:
        return False
    if _the_only_club() is None:
        return True
    return bool(admin_of) and Membership.objects.filter(organisation_id=admin_of[0]).exclude(user=user).exists()


def members_of(organisation):
    """The users who may hold a role in the club's tournaments: its members; on an installation with one club every
    active account (a laptop's accounts are its club's, made in the admin without a membership)."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(is_active=True)
    if _the_only_club() == getattr(organisation, "pk", organisation):
        return users
    return users.filter(memberships__organisation=organisation)


def acting_in(user, organisation):
    """`user` as a club's API token acts for them (tournament/services/api_tokens.py): working for that one club
    only, with the role they hold there, and no superuser's reach into other clubs; their tournament roles are
    theirs. A copy: the user of the request is left as it is."""
    role = role_in_club(user, organisation)
    acting = copy.copy(user)
    acting.__dict__.pop("_tournament_roles", None)
    acting.is_superuser = False
    acting.__dict__["_club_roles"] = {getattr(organisation, "pk", organisation): role} if role else {}
    acting.__dict__["_federation"] = [None]  # a token is a club's: never its maker's federation rights
    return acting


def administered_federation(user):
    """The federation whose register and seasons the user keeps (a federation admin's role, no club's); None for
    everyone else, a superuser too unless made its admin (`manage.py createfederation`)."""
    if not user.is_authenticated or not user.is_active:
        return None
    cached = user.__dict__.get("_federation")
    if cached is None:
        cached = user.__dict__["_federation"] = [_FEDERATION.first(user=user.pk)]
    return cached[0]


def shows_federation_page(user) -> bool:
    """The top bar links the federation's pages for its admin who works for no club (a federation's usual admin)
    or is a superuser; a club's director costs no query (an admin of both finds them on the register page). A
    laptop has no federation: its superuser's answer is always no."""
    if not user.is_authenticated or (club_roles(user) and not user.is_superuser):
        return False
    return administered_federation(user) is not None
