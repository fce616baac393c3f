"""Table-game pages, mounted under /manage/<tournament slug>/ (so every view gets `slug`).

One URLconf for every table game: the views find the game through the tournament.
"""

from django.urls import path

from . import entry, links, views

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
    path("table/standings/", views.StandingsView.as_view(), name="standings"),
    path("table/standings/after-round-<int:round>/", views.StandingsView.as_view(), name="standings_after"),
    path("table/standings/prize-eligibility/", views.PrizeEligibilityView.as_view(), name="prize_eligibility"),
    path("table/printouts/", views.PrintoutsView.as_view(), name="printouts"),
    path("table/printouts/<slug:name>.<str:file_format>", views.DownloadView.as_view(), name="download"),
]
