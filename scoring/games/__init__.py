"""The registry of games.

A game is one `GameType` registered here; the tournament side asks the registry
for names, participant kinds and hooks, and never branches on a game's key.
Adding a game adds one module under `scoring/games/` that calls `register()`,
listed in `GAME_MODULES` below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise

GAME_MODULES = ("voms", "schafkopf", "domino", "patience", "rummi", "quadominos")


@dataclass(frozen=True)
class GameType:
    key: str
    name: str | Promise
    #: "team" (Voms) or "player" (Schafkopf, table games)
    participants: str
    description: str | Promise = ""
    #: settings every tournament of this game starts with (JSON-serialisable)
    default_settings: Callable[[], dict[str, Any]] = dict
    #: builds a demo tournament: demo(director, **options) -> Tournament
    demo: Callable[..., Any] | None = None
    #: options for `manage.py demo <key>`: [(flag, kwargs for add_argument)]
    demo_arguments: tuple = ()
    #: builds the game's director menu: menu(tournament) -> [(label, url)]
    menu: Callable[[Any], list] = field(default=lambda tournament: [])
    #: dotted path of the game's director/assistant URLconf (paths start with "<game key>/"),
    #: mounted under /manage/<tournament slug>/ for the tournaments of the games that name it (games may share one)
    urls: str | None = None
    #: the printable/exportable documents: documents(tournament) -> {name: callable returning a document}
    documents: Callable[[Any], dict] = field(default=lambda tournament: {})
    #: dotted path of `public(tournament) -> tournament.public.content.PublicContent`, what the public pages show
    #: (a path, like `urls`, because the registry loads before the models may be imported); None: no public pages
    public: str | None = None
    #: whether the prize list was shown already (a final ranking with prizes): prizes_shown(tournament) -> bool;
    #: the registration desk then says that a registration or payment changes it
    prizes_shown: Callable[[Any], bool] = field(default=lambda tournament: False)
    #: the game's own pages about one player, linked from the desk: player_links(tournament, player) -> [(label, url)]
    player_links: Callable[[Any, Any], list] = field(default=lambda tournament, player: [])
    #: marks on the desk's entries beside their status: entry_notes(tournament) -> {entry pk: text}
    #: (a Voms team's "disqualified in round 3")
    entry_notes: Callable[[Any], dict] = field(default=lambda tournament: {})
    #: the game's own registration pages (partners by lot, imports), linked from the desk: [(label, url)]
    registration_links: Callable[[Any], list] = field(default=lambda tournament: [])
    #: dotted path of `sheet_derive(tournament, *, match, table) -> derive(entries, mode)`: the game's one
    #: recompute path for the sheet of that place (a tournament file's results are recomputed through it)
    sheet_derive: str | None = None
    #: dotted path of `check_settings(tournament) -> None`: raises a translated `ValidationError` when the
    #: tournament's stored settings are not what the game's settings page could have stored
    check_settings: str | None = None
    #: dotted path of `json_links(label, field, value, convert) -> value`: the database keys the game keeps inside
    #: a JSON field (label "app.model", field name), each rewritten as `convert(model, key)`; a tournament file
    #: carries local ids there as in its links, and an import maps them back (see tournament.transfer)
    json_links: str | None = None
    #: what the game's results are called in "Provisional — after 8 of 18 …" (scoring.progress.UNITS):
    #: "lists" (score lists), "slips", "sheets" or "deals" (a patience's results lists)
    result_unit: str = "sheets"
    #: dotted path of `progress(tournament, after_round=None) -> scoring.progress.ResultProgress` when the game
    #: counts its results otherwise than `scoring.progress.counted_progress` (e.g. forfeits without a sheet)
    progress: str | None = None
    #: with `progress`: dotted path of `open_result(tournament) -> django.db.models.Q`, a condition on the
    #: tournament's row (EXISTS subqueries) that holds only when a result is certainly still missing, asked on
    #: every save before counting (`scoring.progress.missing_result_condition`); None: always count
    progress_open: str | None = None
    #: the round's board for the director: board(tournament, part, *, user) -> scoring.board.Board, where `part`
    #: is what the board's address names (a round number as text, a game's own key) or None for the current
    #: one; the game's URLconf mounts `scoring.board_views.RoundBoardView` as "board" and "board_part"
    board: Callable[..., Any] | None = None
    #: dotted path of `season_evening(tournament) -> scoring.rules.season.EveningRanking`: an evening as a season
    #: ranking counts it (place, the game's own points, its tie-break values); None: the game has no seasons
    season_evening: str | None = None
    #: dotted path of `table_page(request, link, *, token) -> HttpResponse`: the page a table's private link
    #: opens (scoring/tablelink_views.py); None: the game's tables cannot enter their results from a phone
    phone: str | None = None
    #: whether a director can put a substitute on a seat once play has started (Schafkopf); the desk says so
    substitutes: bool = False
    #: what the game's own stored values are called in the audit log, in the active language:
    #: audit_values() -> {field or "parent.field": {stored value: words} or a function value -> words (None: none)},
    #: built from the same choices the game's forms and rules use (tournament/audit_labels.py)
    audit_values: Callable[[], dict] = field(default=lambda: {})


_registry: dict[str, GameType] = {}
_loaded = False


def register(game: GameType) -> GameType:
    if game.key in _registry and _registry[game.key] is not game:
        raise ValueError(f"game {game.key!r} registered twice")
    _registry[game.key] = game
    return game


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in GAME_MODULES:
            importlib.import_module(f"{__name__}.{module}")
        _loaded = True


def all_games() -> list[GameType]:
    _load()
    return list(_registry.values())


def get_game(key: str) -> GameType:
    _load()
    return _registry[key]


def game_choices() -> list[tuple[str, Any]]:
    return [(g.key, g.name) for g in all_games()]
