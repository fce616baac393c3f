from django.urls import path

from scoring.photo_views import SheetPhotoView

from .game_pages import game_urlpatterns
from .public import manage as public_manage
from .views import audit, backups, desk, director, printjobs, push, transfer

app_name = "tournament"

urlpatterns = [
    path("", director.TournamentListView.as_view(), name="list"),
    path("new/", director.TournamentCreateView.as_view(), name="create"),
    path("import/", transfer.ImportView.as_view(), name="import"),  # before <slug>/, which would take "import"
    path("import/roles/", transfer.ImportRolesView.as_view(), name="import_roles"),
    path("backups/", backups.BackupsView.as_view(), name="backups"),  # before <slug>/ too
    path("backups/restore/", backups.RestoreView.as_view(), name="restore"),
    path("<slug:slug>/", director.TournamentDetailView.as_view(), name="detail"),
    path("<slug:slug>/edit/", director.TournamentEditView.as_view(), name="edit"),
    path("<slug:slug>/archive/", director.TournamentArchiveView.as_view(), name="archive"),
    path("<slug:slug>/audit/", audit.AuditLogView.as_view(), name="audit"),
    path("<slug:slug>/export.json", transfer.ExportJSONView.as_view(), name="export_json"),
    path("<slug:slug>/push/", push.PushView.as_view(), name="push"),
    path("<slug:slug>/public/", public_manage.PublicSettingsView.as_view(), name="public"),
    path("<slug:slug>/public/personal-links/", public_manage.EveningLinksView.as_view(), name="evening_links"),
    path("<slug:slug>/clock/", public_manage.ClockView.as_view(), name="clock"),
    # a table's photo of its paper sheet, for the referee table (scoring/photo_views.py)
    path("<slug:slug>/photos/<int:photo>/", SheetPhotoView.as_view(), name="sheet_photo"),
    # the registration desk, the same for every game
    path("<slug:slug>/desk/", desk.RegisterView.as_view(), name="desk"),
    path("<slug:slug>/desk/import/", desk.ImportView.as_view(), name="desk_import"),
    path("<slug:slug>/desk/take-over/", desk.TakeOverView.as_view(), name="desk_take_over"),
    path("<slug:slug>/desk/check-in/", desk.CheckInView.as_view(), name="checkin"),
    path("<slug:slug>/desk/no-shows/", desk.NoShowsView.as_view(), name="no_shows"),
    path("<slug:slug>/desk/entries/<int:entry>/", desk.EditView.as_view(), name="desk_entry"),
    path("<slug:slug>/desk/entries/<int:entry>/delete/", desk.DeleteView.as_view(), name="desk_entry_delete"),
    # long printouts made by the print worker (tournament/printjobs.py)
    path("<slug:slug>/printouts/<int:job>/", printjobs.JobPageView.as_view(), name="printjob"),
    path("<slug:slug>/printouts/<int:job>/state/", printjobs.JobStateView.as_view(), name="printjob_state"),
    path("<slug:slug>/printouts/<int:job>/here/", printjobs.MakeHereView.as_view(), name="printjob_here"),
    path("<slug:slug>/printouts/<int:job>/current/", printjobs.CurrentJobView.as_view(), name="printjob_current"),
    path("<slug:slug>/printouts/<int:job>/file/", printjobs.JobFileView.as_view(), name="printjob_file"),
]

# Each game mounts its own pages under the tournament: /manage/<slug>/<game>/..., refusing other games' tournaments
urlpatterns += game_urlpatterns()
