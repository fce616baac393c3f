"""Schafkopf: the game's registration — its settings, pages, documents and demo.

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .. import register
from ..base import Game


class Schafkopf(Game):
    key = "schafkopf"
    name = _("Schafkopf")
    description = _("Individual players at tables of 4 (some of 5), all rounds drawn at once.")
    result_unit = "lists"
    substitutes = True
    demo_arguments = (("--players", {"type": int, "default": 64, "help": "Number of players (default 64)."}),)

    def default_settings(self) -> dict:
        from .config import default_settings

        return default_settings()

    def check_settings(self, tournament) -> None:
        from .checks import check_settings

        check_settings(tournament)

    def demo(self, director, **options):
        from .demo import create_demo

        return create_demo(director, **options)

    def urlconf(self):
        from . import urls

        return urls

    def menu(self, tournament) -> list:
        def link(name, *args):
            return reverse(f"tournament:schafkopf:{name}", args=[tournament.slug, *args])

        return [
            (_("Overview"), link("overview")),
            (_("Players"), reverse("tournament:desk", args=[tournament.slug])),
            (_("Check-in"), reverse("tournament:checkin", args=[tournament.slug])),
            (_("Settings"), link("settings")),
            (_("Seating"), link("seating")),
            (_("Score lists"), link("round", 1)),
            (_("Round board"), link("board")),
            (_("Standings"), link("standings")),
            (_("Printouts"), link("printouts")),
        ]

    def board(self, tournament, part, *, user=None):
        from scoring.board import seated_board

        return seated_board(tournament, part, namespace="tournament:schafkopf", user=user)

    def documents(self, tournament) -> dict:
        from .documents import documents

        return documents(tournament)

    def public(self, tournament):
        from .public import public

        return public(tournament)

    def table_page(self, request, link, *, token):
        from .phone import table_page

        return table_page(request, link, token=token)

    def prizes_shown(self, tournament) -> bool:
        from .config import settings_of
        from .standings import standings

        if not settings_of(tournament).prizes:
            return False
        result = standings(tournament)
        return result.final and result.complete and result.lists_total > 0

    def player_links(self, tournament, player) -> list:
        from .config import settings_of

        fixed = settings_of(tournament).fixed_tables.get(player.number)
        label = _("Fixed table: %(table)s") % {"table": fixed} if fixed else _("Fixed table: none")
        return [(label, reverse("tournament:schafkopf:fixed_table", args=[tournament.slug, player.pk]))]

    def sheet_derive(self, tournament, *, match, table):
        from .checks import sheet_derive

        return sheet_derive(tournament, match=match, table=table)

    def season_evening(self, tournament):
        from .season import season_evening

        return season_evening(tournament)

    def audit_words(self) -> dict:
        return AUDIT_WORDS

    def audit_values(self) -> dict:
        """The audit log's words for stored values: the settings form's tariff presets and prizes ("30%, 50"), the
        rules' game types and preset tariff names."""
        from django.utils.translation import gettext

        from scoring.rules.schafkopf import GAME_TYPES, TARIFF_PRESETS

        from .forms import preset_choices, prizes_text

        return {
            "tariff_preset": dict(preset_choices()),
            "tariff.name": {tariff.name: gettext(tariff.name) for tariff in TARIFF_PRESETS.values()},
            "game_type": {key: gettext(game_type.name) for key, game_type in GAME_TYPES.items()},
            "prizes": prizes_text,
        }


#: the audit log's words for the actions only Schafkopf writes
AUDIT_WORDS = {
    "schafkopf.settings": _("Game settings changed"),
    "schafkopf.seating.draw": _("Seating drawn"),
    "schafkopf.seating.redraw": _("Seating drawn again"),
    "schafkopf.fixed_table": _("Fixed table set"),
    "schafkopf.round.start": _("Round started"),
    "schafkopf.substitute": _("Substitute set"),
}

GAME = register(Schafkopf())
