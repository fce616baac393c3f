"""Schafkopf pages, mounted under /manage/<tournament slug>/ (so every view gets `slug`)."""

from django.urls import path

from scoring.seated.views import reports

from . import entry, links, views
from .documents import PRINTOUTS

app_name = "schafkopf"

urlpatterns = [
    path("schafkopf/", views.OverviewView.as_view(), name="overview"),
    path("schafkopf/players/<int:pk>/fixed-table/", views.FixedTableView.as_view(), name="fixed_table"),
    path("schafkopf/settings/", views.SettingsView.as_view(), name="settings"),
    path("schafkopf/seating/", views.SeatingView.as_view(), name="seating"),
    path("schafkopf/seating/start/", views.StartRoundView.as_view(), name="start"),
    path("schafkopf/seating/seats/<int:pk>/", views.SubstituteView.as_view(), name="substitute"),
    path("schafkopf/rounds/<int:round>/", entry.RoundView.as_view(), name="round"),
    path("schafkopf/board/", entry.BoardView.as_view(), name="board"),
    path("schafkopf/board/<slug:part>/", entry.BoardView.as_view(), name="board_part"),
    path("schafkopf/rounds/<int:round>/problems/<int:pk>/close/", entry.CloseProblemView.as_view(),
         name="close_problem"),
    path("schafkopf/rounds/<int:round>/links/", links.LinksView.as_view(), name="links"),
    path("schafkopf/rounds/<int:round>/tables/<int:table>/", entry.SheetView.as_view(), name="sheet"),
    path("schafkopf/rounds/<int:round>/missing/", entry.StillMissingView.as_view(), name="still_missing"),
    path("schafkopf/rounds/<int:round>/tables/<int:table>/history/", entry.HistoryView.as_view(), name="history"),
    path("schafkopf/standings/", reports.StandingsView.as_view(printouts=PRINTOUTS), name="standings"),
    path("schafkopf/standings/after-round-<int:round>/", reports.StandingsView.as_view(printouts=PRINTOUTS),
         name="standings_after"),
    path("schafkopf/standings/prize-eligibility/", reports.PrizeEligibilityView.as_view(printouts=PRINTOUTS),
         name="prize_eligibility"),
    path("schafkopf/printouts/", reports.PrintoutsView.as_view(printouts=PRINTOUTS), name="printouts"),
    path("schafkopf/printouts/<slug:name>.<str:file_format>", reports.DownloadView.as_view(printouts=PRINTOUTS),
         name="download"),
]
