"""Table-game pages, mounted under /manage/<tournament slug>/ (so every view gets `slug`).

One URLconf for every table game: the views find the game through the tournament.
"""

from django.urls import path

from scoring.seated.views import reports

from . import entry, links, views
from .documents import PRINTOUTS

app_name = "tablegames"

urlpatterns = [
    path("table/", views.OverviewView.as_view(), name="overview"),
    path("table/settings/", views.SettingsView.as_view(), name="settings"),
    path("table/seating/", views.SeatingView.as_view(), name="seating"),
    path("table/rounds/<int:round>/", entry.RoundView.as_view(), name="round"),
    path("table/board/", entry.BoardView.as_view(), name="board"),
    path("table/board/<slug:part>/", entry.BoardView.as_view(), name="board_part"),
    path("table/rounds/<int:round>/tables/<int:table>/", entry.SheetView.as_view(), name="sheet"),
    path("table/rounds/<int:round>/problems/<int:pk>/close/", entry.CloseProblemView.as_view(),
         name="close_problem"),
    path("table/rounds/<int:round>/links/", links.LinksView.as_view(), name="links"),
    path("table/rounds/<int:round>/missing/", entry.StillMissingView.as_view(), name="still_missing"),
    path("table/standings/", reports.StandingsView.as_view(printouts=PRINTOUTS), name="standings"),
    path("table/standings/after-round-<int:round>/", reports.StandingsView.as_view(printouts=PRINTOUTS),
         name="standings_after"),
    path("table/printouts/", reports.PrintoutsView.as_view(printouts=PRINTOUTS), name="printouts"),
    path("table/printouts/<slug:name>.<str:file_format>", reports.DownloadView.as_view(printouts=PRINTOUTS),
         name="download"),
]
