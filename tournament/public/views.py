"""Public pages: read-only, without login, and only what the director has published (anything else is 404).

Each page has a *live* region that htmx asks for again every PUBLIC_POLL_SECONDS (`fragment`). The region
is rendered once per tournament, kind, version and language and then served from the cache; a poll from a
phone that already shows the newest version is answered "204 No Content" and changes nothing on screen.

Public answers are gzipped when the browser accepts it (the region stays compressed in the cache and is spliced
into each answer: splice.py) (the standings of 2,000 players are half a megabyte of
repetitive table markup). BREACH recovers a secret from the size of compressed answers that also reflect what
an attacker sends; public pages show only what is published anyway and carry no secret: no login, no personal
data, and the one token in them (the CSRF token of the language form) is masked afresh by Django for every
answer, which is Django's own defence against BREACH. So compressing them is safe; the director's pages are
not compressed.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.decorators.cache import never_cache

from documents.qr import qr_svg
from scoring.games import game_of
from tournament.addresses import public_url
from tournament.clubaddress import addressed, requested_club
from tournament.services.clock import clock_in_use, clock_state, format_seconds
from tournament.services.publishing import KIND_NAMES, KINDS, published_kinds

from .cache import cached, cached_region, etag, load_tournament
from .content import PublicContent
from .splice import MARK, Region, render_with_region

#: the longest query find my seat looks at
MAX_QUERY = 60
#: the pages with a live region, and the published kind each needs (None: any published kind)
NEEDS = {"index": None, "beamer": None, "seat": "schedule", "schedule": "schedule", "standings": "standings",
         "bracket": "bracket", "results": "results"}
PAGE_NAMES = {**KIND_NAMES, "seat": _("Find my seat"), "beamer": _("Beamer")}
#: shorter names where the tabs of a phone need them
TAB_NAMES = {"schedule": _("Schedule")}


@functools.lru_cache(maxsize=64)
def address_qr(url: str) -> str:
    """The QR code of a public address, made once per process: drawing it was half the CPU of the index page,
    and an address is the same for every phone."""
    return qr_svg(url, title=url)


def content_of(tournament) -> PublicContent:
    content = game_of(tournament).public(tournament)
    if content is None:
        raise Http404
    return content


def shown_kinds(tournament, content: PublicContent) -> tuple[str, ...]:
    """The kinds that are published and that this game has."""
    return tuple(kind for kind in published_kinds(tournament) if kind in content.kinds)


def allowed(page: str, kinds: tuple[str, ...]) -> bool:
    needed = NEEDS[page]
    return bool(kinds) if needed is None else needed in kinds


def query_of(request, page: str) -> str:
    return request.GET.get("q", "").strip()[:MAX_QUERY] if page == "seat" else ""


# --- the live region ------------------------------------------------------------------------------------


def render_region(tournament, content: PublicContent, page: str, kinds, query: str) -> str:
    """The HTML of a page's live region (cached: no request in it, nothing that differs per visitor)."""
    if page in KINDS:
        context = {"sections": content.section(page), "page": page}
        return render_to_string("public/_sections.html", context)
    if page == "seat":
        found = content.find(query) if query else None
        return render_to_string("public/_found.html", {"found": found, "query": query})
    if page == "beamer":
        slides = [slide for slide in content.slides(kinds) if slide.kind in kinds]
        return render_to_string("public/_slides.html", {"slides": slides})
    return ""


def clock_data(tournament, content: PublicContent) -> dict:
    """The round clock as plain values (cached); the time left is worked out per request from these."""
    # The round the hall plays (the one the beamer's schedule shows), once the director runs the clock: a round
    # not started yet shows its own name and "not started", never the time of the round before.
    round_ = content.clock_round() if clock_in_use(tournament) else None
    if round_ is None:
        return {"round": None}
    return {
        "round": str(round_), "stage": str(round_.stage), "started_at": round_.clock_started_at,
        "paused_at": round_.clock_paused_at, "paused_seconds": round_.clock_paused_seconds,
        "slot_minutes": content.slot_minutes(round_),
    }


def clock_now(data: dict) -> dict | None:
    if data["round"] is None:
        return None
    state = clock_state(data["started_at"], data["paused_at"], data["paused_seconds"], data["slot_minutes"],
                        now=timezone.now())
    shown = state.remaining if state.remaining is not None else state.elapsed
    return {**data, "state": state, "text": format_seconds(shown)}


def live_region(request, tournament, content: PublicContent, page: str, kinds) -> dict:
    query = query_of(request, page)
    return polled_region(tournament, content, page, lambda: render_region(tournament, content, page, kinds, query),
                         extra=query, poll_path=reverse("public:live", kwargs={"slug": tournament.slug, "page": page}),
                         params={"q": query} if query else {})


