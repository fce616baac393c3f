"""Schafkopf: the game's registration — its settings, pages, documents and demo.

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .. import GameType, register


def default_settings() -> dict:
    from .config import default_settings as defaults

    return defaults()


def menu(tournament) -> list:
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


def board(tournament, part, *, user=None):
    from scoring.board import seated_board

    return seated_board(tournament, part, namespace="tournament:schafkopf", user=user)


def prizes_shown(tournament) -> bool:
    from .config import settings_of
    from .standings import standings

    if not settings_of(tournament).prizes:
        return False
    result = standings(tournament)
    return result.final and result.complete and result.lists_total > 0


def player_links(tournament, player) -> list:
    from .config import settings_of

    fixed = settings_of(tournament).fixed_tables.get(player.number)
    label = _("Fixed table: %(table)s") % {"table": fixed} if fixed else _("Fixed table: none")
    return [(label, reverse("tournament:schafkopf:fixed_table", args=[tournament.slug, player.pk]))]


def documents(tournament) -> dict:
    from .documents import PRINTOUTS

    return PRINTOUTS.documents(tournament)


def audit_values() -> dict:
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


def demo(director, **options):
    from .demo import create_demo

    return create_demo(director, **options)


GAME = register(
    GameType(
        key="schafkopf",
        name=_("Schafkopf"),
        participants="player",
        description=_("Individual players at tables of 4 (some of 5), all rounds drawn at once."),
        default_settings=default_settings,
        demo=demo,
        demo_arguments=(("--players", {"type": int, "default": 64, "help": "Number of players (default 64)."}),),
        menu=menu,
        urls="scoring.games.schafkopf.urls",
        documents=documents,
        public="scoring.games.schafkopf.public.public",
        prizes_shown=prizes_shown,
        player_links=player_links,
        sheet_derive="scoring.games.schafkopf.checks.sheet_derive",
        phone="scoring.games.schafkopf.phone.table_page",
        check_settings="scoring.games.schafkopf.checks.check_settings",
        result_unit="lists",
        board=board,
        season_evening="scoring.games.schafkopf.season.season_evening",
        substitutes=True,
        audit_values=audit_values,
    )
)
