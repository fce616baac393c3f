"""My evening: a player's own public page, opened by their personal link (evening_links.py).

/p/<slug>/me/<token>/ shows one participant (a team in Voms) what the public pages show of them: where they play
in every round and whether each sheet is in and counted, their place in the standings and the progression picture
with them (once the standings are published), their season. It polls like the other public pages: its region is
rendered at most once per version of the tournament and PUBLIC_RENDER_SECONDS, a poll finding nothing new gets 204
(views.polled_region). The rows every player's page needs (the standings, the season) are read once per version
for all of them (`cached`). The season's part follows the tournament's version too: a change of the season alone
(publishing it, another evening's result) shows once the cached region expires (PUBLIC_CACHE_SECONDS).

While none of the tournament's public pages is published, the page says so (404) and shows nothing of the
tournament's content; an unknown, withdrawn or other tournament's token gets a page saying the link is not valid
(404). Nothing in the page reflects what the visitor sent, so the public pages' compression (views.py) reveals no
token.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache

from scoring.games import game_of
from tournament.clubaddress import requested_club
from tournament.services.seasons import season_table

from .cache import cached, load_tournament
from .content import Section
from .evening_links import find_holder, holder_model
from .splice import render_with_region
from .views import content_of, menu, poll_answer, polled_region, shown_kinds

PAGE = "evening"


def season_standing(tournament) -> dict:
    """{register person: their season rank, points and evenings} of the tournament's season, if published."""
    season = tournament.season
    if season is None or not season.publish:
        return {}
    table = season_table(season)
    return {"name": season.name, "url": reverse("public:season", kwargs={"season": season.slug}),
            "ranked": sum(1 for row in table.rows if row.rank is not None), "provisional": table.provisional,
            "rows": {row.person.pk: {"rank": row.rank, "total": row.total, "evenings": row.evenings}
                     for row in table.rows}}


def season_section(tournament, holder) -> list[Section]:
    """The holder's season, when the tournament is an evening of a published season (a team has no register
    entry: none)."""
    person = getattr(holder, "person_id", None)
    if tournament.season_id is None or person is None:
        return []
    season = cached(tournament, "evening-season", lambda: season_standing(tournament))
    if not season:
        return []
    return [Section("public/evening/season.html", {"season": season, "row": season["rows"].get(person)})]


def render_evening(tournament, content, holder) -> str:
    sections = content.evening(holder) + season_section(tournament, holder)
    return render_to_string("public/evening/_region.html", {"sections": sections})


class Closed(Exception):
    """The page shows nothing: `message` says why."""

    def __init__(self, message: str):
        self.message = message


def opened(request, slug: str, token: str):
    """(tournament, its public content, published kinds, holder) of a personal link, or `Closed`; the tournament
    among the address's club's (tournament/clubaddress.py)."""
    tournament = load_tournament(slug, requested_club(request))
    content = content_of(tournament)
    holder = find_holder(tournament, token, holder_model(game_of(tournament).participants))
    if holder is None:
        raise Closed(_("This personal link is not valid. The tournament director may have replaced the links: "
                       "look yourself up under “Find my seat”, or ask at the referee table."))
    kinds = shown_kinds(tournament, content)
    if not kinds:
        raise Closed(_("The pages of this tournament are not published at the moment. Your personal page shows "
                       "again as soon as the tournament director publishes them."))
    return tournament, content, kinds, holder


def evening_region(tournament, content, holder, token: str) -> dict:
    return polled_region(tournament, content, PAGE, lambda: render_evening(tournament, content, holder),
                         extra=f"{holder._meta.model_name}:{holder.pk}",
                         poll_path=reverse("public:evening_live", kwargs={"slug": tournament.slug, "token": token}),
                         params={})


def closed_page(request, tournament, message: str):
    return render(request, "public/evening_closed.html", {"tournament": tournament, "message": message,
                                                          "page": PAGE, "title": _("My evening")}, status=404)


@method_decorator(never_cache, name="dispatch")
class EveningPage(View):
    def get(self, request, slug: str, token: str):
        try:
            tournament, content, kinds, holder = opened(request, slug, token)
        except Closed as closed:
            return closed_page(request, load_tournament(slug, requested_club(request)), closed.message)
        live = evening_region(tournament, content, holder, token)
        context = {"tournament": tournament, "page": PAGE, "title": _("My evening"),
                   "menu": menu(tournament, kinds, PAGE), "kinds": kinds, "live": live}
        return render_with_region(request, "public/evening.html", context, live["region"])


@never_cache
def evening_live(request, slug: str, token: str):
    """The page's region alone, as htmx polls it (204: nothing new); 404 once the link is closed."""
    try:
        tournament, content, _kinds, holder = opened(request, slug, token)
    except Closed:
        raise Http404 from None
    return poll_answer(request, evening_region(tournament, content, holder, token))
