"""A table game in the registry and in the seated layer (`SeatedGame`): the shared hooks, read through its
`TableGame` and the spec of the tournament's variant.

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.seated.game import SeatedGame, SeatedModules, SeatingOptions

from .family import TableGame


class SeatedTableGame(SeatedGame):
    namespace = "tablegames"
    url_prefix = "table/"
    audit_prefix = "tablegames"
    stylesheet = "tablegames/tablegames.css"
    templates = {"overview": "tablegames/_overview.html",
                 "overview_rounds": "tablegames/_overview_rounds.html", "settings": "tablegames/_settings.html"}
    sheets_document = "score-sheets"
    # a player who leaves: a substitute takes his seat, or it stays empty (table-games.md, Decision)
    substitutes = True
    empty_seats = True
    # a sheet counts hand by hand while its game runs: the table is done once the game is over
    finished_sheet = Q(sheet__derived__finished=True)

    def __init__(self, game: TableGame):
        self.game = game
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

    @property
    def patience(self) -> bool:
        return self.game.patience

    # --- settings ------------------------------------------------------------------------------------------

    def seating_outdated(self, old, new) -> bool:
        return (old.rounds, old.table_sizes) != (new.rounds, new.table_sizes)

    def seating_removed_message(self) -> str:
        return _("The seating was drawn for other rounds or table sizes and has been removed: draw the seating "
                 "again.")

    def check_new_settings(self, new) -> None:
        from .config import check_sizes

        check_sizes(new)

    def settings_form(self, settings, *, data=None, started: bool = False):
        from .forms import SettingsForm

        form = SettingsForm(settings, data=data)
        if started:
            form.fix_all()
        return form

    def settings_page_context(self, form) -> dict:
        return {"started_note": _("Play has started: every setting shapes the games, so they are fixed now."),
                "general": [form[name] for name in form.fields if not name.startswith("rule_")],
                "rules": [form[name] for name in form.rule_names()]}

    def settings_saved(self, request, form) -> str:
        if form.variant_changed():
            messages.info(request, _("Another game was chosen: its numbers start from the rules' defaults."))
            return "settings"
        return "overview"

    # --- the seating ---------------------------------------------------------------------------------------

    def seating_options(self, settings, players) -> SeatingOptions | None:
        """Tables of the game's sizes (others only when the count needs them); a patience seats the field."""
        if settings.patience:
            return None
        from scoring.seated.services import seating_groups
        from tournament.services.seating import fitting_sizes

        return SeatingOptions(sizes=fitting_sizes(len(players), settings.table_sizes, settings.allowed_sizes),
                              groups=seating_groups(players))

    def draw_note(self, settings) -> str:
        return _("Draws the tables of every round at once (tables of %(sizes)s players, other sizes only when the "
                 "number of players needs them): as few repeated opponents as possible, players of one group at "
                 "different tables.") % {"sizes": ", ".join(map(str, settings.table_sizes))}

    def sheet_reprint(self, seat) -> tuple[str, str]:
        number = seat.table.round.number
        if self.patience:
            return _("the result list of deal %(round)s") % {"round": number}, f"score-sheets-{number}"
        where = {"round": number, "table": seat.table.number}
        return _("the score sheet of round %(round)s, table %(table)s") % where, f"score-sheets-{number}"

    def seating_reprints(self, seat) -> list[tuple[str, str]]:
        # a patience's field is one list, without tables
        return [(_("the list of the field"), "seating-by-name")] if self.patience else super().seating_reprints(seat)

    # --- pages ---------------------------------------------------------------------------------------------

    def page_context(self, settings) -> dict:
        spec_name = _(settings.spec.name)
        return {"game_title": spec_name, "spec_name": spec_name}

    def overview_context(self, settings) -> dict:
        from .forms import rules_summary

        return {"rules": rules_summary(settings)}

    # --- the registry's hooks ------------------------------------------------------------------------------

    def modules(self) -> SeatedModules:
        # one URLconf serves every table game (its views find the game through the tournament); it is
        # mounted once, for all of them (tournament/game_pages.py)
        from . import checks, config, documents, phone, public, standings, urls

        return SeatedModules(config=config, standings=standings, documents=documents, checks=checks, public=public,
                             phone=phone, urls=urls)

    def default_settings(self) -> dict:
        from .config import default_settings

        return default_settings(self.game)

    def demo(self, director, **options):
        from .demo import create_demo

        return create_demo(self.game, director, **options)

    def audit_words(self) -> dict:
        # "tablegames.*" is written for the four table games alike: its words are the shared ones
        # (tournament/audit_labels.py)
        return {}

    def audit_values(self) -> dict:
        """The audit log's words for stored settings: the variants as the settings form names them."""
        return {"variant": {key: _(spec.name) for key, spec in self.game.variants.items()}}
