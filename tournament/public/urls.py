"""Public pages, mounted at /p/: /p/<slug>/ and its schedule, standings, bracket, results, find my seat,
beamer, and the live regions the open pages poll (/p/<slug>/live/<page>/); a player's own page, "my evening"
(/p/<slug>/me/<token>/, evening.py)."""

from django.urls import path

from . import evening, views

app_name = "public"

urlpatterns = [
    # before <slug:slug>/<page>/: a season called "standings" must not be taken for a tournament's page
    path("seasons/<slug:season>/", views.SeasonPage.as_view(), name="season"),
    path("federation-seasons/<slug:fseason>/", views.FederationSeasonPage.as_view(), name="federation_season"),
    path("<slug:slug>/", views.IndexPage.as_view(), name="index"),
    path("<slug:slug>/schedule/", views.KindPage.as_view(page="schedule"), name="schedule"),
    path("<slug:slug>/standings/", views.KindPage.as_view(page="standings"), name="standings"),
    path("<slug:slug>/bracket/", views.KindPage.as_view(page="bracket"), name="bracket"),
    path("<slug:slug>/results/", views.KindPage.as_view(page="results"), name="results"),
    path("<slug:slug>/seat/", views.SeatPage.as_view(), name="seat"),
    path("<slug:slug>/beamer/", views.BeamerPage.as_view(), name="beamer"),
    path("<slug:slug>/live/<slug:page>/", views.live, name="live"),
    # a player's own page, by their personal link (evening_links.py): the token is base64url, a slug's letters
    path("<slug:slug>/me/<slug:token>/", evening.EveningPage.as_view(), name="evening"),
    path("<slug:slug>/me/<slug:token>/live/", evening.evening_live, name="evening_live"),
]
