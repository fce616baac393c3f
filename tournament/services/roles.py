"""Giving and taking roles in a tournament (the admin's *Roles* page calls these)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Role, Tournament, TournamentRole
from ..permissions import is_director
from ..tenancy import members_of
from .audit import log_action
from .errors import DomainError


def _entry(user, role: str | None) -> dict | None:
    return None if role is None else {"user": user.get_username(), "role": role}


def check_role_change(tournament: Tournament, user, role: str | None, *, by) -> None:
    """Raise DomainError unless `by` may give `user` the `role` (None: no role) in `tournament`."""
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can give or take its roles."))
    if role is not None and role not in Role.values:
        raise DomainError(_("Unknown role: %(role)s") % {"role": role}, field="role")
    if role is not None and not members_of(tournament.organisation_id).filter(pk=user.pk).exists():
        raise DomainError(_("%(user)s is not a member of the tournament's club.") % {"user": user.get_username()},
                          field="user")
    current = TournamentRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True).first()
    if current == Role.DIRECTOR and role != Role.DIRECTOR:
        others = TournamentRole.objects.filter(tournament=tournament, role=Role.DIRECTOR).exclude(user=user)
        if not others.exists():
            raise DomainError(_("A tournament keeps at least one director: name another director first."))


def set_role(tournament: Tournament, user, role: str, *, by) -> TournamentRole:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        check_role_change(tournament, user, role, by=by)
        held, created = TournamentRole.objects.get_or_create(tournament=tournament, user=user, defaults={"role": role})
        before = None if created else held.role
        if before != role:
            held.role = role
            held.save(update_fields=["role"])
            log_action("role.set", by=by, tournament=tournament, obj=held,
                       before=_entry(user, before), after=_entry(user, role))
    return held


def remove_role(held: TournamentRole, *, by) -> None:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=held.tournament_id)
        check_role_change(tournament, held.user, None, by=by)
        deleted, _rows = TournamentRole.objects.filter(pk=held.pk).delete()
        if deleted:
            log_action("role.remove", by=by, tournament=tournament, obj=held, before=_entry(held.user, held.role))
