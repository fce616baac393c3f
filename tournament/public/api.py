"""The read-only JSON API for club websites: published tournaments, their standings, published seasons; and, with
a club's API token, the club's own endpoints (tournament/club_api.py: a laptop's push of the evening's file).

Mounted at /api/v1/ (config/urls.py); its OpenAPI schema is /api/v1/openapi.json and its reference page
/api/v1/docs (django-ninja's Swagger UI, served from the package's own static files: no CDN).

It shows what the public pages show, no more: a tournament appears once its director published one of its pages,
its standings once he published the standings (else 404, as the public page); a season once its ranking is
published. The standings are the game's standings document (`Game.standings_document`), rendered as data by
`documents.data` in the tournament's language: the same rows the printed standings have. No login, no cookie,
only GET; any website may read it from a browser (`Access-Control-Allow-Origin: *`). Answers are cached per
tournament version like the public pages (tournament.public.cache), so a website polling it costs little.
"""

from __future__ import annotations

import datetime
from typing import Any

from csp.decorators import csp_update
from django.db.models import Q
from django.http import Http404
from django.utils import translation
from ninja import NinjaAPI, Schema
from ninja.pagination import LimitOffsetPagination, paginate

from documents.base import venue_locale
from documents.data import document_data
from scoring.games import game_of, is_game
from tournament import club_api
from tournament.addresses import base_url, public_url
from tournament.clubaddress import addressed, club_of, requested_club, reverse_in_club
from tournament.models import Season, Tournament
from tournament.season_documents import ranking_document
from tournament.services.publishing import KINDS, published_kinds
from tournament.services.seasons import evenings_of, season_table

from .cache import cached, load_tournament


class PublicAPI(NinjaAPI):
    """Every answer, an error too, may be read by any website's script: the data is public, no cookie is read."""

    def create_response(self, request, data, *args, **kwargs):
        response = super().create_response(request, data, *args, **kwargs)
        response["Access-Control-Allow-Origin"] = "*"
        return response


api = PublicAPI(
    title="Tournament manager",
    # Swagger UI's style sheet draws its icons as data: images; everything else of the site's policy holds
    docs_decorator=csp_update({"img-src": ["data:"]}),
    version="1",
    urls_namespace="api",
    description=("Read-only data for club websites: the tournaments whose directors published a public page, "
                 "their standings once published (the rows of the printed standings, in the tournament's "
                 "language), and published season rankings. No login; any website may read it from a browser. "
                 "The club endpoints need a club API token (made on the club page) as "
                 "`Authorization: Bearer <token>`: sending a tournament file (scope `push`) and reading the club's "
                 "tournaments (scope `read`)."),
)
club_api.install(api)


class ColumnOut(Schema):
    key: str
    title: str
    #: "text", "int", "decimal" or "date"
    kind: str


class TableOut(Schema):
    title: str
    subtitle: str
    columns: list[ColumnOut]
    #: one object per row, keyed by the columns' keys; a season evening that does not count is
    #: {"value": points, "counts": false}
    rows: list[dict[str, Any]]
    notes: list[str]


class TournamentOut(Schema):
    slug: str
    name: str
    #: the club that runs it (on a server shared by clubs, `?club=` with this name lists one club's)
    club: str
    game: str
    game_name: str
    date: datetime.date
    venue: str
    status: str
    #: the public pages published: "schedule", "standings", "bracket", "results"
    published: list[str]
    season: str | None
    #: the public page in a browser
    url: str

    # computed from the tournament row (the list pages its query: only a page's rows are read)
    @staticmethod
    def resolve_club(tournament) -> str:
        return tournament.organisation.name

    @staticmethod
    def resolve_game_name(tournament) -> str:
        return str(game_of(tournament).name) if is_game(tournament.game) else tournament.game

    @staticmethod
    def resolve_published(tournament) -> list[str]:
        return list(published_kinds(tournament))

    @staticmethod
    def resolve_season(tournament) -> str | None:
        return tournament.season.slug if tournament.season_id else None

    @staticmethod
    def resolve_url(tournament, context) -> str:
        return public_url(tournament, "index", context["request"])


class StandingsOut(Schema):
    tournament: str
    title: str
    tables: list[TableOut]


class SeasonOut(Schema):
    slug: str
    name: str
    club: str
    game: str
    game_name: str
    #: the evenings counted, in date order, by their slugs (those published are in /tournaments/)
    tournaments: list[str]
    url: str


class SeasonRankingOut(SeasonOut):
    ranking: TableOut


def _published() -> Q:
    """A tournament with at least one public page published."""
    condition = Q()
    for kind in KINDS:
        condition |= Q(**{f"publish_{kind}": True})
    return condition


def _season(season: Season, request) -> dict:
    return {
        "slug": season.slug, "name": season.name, "club": season.organisation.name, "game": season.game,
        "game_name": str(game_of(season).name) if is_game(season.game) else season.game,
        "tournaments": [t.slug for t in evenings_of(season)],
        "url": base_url(request) + reverse_in_club(club_of(season), "public:season", args=[season.slug]),
    }


def _shown(tournament: Tournament) -> bool:
    return bool(published_kinds(tournament))


def _named(rows, *, club: str | None, game: str | None):
    """`rows` (tournaments or seasons) of the club and the game asked for, where asked."""
    if club:
        rows = rows.filter(organisation__name=club)
    return rows.filter(game=game) if game else rows


@api.get("/tournaments", response=list[TournamentOut], summary="Published tournaments, newest first")
@paginate(LimitOffsetPagination)
def tournaments(request, club: str | None = None, game: str | None = None, season: str | None = None):
    found = _named(Tournament.objects.filter(_published()), club=club, game=game)
    found = found.select_related("season", "organisation").order_by("-date", "-pk")
    return found.filter(season__slug=season) if season else found


@api.get("/tournaments/{slug}", response=TournamentOut, summary="One published tournament")
def tournament(request, slug: str):
    found = addressed(Tournament, request).select_related("season", "organisation").filter(slug=slug).first()
    if found is None or not _shown(found):
        raise Http404
    return found


@api.get("/tournaments/{slug}/standings", response=StandingsOut,
         summary="The standings as printed, once published (provisional while results are missing)")
def standings(request, slug: str):
    found = load_tournament(slug, requested_club(request))
    if not found.publish_standings:
        raise Http404

    def compute() -> dict:
        with venue_locale(found):
            document = game_of(found).standings_document(found)
            if document is None:
                raise Http404
            return {"tournament": found.slug, **document_data(document)}

    return cached(found, "api-standings", compute)


@api.get("/seasons", response=list[SeasonOut], summary="Seasons whose ranking is published")
def seasons(request, club: str | None = None, game: str | None = None):
    found = _named(Season.objects.filter(publish=True), club=club, game=game)
    return [_season(s, request) for s in found.select_related("organisation").order_by("-created", "name")]


@api.get("/seasons/{slug}", response=SeasonRankingOut, summary="A published season with its ranking")
def season(request, slug: str):
    found = addressed(Season, request).filter(slug=slug, publish=True).first()
    if found is None:
        raise Http404
    with translation.override(found.language):
        ranking = document_data(ranking_document(season_table(found), spreadsheet=True))["tables"][0]
    return {**_season(found, request), "ranking": ranking}
