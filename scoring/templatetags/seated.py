"""The seated games' seats in templates: `{{ seat|seat_player }}` names who plays a seat ("Ida Holm, played by Lis
Berg" when a substitute does), as every printout does (`scoring.seated.documents.player_name`)."""

from django import template

from scoring.seated.documents import player_name

register = template.Library()


@register.filter
def seat_player(seat):
    return player_name(seat)
