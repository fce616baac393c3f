import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from scoring.games import game_of

from .clubaddress import club_address
from .models import Tournament


class TournamentTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"), linkify=lambda record: club_address(record))
    game = tables.Column(verbose_name=_("Game"), order_by="game")
    date = tables.DateColumn(verbose_name=_("Date"), format="SHORT_DATE_FORMAT")
    venue = tables.Column(verbose_name=_("Venue"))
    status = tables.Column(verbose_name=_("Status"))

    class Meta:
        model = Tournament
        fields = ("name", "game", "date", "venue", "status")
        attrs = {"class": "grid"}
        empty_text = _("No tournaments yet.")

    def render_game(self, record):
        return game_of(record).name
