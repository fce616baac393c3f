"""The one URLconf of the seated games, mounted under /manage/<tournament slug>/ for each of them (so every view
gets `slug`): every page at the same address under the game's prefix ("schafkopf/", "table/") and by the same
name in the game's namespace ("tournament:schafkopf:seating").

The shared pages are the seated layer's, the result pages (standings, printouts, downloads) too, each mounted with
the game's printouts' catalogue (`SeatedGame.printouts`); a game's URLconf hands over its module of the pages that
are still the game's (sheet entry), whose views carry the same class names in every game; a page whose view a game
does not have is not mounted for it.
"""

from __future__ import annotations

from types import ModuleType

from django.urls import path

from . import links
from .game import SeatedGame
from .views import pages, reports

#: (address under the game's prefix, name) of every page a seated game may have
ROUTES = (
    ("", "overview"),
    ("players/<int:pk>/fixed-table/", "fixed_table"),
    ("settings/", "settings"),
    ("seating/", "seating"),
    ("seating/start/", "start"),
    ("seating/seats/<int:pk>/", "substitute"),
    ("rounds/<int:round>/", "round"),
    ("board/", "board"),
    ("board/<slug:part>/", "board_part"),
    ("rounds/<int:round>/problems/<int:pk>/close/", "close_problem"),
    ("rounds/<int:round>/links/", "links"),
    ("rounds/<int:round>/tables/<int:table>/", "sheet"),
    ("rounds/<int:round>/missing/", "still_missing"),
    ("rounds/<int:round>/tables/<int:table>/history/", "history"),
    ("standings/", "standings"),
    ("standings/after-round-<int:round>/", "standings_after"),
    ("standings/prize-eligibility/", "prize_eligibility"),
    ("printouts/", "printouts"),
    ("printouts/<slug:name>.<str:file_format>", "download"),
)


#: the game's own sheet pages: the class name of each page's view in its `entry` module
ENTRY_VIEWS = {"round": "RoundView", "board": "BoardView", "board_part": "BoardView",
               "close_problem": "CloseProblemView", "sheet": "SheetView", "still_missing": "StillMissingView",
               "history": "HistoryView"}


def shared_views(game: SeatedGame) -> dict:
    """The seated layer's pages a game has: substitutes, fixed tables and starting a round only where it has
    them (`SeatedGame.substitutes`, `fixed_table_page`, `start_page`)."""
    views = {
        "overview": pages.OverviewView.as_view(),
        "settings": pages.SettingsView.as_view(),
        "seating": pages.SeatingView.as_view(),
        "links": links.LinksView.as_view(),
    }
    if game.substitutes:
        views["substitute"] = pages.SubstituteView.as_view()
    if game.fixed_table_page:
        views["fixed_table"] = pages.FixedTableView.as_view()
    if game.start_page:
        views["start"] = pages.StartRoundView.as_view()
    return views


def report_views(game: SeatedGame) -> dict:
    """The result pages, with the game's printouts: the prize tick only where the standings page offers it."""
    printouts = game.printouts
    views = {
        "standings": reports.StandingsView.as_view(printouts=printouts),
        "standings_after": reports.StandingsView.as_view(printouts=printouts),
        "printouts": reports.PrintoutsView.as_view(printouts=printouts),
        "download": reports.DownloadView.as_view(printouts=printouts),
    }
    if printouts.prize_tick:
        views["prize_eligibility"] = reports.PrizeEligibilityView.as_view(printouts=printouts)
    return views


def seated_urlpatterns(game: SeatedGame, *, entry: ModuleType) -> list:
    """The game's pages: the shared ones, the result pages and those of its `entry` module, each at its address
    under the game's prefix."""
    views = {**shared_views(game), **report_views(game)}
    views.update({name: getattr(entry, cls).as_view() for name, cls in ENTRY_VIEWS.items() if hasattr(entry, cls)})
    return [path(game.url_prefix + route, views[name], name=name) for route, name in ROUTES if name in views]
