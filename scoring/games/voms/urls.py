from django.urls import path

from .views import knockout, links, overview, pools, printouts, series, slips, standings, teams, withdrawal
from .views.entry import CloseProblemView

app_name = "voms"

urlpatterns = [
    path("voms/", overview.OverviewView.as_view(), name="overview"),
    path("voms/settings/", overview.SettingsView.as_view(), name="settings"),
    path("voms/teams/", teams.TeamsView.as_view(), name="teams"),
    path("voms/teams/<int:team>/leaves/", withdrawal.WithdrawView.as_view(), name="withdraw"),
    path("voms/draw/", pools.DrawView.as_view(), name="draw"),
    path("voms/schedule/", pools.ScheduleView.as_view(), name="schedule"),
    path("voms/enter/", slips.SlipEntryView.as_view(), name="enter"),
    path("voms/slip/<int:match>/", slips.CorrectSlipView.as_view(), name="correct"),
    path("voms/board/", overview.BoardView.as_view(), name="board"),
    path("voms/board/<slug:part>/", overview.BoardView.as_view(), name="board_part"),
    path("voms/standings/", standings.StandingsView.as_view(), name="standings"),
    path("voms/knockout/", knockout.KnockoutView.as_view(), name="knockout"),
    path("voms/knockout/<int:match>/", series.SeriesView.as_view(), name="series"),
    path("voms/problems/<int:pk>/close/", CloseProblemView.as_view(), name="close_problem"),
    path("voms/links/", links.CurrentLinksView.as_view(), name="links"),
    path("voms/links/<slug:part>/", links.LinksView.as_view(), name="links_part"),
    path("voms/print/", printouts.PrintoutsView.as_view(), name="printouts"),
    path("voms/print/<slug:name>.<slug:file_format>", printouts.DocumentView.as_view(), name="print"),
]
