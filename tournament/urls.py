from django.urls import include, path

from scoring.games import all_games

from .public import manage as public_manage
from .views import audit, director, transfer

app_name = "tournament"

urlpatterns = [
    path("", director.TournamentListView.as_view(), name="list"),
    path("new/", director.TournamentCreateView.as_view(), name="create"),
    path("import/", transfer.ImportView.as_view(), name="import"),  # before <slug>/, which would take "import"
    path("import/roles/", transfer.ImportRolesView.as_view(), name="import_roles"),
    path("<slug:slug>/", director.TournamentDetailView.as_view(), name="detail"),
    path("<slug:slug>/edit/", director.TournamentEditView.as_view(), name="edit"),
    path("<slug:slug>/archive/", director.TournamentArchiveView.as_view(), name="archive"),
    path("<slug:slug>/audit/", audit.AuditLogView.as_view(), name="audit"),
    path("<slug:slug>/export.json", transfer.ExportJSONView.as_view(), name="export_json"),
    path("<slug:slug>/public/", public_manage.PublicSettingsView.as_view(), name="public"),
    path("<slug:slug>/clock/", public_manage.ClockView.as_view(), name="clock"),
]

# Each game mounts its own pages under the tournament: /manage/<slug>/<game>/...
urlpatterns += [path("<slug:slug>/", include(game.urls)) for game in all_games() if game.urls]
