"""Schafkopf pages: the seated games' URLconf (`scoring.seated.urls`) with Schafkopf's own sheet and report views."""

from scoring.games import get_game
from scoring.seated.urls import seated_urlpatterns

from . import entry, reports

GAME = get_game("schafkopf")
app_name = GAME.namespace
urlpatterns = seated_urlpatterns(GAME, entry=entry, reports=reports)
