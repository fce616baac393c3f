from django.urls import path

from . import links, print_views, views, withdrawal_views

app_name = "voms"

urlpatterns = [
    path("voms/", views.OverviewView.as_view(), name="overview"),
    path("voms/settings/", views.SettingsView.as_view(), name="settings"),
    path("voms/teams/", views.TeamsView.as_view(), name="teams"),
    path("voms/teams/<int:team>/leaves/", withdrawal_views.WithdrawView.as_view(), name="withdraw"),
    path("voms/draw/", views.DrawView.as_view(), name="draw"),
    path("voms/schedule/", views.ScheduleView.as_view(), name="schedule"),
    path("voms/enter/", views.SlipEntryView.as_view(), name="enter"),
    path("voms/slip/<int:match>/", views.CorrectSlipView.as_view(), name="correct"),
    path("voms/board/", views.BoardView.as_view(), name="board"),
    path("voms/board/<slug:part>/", views.BoardView.as_view(), name="board_part"),
    path("voms/standings/", views.StandingsView.as_view(), name="standings"),
    path("voms/knockout/", views.KnockoutView.as_view(), name="knockout"),
    path("voms/knockout/<int:match>/", views.SeriesView.as_view(), name="series"),
    path("voms/problems/<int:pk>/close/", views.CloseProblemView.as_view(), name="close_problem"),
    path("voms/links/", links.CurrentLinksView.as_view(), name="links"),
    path("voms/links/<slug:part>/", links.LinksView.as_view(), name="links_part"),
    path("voms/print/", print_views.PrintoutsView.as_view(), name="printouts"),
    path("voms/print/<slug:name>.<slug:file_format>", print_views.DocumentView.as_view(), name="print"),
]
