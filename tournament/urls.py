from django.urls import path

from .views import director

app_name = "tournament"

urlpatterns = [
    path("", director.TournamentListView.as_view(), name="list"),
    path("new/", director.TournamentCreateView.as_view(), name="create"),
    path("<slug:slug>/", director.TournamentDetailView.as_view(), name="detail"),
    path("<slug:slug>/edit/", director.TournamentEditView.as_view(), name="edit"),
    path("<slug:slug>/archive/", director.TournamentArchiveView.as_view(), name="archive"),
]
