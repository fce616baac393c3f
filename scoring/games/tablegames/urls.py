"""Table-game pages: the seated games' URLconf (`scoring.seated.urls`) with the table games' own sheet and report
views. One URLconf for every table game: the views find the game through the tournament, and the registrations
share the namespace, the address prefix and the pages (read here from one of them, through the registry, as
Schafkopf's URLconf does: the registration itself returns this module from `urlconf()`)."""

from scoring.games import get_game
from scoring.seated.urls import seated_urlpatterns

from . import entry, views

GAME = get_game("domino")
app_name = GAME.namespace
urlpatterns = seated_urlpatterns(GAME, entry=entry, reports=views)
