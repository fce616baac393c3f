"""Table-game pages: the seated games' URLconf (`scoring.seated.urls`) with the table games' own sheet and report
views. One URLconf for every table game: the views find the game through the tournament."""

from scoring.seated.urls import seated_urlpatterns

from . import entry, views
from .seated import SeatedTableGame

app_name = SeatedTableGame.namespace
urlpatterns = seated_urlpatterns(SeatedTableGame, entry=entry, reports=views)
