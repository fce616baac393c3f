"""Schafkopf pages: the seated games' URLconf (`scoring.seated.urls`) with Schafkopf's own sheet and report views."""

from scoring.seated.urls import seated_urlpatterns

from . import SEATED, entry, reports

app_name = SEATED.namespace
urlpatterns = seated_urlpatterns(SEATED, entry=entry, reports=reports)
