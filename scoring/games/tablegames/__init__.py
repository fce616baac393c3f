"""The table games (domino, domino patiences, rummi, quad-ominos): one Django layer for all of them.

Every game or variant is a pure `GameSpec` (`scoring.rules.tablegames`). A registration is a thin
package (`scoring/games/domino/`, `rummi/`, `quadominos/`, `patience/`) that describes its game as a
`TableGame` — which specs are its variants, the table sizes it prefers, how many rounds a tournament
plays by default, how the demo deals a hand — and calls `register_table_game`. Everything else lives
here and is parameterised by the spec: settings (`config`), the seating draw and sheet entry
(`services`, `sheets`), standings, pages, printouts, demo and public pages. Nothing branches on a
game's key: the pages look the tournament's game up in `family.GAMES`.

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .. import register
from ..base import Game
from .family import GAMES, TableGame


class TableGameRegistration(Game):
    """A table game in the game registry: the shared layer's hooks, parameterised by its `TableGame`."""

    def __init__(self, game: TableGame):
        self.table_game = game
        self.key = game.key
        self.name = game.name
        self.description = game.description
        # a patience's one list per deal is no table's sheet: "Provisional — after 1 of 2 deals"
        self.result_unit = "deals" if game.patience else "sheets"
        self.demo_arguments: tuple[tuple[str, dict[str, Any]], ...] = (
            ("--players", {"type": int, "default": game.demo_players,
                           "help": f"Number of players (default {game.demo_players})."}),
            ("--variant", {"choices": list(game.variants), "default": game.default_variant,
                           "help": f"Which game (default {game.default_variant})."}),
        )

    def default_settings(self) -> dict:
        from .config import default_settings

        return default_settings(self.table_game)

    def check_settings(self, tournament) -> None:
        from .checks import check_settings

        check_settings(tournament)

    def demo(self, director, **options):
        from .demo import create_demo

        return create_demo(self.table_game, director, **options)

    def urlconf(self):
        # one URLconf serves every table game (its views find the game through the tournament); it is
        # mounted once, for all of them (tournament/game_pages.py)
        from . import urls

        return urls

    def menu(self, tournament) -> list:
        def link(name, *args):
            return reverse(f"tournament:tablegames:{name}", args=[tournament.slug, *args])

        patience = self.table_game.patience
        results = _("Results") if patience else _("Score sheets")
        return [
            (_("Overview"), link("overview")),
            (_("Players"), reverse("tournament:desk", args=[tournament.slug])),
            (_("Check-in"), reverse("tournament:checkin", args=[tournament.slug])),
            (_("Settings"), link("settings")),
            (_("Field") if patience else _("Seating"), link("seating")),
            (results, link("round", 1)),
            (_("Round board"), link("board")),
            (_("Standings"), link("standings")),
            (_("Printouts"), link("printouts")),
        ]

    def board(self, tournament, part, *, user=None):
        from scoring.board import seated_board

        return seated_board(tournament, part, namespace="tournament:tablegames", user=user)

    def documents(self, tournament) -> dict:
        from .documents import documents

        return documents(tournament)

    def public(self, tournament):
        from .public import public

        return public(tournament)

    def table_page(self, request, link, *, token):
        from .phone import table_page

        return table_page(request, link, token=token)

    def sheet_derive(self, tournament, *, match, table):
        from .checks import sheet_derive

        return sheet_derive(tournament, match=match, table=table)

    def season_evening(self, tournament):
        from .season import season_evening

        return season_evening(tournament)

    def audit_words(self) -> dict:
        return {"tablegames.settings": _("Game settings changed")}

    def audit_values(self) -> dict:
        """The audit log's words for stored settings: the variants as the settings form names them."""
        from django.utils.translation import gettext

        return {"variant": {key: gettext(spec.name) for key, spec in self.table_game.variants.items()}}


def register_table_game(game: TableGame) -> Game:
    """Register `game` in the game registry with the shared layer's hooks."""
    GAMES[game.key] = game
    return register(TableGameRegistration(game))
