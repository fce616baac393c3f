"""The player register (/manage/register/) and the seasons (/manage/seasons/): director pages."""

from django.urls import path

from .views import register, seasons

register_patterns = ([
    path("", register.RegisterListView.as_view(), name="list"),
    path("suggest/", register.SuggestView.as_view(), name="suggest"),
    path("<int:pk>/", register.PersonView.as_view(), name="person"),
], "register")

season_patterns = ([
    path("", seasons.SeasonListView.as_view(), name="list"),
    path("<slug:season>/", seasons.SeasonView.as_view(), name="detail"),
    path("<slug:season>/season.pdf", seasons.SeasonFileView.as_view(file_format="pdf"), name="pdf"),
    path("<slug:season>/season.xlsx", seasons.SeasonFileView.as_view(file_format="xlsx"), name="xlsx"),
], "seasons")