def polled_region(tournament, content: PublicContent, page: str, render: Callable[[], str], *, extra: str,
                  poll_path: str, params: dict) -> dict:
    """A live region as the page and its polls show it: `render()` run at most once per version and
    PUBLIC_RENDER_SECONDS (cache.py) for this `page` and `extra` (what else the region depends on), the clock,
    and the address the page polls (`poll_path` with `params`)."""

    def region() -> tuple[Region, str]:
        # The region's fingerprint is taken once, with the rendering: hashing half a megabyte per request
        # was as much CPU as the rest of a cached answer. It is kept compressed (splice.py).
        html = render()
        return Region.of(html), hashlib.sha1(html.encode()).hexdigest()

    (compressed, html_tag), coming = cached_region(tournament, page, region, extra=extra,
                                                   window=settings.PUBLIC_RENDER_SECONDS)
    clock = cached(tournament, "clock", lambda: clock_data(tournament, content))  # cheap, and prompt
    tag = etag(html_tag, clock)
    return {
        "html": mark_safe(MARK),  # where the region goes: spliced in by render_with_region
        "region": compressed,
        "clock": clock_now(clock),
        "etag": tag,
        "poll_url": poll_path + "?" + urlencode({**params, "since": tag}),
        # A newer state is being rendered right now (in the background): ask again soon for it.
        "poll_seconds": settings.PUBLIC_RETRY_SECONDS if coming else settings.PUBLIC_POLL_SECONDS,
        "coming": coming,
        "interval_seconds": settings.PUBLIC_POLL_SECONDS,
        "beamer_seconds": tournament.beamer_seconds,
        "page": page,
    }


def poll_answer(request, region: dict):
    """What a poll gets: 204 when the phone shows the newest version already, else the region."""
    if request.GET.get("since") == region["etag"] and not region["coming"]:
        return HttpResponse(status=204)  # a phone told to ask again soon gets the region (and its new interval)
    return render_with_region(request, "public/_live.html", {"live": region}, region["region"])


@never_cache
def live(request, slug: str, page: str):
    """The live region alone, as htmx polls it; 204 when the phone shows the newest version already."""
    if page not in NEEDS:
        raise Http404
    tournament = load_tournament(slug, requested_club(request))
    content = content_of(tournament)
    kinds = shown_kinds(tournament, content)
    if not allowed(page, kinds):
        raise Http404
    return poll_answer(request, live_region(request, tournament, content, page, kinds))


# --- the pages --------------------------------------------------------------------------------------------


def menu(tournament, kinds, active: str) -> list[dict]:
    """The tabs of the phone pages: find my seat (it comes with the seating), then each published kind."""
    pages = (["seat"] if "schedule" in kinds else []) + list(kinds)
    return [
        {"page": page, "label": TAB_NAMES.get(page, PAGE_NAMES[page]),
         "url": reverse(f"public:{page}", args=[tournament.slug]), "active": page == active}
        for page in pages
    ]


@method_decorator(never_cache, name="dispatch")
class PublicPage(View):
    page = "index"
    template_name = "public/page.html"

    def get(self, request, slug: str):
        tournament = load_tournament(slug, requested_club(request))
        content = content_of(tournament)
        kinds = shown_kinds(tournament, content)
        if not allowed(self.page, kinds):
            raise Http404
        context = {
            "tournament": tournament,
            "page": self.page,
            "title": PAGE_NAMES.get(self.page, tournament.name),
            "menu": menu(tournament, kinds, self.page),
            "kinds": kinds,
            "live": live_region(request, tournament, content, self.page, kinds),
            "query": query_of(request, self.page),
            **self.extra_context(request, tournament, kinds),
        }
        return render_with_region(request, self.template_name, context, context["live"]["region"])

    def extra_context(self, request, tournament, kinds) -> dict:
        return {}


class ShowsAddress:
    """A page showing the public pages' address and its QR code (the index, the beamer)."""

    def extra_context(self, request, tournament, kinds) -> dict:
        url = public_url(tournament, "index", request)
        return {"public_url": url, "qr": address_qr(url)}


class IndexPage(ShowsAddress, PublicPage):
    page = "index"
    template_name = "public/index.html"


class KindPage(PublicPage):
    template_name = "public/page.html"


class SeatPage(PublicPage):
    page = "seat"
    template_name = "public/seat.html"


class BeamerPage(ShowsAddress, PublicPage):
    """Full screen for the projector: large type, the clock on top, the published pages in turn."""

    page = "beamer"
    template_name = "public/beamer.html"


class SeasonPage(View):
    """A season's ranking, once its director published it (tournament/services/seasons.py); else 404."""

    def seasons(self, request):
        """The seasons this page shows: the club's of the address (tournament/clubaddress.py)."""
        from tournament.models import Season

        return addressed(Season, request)

    def get(self, request, season):
        from documents.base import format_value
        from tournament.season_documents import ranking_document, season_chart_html
        from tournament.services.seasons import season_table

        season = self.seasons(request).filter(slug=season, publish=True).first()
        if season is None:
            raise Http404
        table = season_table(season)
        ranking = ranking_document(table)
        rights = [column.alignment == "right" for column in ranking.columns]
        rows = [list(zip((format_value(v) for v in values), rights, strict=True)) for values in ranking.row_values()]
        return HttpResponse(render_to_string("public/season.html",
                                             {"season": season, "table": table, "ranking": ranking, "rows": rows,
                                              "season_chart": season_chart_html(table)},
                                             request=request))


class FederationSeasonPage(SeasonPage):
    """A federation season's ranking (each member once across the clubs), once its admin published it; else 404."""

    def seasons(self, request):
        from tournament.models import FederationSeason

        return FederationSeason.objects.all()

    def get(self, request, fseason):
        return super().get(request, fseason)
