"""Publishing a tournament's public pages: each kind on its own, switched by a director."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Tournament
from ..permissions import is_director
from .audit import log_action
from .errors import DomainError

#: every kind of public page, in menu order, with the Tournament flag that publishes it
KINDS = ("schedule", "standings", "bracket", "results")
KIND_NAMES = {
    "schedule": gettext_lazy("Schedule and seating"),
    "standings": gettext_lazy("Standings"),
    "bracket": gettext_lazy("Bracket"),
    "results": gettext_lazy("Results"),
}
MIN_BEAMER_SECONDS, MAX_BEAMER_SECONDS = 5, 300


def flag(kind: str) -> str:
    return f"publish_{kind}"


def published_kinds(tournament: Tournament) -> tuple[str, ...]:
    return tuple(kind for kind in KINDS if getattr(tournament, flag(kind)))


def _snapshot(tournament: Tournament) -> dict:
    return {"published": list(published_kinds(tournament)), "beamer_seconds": tournament.beamer_seconds}


def set_publication(
    tournament: Tournament, *, by, kinds: Iterable[str], beamer_seconds: int | None = None
) -> Tournament:
    """Publish exactly `kinds` (the rest is unpublished at once) and set the beamer's page interval.

    The audit entry this writes also renews the public pages' cache (tournament.public.cache).
    """
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can publish its pages."))
    kinds = set(kinds)
    unknown = kinds - set(KINDS)
    if unknown:
        raise DomainError(_("Unknown kind of public page: %(kinds)s") % {"kinds": ", ".join(sorted(unknown))})
    if beamer_seconds is not None and not MIN_BEAMER_SECONDS <= beamer_seconds <= MAX_BEAMER_SECONDS:
        raise DomainError(
            _("The beamer shows each page for %(min)s to %(max)s seconds.")
            % {"min": MIN_BEAMER_SECONDS, "max": MAX_BEAMER_SECONDS},
            field="beamer_seconds",
        )
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = _snapshot(locked)
        for kind in KINDS:
            setattr(locked, flag(kind), kind in kinds)
        if beamer_seconds is not None:
            locked.beamer_seconds = beamer_seconds
        locked.save(update_fields=[flag(kind) for kind in KINDS] + ["beamer_seconds", "updated"])
        after = _snapshot(locked)
        if before != after:
            log_action("public.publish", by=by, tournament=locked, obj=locked, before=before, after=after)
    return locked
