"""Schafkopf: the game's registration — its settings, pages, documents and demo.

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.seated.game import register_seated

from .game import Schafkopf


def default_settings() -> dict:
    from .config import default_settings as defaults

    return defaults()


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
    from .documents import documents as found

    return found(tournament)


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


SEATED = Schafkopf()
GAME = register_seated(
    SEATED,
    package=__name__,
    description=_("Individual players at tables of 4 (some of 5), all rounds drawn at once."),
    default_settings=default_settings,
    demo=demo,
    demo_arguments=(("--players", {"type": int, "default": 64, "help": "Number of players (default 64)."}),),
    documents=documents,
    prizes_shown=prizes_shown,
    player_links=player_links,
    result_unit="lists",
    audit_values=audit_values,
)
