"""`SeatedGame`: what a seated game tells the shared layer (`scoring.seated`) about itself.

Schafkopf and every table game subclass it; the shared services, pages and hooks find the tournament's
game with `seated_game(tournament)` and ask it only what is the game's own: its settings (read, stored,
which of them play fixes), how its seating is drawn (table sizes, who sits apart, fixed tables, or the
whole field on one sheet), when a table's sheet is finished, its standings and its printouts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.games import all_games, get_game
from scoring.games.base import Game


@dataclass(frozen=True)
class SeatingOptions:
    """How the seating of one tournament is drawn (`scoring.seated.services.draw_seating`)."""

    #: table sizes, preferred first
    sizes: tuple[int, ...]
    #: participant number -> the group kept apart at the tables (a family, a club)
    groups: dict[int, str] = field(default_factory=dict)
    #: participant number -> the table the player keeps in every round
    fixed: dict[int, int] = field(default_factory=dict)
    #: what the draw's record adds for this game (shown on the seating page)
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatedModules:
    """A seated game's own modules behind the shared hooks (`SeatedGame.modules`)."""

    #: `settings_of(tournament)`: the tournament's settings of the game
    config: ModuleType
    #: `standings(tournament, *, after_round=None)`
    standings: ModuleType
    #: `PRINTOUTS`: the game's `SeatedPrintouts`
    documents: ModuleType
    #: `check_settings(tournament)` and `sheet_derive(tournament, *, match, table)`: a tournament file's import
    checks: ModuleType
    #: `public(tournament)`: the game's public pages
    public: ModuleType
    #: `table_page(request, link, *, token)`: a table's phone page
    phone: ModuleType
    #: the game's URLconf (`scoring.seated.urls` with its own pages)
    urls: ModuleType


