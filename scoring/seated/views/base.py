"""What every page of a seated game is: it knows the tournament's game and settings, and marks itself in the
game's menu. The game's URLconf refuses tournaments of other games (tournament/game_pages.py)."""

from __future__ import annotations

from django.urls import reverse

from scoring.board import StillMissingMixin
from tournament.permissions import DirectorRequiredMixin, ScoreEntryMixin
from tournament.services.errors import DomainError

from ..game import seated_game


def url(tournament, name: str, *args) -> str:
    """The address of the tournament's page `name` (the game's namespace)."""
    return reverse(f"tournament:{seated_game(tournament).namespace}:{name}", args=[tournament.slug, *args])


def fail(form, error: DomainError) -> None:
    """Put a service's refusal on the form: on its field when it names one, else on the form."""
    form.add_error(error.field if error.field in form.fields else None, error.message)


class SeatedPage:
    """`self.game` (the `SeatedGame`) and `self.settings`; `nav` marks the page in the game's menu."""

    nav = ""

    def dispatch(self, request, *args, **kwargs):
        # runs after the role mixin has loaded self.tournament and checked the role
        self.game = seated_game(self.tournament)
        self.settings = self.game.settings_of(self.tournament)
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(nav=self.nav, game=self.game, settings=self.settings,
                       menu=self.game.menu_items(self.tournament), **self.game.page_context(self.settings))
        return context


class DirectorPage(DirectorRequiredMixin, SeatedPage):
    pass


class EntryPage(ScoreEntryMixin, StillMissingMixin, SeatedPage):
    @property
    def board_namespace(self) -> str:
        return f"tournament:{self.game.namespace}"
