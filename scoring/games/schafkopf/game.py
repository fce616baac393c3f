"""Schafkopf: the game in the registry and in the seated layer (`SeatedGame`): its settings, pages' parts,
documents, demo and hooks.

The modules behind the hooks are imported when a hook is called: the registry is loaded while
Django starts, before the models may be used.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.seated.game import SeatedGame, SeatedModules, SeatingOptions

#: settings that shape play: fixed once round 1 has started
PLAY_SETTINGS = ("rounds", "games_per_round", "games_at_five", "tariff")


class Schafkopf(SeatedGame):
    key = "schafkopf"
    name = gettext_lazy("Schafkopf")
    description = gettext_lazy("Individual players at tables of 4 (some of 5), all rounds drawn at once.")
    result_unit = "lists"
    demo_arguments = (("--players", {"type": int, "default": 64, "help": "Number of players (default 64)."}),)
    namespace = "schafkopf"
    url_prefix = "schafkopf/"
    audit_prefix = "schafkopf"
    stylesheet = "schafkopf/schafkopf.css"
    templates = {"overview": "schafkopf/_overview.html", "overview_rounds": "schafkopf/_overview_rounds.html",
                 "settings": "schafkopf/_settings.html",
                 "settings_after": "schafkopf/_settings_script.html"}
    substitutes = True
    start_page = fixed_table_page = True
    sheets_nav = "lists"

    # --- settings ------------------------------------------------------------------------------------------

    def play_fixed_changed(self, old, new) -> bool:
        return any(getattr(old, name) != getattr(new, name) for name in PLAY_SETTINGS)

    def play_fixed_message(self) -> str:
        return _("Play has started: the rounds, the games per round and the tariff can no longer be changed.")

    def store_settings(self, tournament, new):
        """The entry fee is the tournament's (shared with the desk), stored with the game's settings."""
        before = {**self.settings_of(tournament).to_json(), "entry_fee": tournament.entry_fee}
        tournament.settings = new.to_json()
        tournament.entry_fee = new.entry_fee
        return ["settings", "entry_fee"], before, {**tournament.settings, "entry_fee": new.entry_fee}

    def settings_form(self, settings, *, data=None, started: bool = False):
        from .forms import SettingsForm

        form = SettingsForm(data=data, initial=SettingsForm.initial_from(settings))
        if started:
            form.fix_play_settings()
        return form

    def settings_from_form(self, form, settings):
        return form.settings(settings)

    def settings_page_context(self, form) -> dict:
        from scoring.rules.schafkopf import TARIFF_PRESETS, tariff_to_dict

        return {
            "started_note": _("Play has started: the rounds and tables and the tariff are fixed now. The money (entry "
                              "fee and prizes) and the entry from the tables' phones can still be changed."),
            "fieldsets": [(title, [form[name] for name in names]) for title, names in form.FIELDSETS],
            "presets": {key: {**tariff_to_dict(t), "name": _(t.name)} for key, t in TARIFF_PRESETS.items()},
            "tariff_sentence": _(
                "Solo won: soloist +%(soloist)s, each opponent %(opponent)s. Tout won: soloist +%(tout_soloist)s, "
                "each opponent %(tout_opponent)s. Rufspiel won: declarer and partner +%(ruf)s each."
            ),
        }

    # --- the seating ---------------------------------------------------------------------------------------

    def seating_options(self, settings, players) -> SeatingOptions:
        from scoring.seated.services import seating_groups

        from .config import TABLE_SIZES

        numbers = {p.number for p in players}
        return SeatingOptions(
            sizes=TABLE_SIZES,
            groups=seating_groups(players, separate_clubs=settings.separate_clubs),
            fixed={number: table for number, table in settings.fixed_tables.items() if number in numbers},
            params={"separate_clubs": settings.separate_clubs,
                    "fixed_tables": {str(k): v for k, v in settings.fixed_tables.items()}},
        )

    def redraw_refused_message(self) -> str:
        return _("Round 1 has started: the seating can no longer be drawn again. Put a substitute on the seat "
                 "of a player who dropped out.")

    def redraw_explanation(self) -> str:
        return _("The tables and seats of every round are drawn anew; printed seating lists, table cards and score "
                 "lists no longer match and must be printed again.")

    def sheet_reprint(self, seat) -> tuple[str, str]:
        number = seat.table.round.number
        return (_("the score list of round %(round)s, table %(table)s") % {"round": number, "table": seat.table.number},
                f"score-lists-{number}")

    def seating_reprints(self, seat) -> list[tuple[str, str]]:
        players = [seat.participant, *([seat.substitute] if seat.substitute_id else [])]
        return [
            (_("the table card of table %(table)s") % {"table": seat.table.number}, "table-cards"),
            (_("the participant cards of %(players)s")
             % {"players": ", ".join(f"{p.number} {p.name}" for p in players)}, "participant-cards"),
            *super().seating_reprints(seat),
        ]

    def sheets_label(self) -> str:
        return _("Score lists")

    # --- the registry's hooks ------------------------------------------------------------------------------

    def modules(self) -> SeatedModules:
        from . import checks, config, documents, phone, public, standings, urls

        return SeatedModules(config=config, standings=standings, documents=documents, checks=checks, public=public,
                             phone=phone, urls=urls)

    def default_settings(self) -> dict:
        from .config import default_settings

        return default_settings()

    def demo(self, director, **options):
        from .demo import create_demo

        return create_demo(director, **options)

    def prizes_shown(self, tournament) -> bool:
        if not self.settings_of(tournament).prizes:
            return False
        result = self.standings(tournament)
        return result.final and result.complete and result.lists_total > 0

    def player_links(self, tournament, player) -> list:
        fixed = self.settings_of(tournament).fixed_tables.get(player.number)
        label = _("Fixed table: %(table)s") % {"table": fixed} if fixed else _("Fixed table: none")
        return [(label, reverse("tournament:schafkopf:fixed_table", args=[tournament.slug, player.pk]))]

    def audit_words(self) -> dict:
        # the former draw keys: stored entries keep their words (tournament.audit_labels.FORMER_ACTIONS)
        return {**super().audit_words(), "schafkopf.seating.draw": _("Seating drawn"),
                "schafkopf.seating.redraw": _("Seating drawn again")}

    def audit_values(self) -> dict:
        """The audit log's words for stored values: the settings form's tariff presets and prizes ("30%, 50"), the
        rules' game types and preset tariff names."""
        from scoring.rules.schafkopf import GAME_TYPES, TARIFF_PRESETS

        from .forms import preset_choices, prizes_text

        return {
            "tariff_preset": dict(preset_choices()),
            "tariff.name": {tariff.name: _(tariff.name) for tariff in TARIFF_PRESETS.values()},
            "game_type": {key: _(game_type.name) for key, game_type in GAME_TYPES.items()},
            "prizes": prizes_text,
        }
