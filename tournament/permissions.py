"""Who may do what: directors run their tournaments, assistants enter score sheets.

A *director* is a user who directs in a club (tournament.tenancy: a club admin or director member; on a laptop the
"Directors" group) and is director of the tournaments they created or were named director of. An *assistant* holds
the assistant role in a tournament and may only enter and confirm score sheets there. A tournament role is given
only to a member of the tournament's club (`tenancy.members_of`) and goes when the member leaves the club, so the
roles are the access to a club's tournaments. Superusers are directors everywhere.
"""

from __future__ import annotations

from django.contrib.auth.mixins import AccessMixin
from django.http import Http404
from django.utils.translation import gettext as _

from .models import Role, Tournament, TournamentRole
from .prepared import Prepared
from .services.errors import DomainError
from .tenancy import directs_a_club

DIRECTORS_GROUP = "Directors"


def can_create_tournaments(user) -> bool:
    """The user directs in a club (tournament.tenancy): creates tournaments and seasons, keeps the register."""
    return directs_a_club(user)


def keeps_register(user) -> bool:
    """`can_create_tournaments`, asked by the top bar of every page: one query (the user's memberships), kept for
    the request."""
    return directs_a_club(user)


def role_in(user, tournament: Tournament) -> str | None:
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.DIRECTOR
    # One query per tournament and request; filled on demand so a role given in this
    # request (creating a tournament makes its creator director) is seen at once.
    cache = user.__dict__.setdefault("_tournament_roles", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = _ROLE.first(user=user.pk, tournament=tournament.pk)
    return cache[tournament.pk]


#: asked on every page of a tournament: compiled once (tournament/prepared.py)
_ROLE = Prepared(TournamentRole, lambda user, tournament: TournamentRole.objects.filter(
    user_id=user, tournament_id=tournament).values_list("role", flat=True).order_by("pk")[:1])


def is_director(user, tournament: Tournament) -> bool:
    return role_in(user, tournament) == Role.DIRECTOR


def require_director(user, tournament: Tournament, message: str | None = None) -> None:
    """The check at the top of every director's service: refuse (a `DomainError`) anyone who is not a director of
    this tournament, with `message` or the general "only a director" text."""
    if not is_director(user, tournament):
        raise DomainError(str(message) if message is not None else _("Only a director of this tournament can do this."))


def can_enter_results(user, tournament: Tournament) -> bool:
    return role_in(user, tournament) in (Role.DIRECTOR, Role.ASSISTANT)


def visible_tournaments(user):
    """The tournaments a user works on (any role), for their list page."""
    qs = Tournament.objects.all()
    if user.is_superuser:
        return qs
    return qs.filter(roles__user=user).distinct()


def menu_for(user, tournament: Tournament, menu) -> list:
    """The entries of a game's menu (label, address) whose page opens for the user's role: an assistant is not
    offered the director's pages, which would answer "not found"."""
    from .clubaddress import resolve_address

    role = role_in(user, tournament)
    return [(label, url) for label, url in menu
            if role in getattr(resolve_address(url).func, "view_class", TournamentRoleRequiredMixin).allowed_roles]


class TournamentRoleRequiredMixin(AccessMixin):
    """Loads `self.tournament` from the slug and refuses users without the role.

    Anonymous users are sent to the login page; logged-in users without the role
    get 404, so the existence of other directors' tournaments is not revealed.
    """

    allowed_roles: tuple[str, ...] = (Role.DIRECTOR,)

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        from .requested import tournament_by_slug

        self.tournament = tournament_by_slug(request, kwargs["slug"])  # read once a request, with the time zone
        if self.tournament is None:
            raise Http404("No tournament with this address.")
        if role_in(request.user, self.tournament) not in self.allowed_roles:
            raise Http404
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["role"] = role_in(self.request.user, self.tournament)
        return context


class DirectorRequiredMixin(TournamentRoleRequiredMixin):
    allowed_roles = (Role.DIRECTOR,)


class ScoreEntryMixin(TournamentRoleRequiredMixin):
    allowed_roles = (Role.DIRECTOR, Role.ASSISTANT)