class SeatedGame(Game):
    """A seated game's own parts; the defaults are what most seated games do."""

    participants = "player"
    #: the URL namespace of the game's pages under "tournament:" (its URLconf: `scoring.seated.urls`)
    namespace: str
    #: the first part of every page's address under /manage/<slug>/
    url_prefix: str
    #: the first word of the game's own audit actions ("<prefix>.settings", "<prefix>.substitute", ...)
    audit_prefix: str
    #: the game's own stylesheet (its sheet grid), besides static/seated/seated.css
    stylesheet: str = ""
    #: the game's own parts of the shared pages: "overview" (after the players), "settings" (the form's fields),
    #: "settings_after" (after the form), each included by the page of that name
    templates: dict[str, str] = {}
    #: one player's game at one list per round, no tables (a patience)
    patience: bool = False
    #: the menu entry of the sheet pages (their views' `nav`)
    sheets_nav: str = "sheets"
    #: the printouts' document of a round's score sheets with the table links' QR codes ("<name>-<round>")
    sheets_document: str = ""
    #: a sheet counts as the table's finished game (the round is over for it): the after-sheet hook's condition
    finished_sheet: Q = Q(sheet__isnull=False)
    #: the seating page's "Start round 1" (else the first sheet entered starts a round)
    start_page: bool = False
    #: a player can be fixed to a table in every round (the desk links each player's fixed-table page)
    fixed_table_page: bool = False
    #: a withdrawn player's seat nobody takes stays empty, the table plays smaller (table-games.md, Decision);
    #: otherwise every such seat needs a substitute
    empty_seats: bool = False

    def modules(self) -> SeatedModules:
        """The game's own modules behind the hooks, imported when a hook is called: the registry is loaded while
        Django starts, before the models may be used."""
        raise NotImplementedError

    # --- settings ------------------------------------------------------------------------------------------

    def settings_of(self, tournament) -> Any:
        return self.modules().config.settings_of(tournament)

    def play_fixed_changed(self, old, new) -> bool:
        """Whether `new` changes a setting that play fixes (refused once play has started)."""
        return old.to_json() != new.to_json()

    def play_fixed_message(self) -> str:
        return _("Play has started: the settings can no longer be changed.")

    def seating_outdated(self, old, new) -> bool:
        """Whether a seating drawn under `old` no longer fits `new` (it is removed before play)."""
        return old.rounds != new.rounds

    def seating_removed_message(self) -> str:
        return _("The seating was drawn for another number of rounds and has been removed: draw the seating again.")

    def check_new_settings(self, new) -> None:
        """Raise a `DomainError` for settings the game cannot be played with."""

    def store_settings(self, tournament, new) -> tuple[list[str], dict, dict]:
        """Put `new` on `tournament`: the fields to save, and the audit record's before and after."""
        before = self.settings_of(tournament).to_json()
        tournament.settings = new.to_json()
        return ["settings"], before, tournament.settings

    def settings_form(self, settings, *, data=None, started: bool = False):
        """The settings page's form for `settings` (what play fixed made read-only once `started`)."""
        raise NotImplementedError

    def settings_from_form(self, form, settings):
        """The settings a valid form asks for."""
        return form.settings()

    def settings_page_context(self, form) -> dict:
        return {}

    def settings_saved(self, request, form) -> str:
        """What the settings page says besides "Settings saved."; the page to go to next."""
        return "overview"

    # --- the seating ---------------------------------------------------------------------------------------

    def seating_options(self, settings, players) -> SeatingOptions | None:
        """How the seating is drawn for `players`; None: the whole field plays on one sheet per round."""
        raise NotImplementedError

    def redraw_refused_message(self) -> str:
        return _("Play has started (a score sheet of round 1 is entered): the seating can no longer be drawn again.")

    def redraw_explanation(self) -> str:
        return _("The tables and seats of every round are drawn anew; printed seating lists and score sheets no "
                 "longer match and must be printed again.")

    def draw_note(self, settings) -> str:
        """What the seating page says the draw does."""
        return _("Draws tables and seats of every round at once: nobody meets a table-mate twice when the number "
                 "of players allows it, nobody sits on the same seat number twice.")

    def reprints(self, tournament, seat) -> list[tuple[str, str]]:
        """The printouts naming who plays `seat`, as (what to print again, its address): after a substitute is set
        (or taken off) they name the wrong player. The round's sheet only while the table's sheet is not in."""
        from scoring.models import ScoreSheet

        found = [] if ScoreSheet.objects.filter(table=seat.table).exists() else [self.sheet_reprint(seat)]
        found += self.seating_reprints(seat)
        return [(text, self.url(tournament, "download", name, "pdf")) for text, name in found]

    def sheet_reprint(self, seat) -> tuple[str, str]:
        """(what to print again, document name): the pre-filled sheet of `seat`'s table."""
        raise NotImplementedError

    def seating_reprints(self, seat) -> list[tuple[str, str]]:
        """(what to print again, document name) of the other printouts naming who plays `seat`."""
        return [(_("the seating by table (round %(round)s)") % {"round": seat.table.round.number}, "seating-by-table"),
                (_("the seating by name"), "seating-by-name")]

    # --- pages ---------------------------------------------------------------------------------------------

    def url(self, tournament, name: str, *args) -> str:
        return reverse(f"tournament:{self.namespace}:{name}", args=[tournament.slug, *args])

    @property
    def url_names(self) -> dict[str, str]:
        """The pages a template links by name ("round", "substitute"): those the game has."""
        names = ["round", "sheet", "links", *(["substitute"] if self.substitutes else []),
                 *(["start"] if self.start_page else [])]
        return {name: f"tournament:{self.namespace}:{name}" for name in names}

    def seating_label(self) -> str:
        return _("Field") if self.patience else _("Seating")

    def sheets_label(self) -> str:
        return _("Results") if self.patience else _("Score sheets")

    def menu_items(self, tournament) -> list[tuple[str, str, str, bool]]:
        """The game's menu: (nav key, label, address, for directors only)."""
        link = self.url
        slug = [tournament.slug]
        return [
            ("overview", _("Overview"), link(tournament, "overview"), False),
            ("players", _("Players"), reverse("tournament:desk", args=slug), True),
            ("checkin", _("Check-in"), reverse("tournament:checkin", args=slug), True),
            ("settings", _("Settings"), link(tournament, "settings"), True),
            ("seating", self.seating_label(), link(tournament, "seating"), True),
            (self.sheets_nav, self.sheets_label(), link(tournament, "round", 1), False),
            ("board", _("Round board"), link(tournament, "board"), False),
            ("standings", _("Standings"), link(tournament, "standings"), True),
            ("printouts", _("Printouts"), link(tournament, "printouts"), True),
        ]

    def menu(self, tournament) -> list[tuple[str, str]]:
        """The registry's menu hook: (label, address)."""
        return [(label, address) for _key, label, address, _director in self.menu_items(tournament)]

    def board(self, tournament, part, *, user=None):
        from scoring.board import seated_board

        return seated_board(tournament, part, namespace=f"tournament:{self.namespace}", user=user)

    def page_context(self, settings) -> dict:
        """What every page of the game shows besides: `game_title` (the crumbs' last part)."""
        return {"game_title": self.name}

    def overview_context(self, settings) -> dict:
        return {}

    # --- standings, printouts and the registry's hooks every seated game has ---------------------------------

    @property
    def printouts(self):
        """The game's `SeatedPrintouts` (its `documents.PRINTOUTS`): every document, the printouts page's list."""
        return self.modules().documents.PRINTOUTS

    def documents(self, tournament) -> dict:
        return self.printouts.documents(tournament)

    def document_label(self, tournament, name: str, params: dict):
        labels = {item: label for item, label, _formats in self.printouts.printout_items(tournament)}
        return None if params else labels.get(name)

    def printouts_after_draw(self, tournament) -> list[tuple[str, dict]]:
        """Every round's score sheets (the game's `round_documents`), the first round first."""
        rounds = self.settings_of(tournament).rounds
        return [(name, {}) for number in range(1, rounds + 1)
                for name in self.printouts.round_documents(tournament, number)]

    def standings(self, tournament, *, after_round: int | None = None):
        return self.modules().standings.standings(tournament, after_round=after_round)

    def check_settings(self, tournament) -> None:
        self.modules().checks.check_settings(tournament)

    def sheet_derive(self, tournament, *, match, table):
        return self.modules().checks.sheet_derive(tournament, match=match, table=table)

    def urlconf(self):
        return self.modules().urls

    def public(self, tournament):
        return self.modules().public.public(tournament)

    def table_page(self, request, link, *, token):
        return self.modules().phone.table_page(request, link, token=token)

    def standings_document(self, tournament):
        """The ranking over every round as printed (provisional while results are missing)."""
        return self.printouts.ranking_document(tournament)

    def season_evening(self, tournament):
        from .season import evening_ranking

        return evening_ranking(self.standings(tournament))

    def audit_words(self) -> dict:
        """The game's own actions the seated services write with its prefix (`audit_prefix`)."""
        prefix = self.audit_prefix
        return {f"{prefix}.settings": _("Game settings changed"), f"{prefix}.fixed_table": _("Fixed table set"),
                f"{prefix}.round.start": _("Round started"), f"{prefix}.substitute": _("Substitute set")}


def audit_prefixes() -> list[str]:
    """The first words of the seated games' own audit actions."""
    return sorted({game.audit_prefix for game in all_games() if isinstance(game, SeatedGame)})


def seated_game(tournament) -> SeatedGame:
    """The tournament's seated game."""
    game = get_game(tournament.game)
    if not isinstance(game, SeatedGame):
        raise KeyError(tournament.game)
    return game
