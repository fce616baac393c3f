"""What every Voms page uses: the game's URLs, a refusal shown on its form, the pools the knockout's forms follow."""

from __future__ import annotations

from django.urls import reverse

from tournament.services.errors import DomainError

from .. import queries


def url(tournament, name: str, *args) -> str:
    return reverse(f"tournament:voms:{name}", args=[tournament.slug, *args])


def pool_count(tournament) -> int:
    """The pools drawn, or (before the draw) the pools the settings plan: the knockout's forms follow it."""
    stage = queries.pools_stage(tournament)
    if stage is not None:
        return stage.pools.count()
    return int(queries.settings_of(tournament)["pools"])


def fail(form, error: DomainError):
    form.add_error(error.field if error.field in form.fields else None, error.message)
