"""Addresses that carry the club (issue 26): on a server of several clubs every address of a club's data starts
with /c/<club>/ (the club's short name, `Organisation.slug`), so two clubs' tournaments and seasons may have the
same short name. A one-club installation (the laptop) shows no trace of it: its addresses are those it always had.

`ClubAddressMiddleware` (first in MIDDLEWARE) takes /c/<club>/ off the address: the rest resolves as any address
does, `request.club` is the club, and the script prefix carries /c/<club>/ for the request, so every `reverse()`
and `{% url %}` of its pages leads into the same club without knowing of clubs. The slug lookups take the
request's club (`addressed`). An address without the prefix on a server of several clubs still opens a short name
only one club has (a redirect to the club's address); one several clubs have gets a page listing them.

Addresses made outside a request of the club (a printout's QR code, a job, a push answer) go through
`reverse_in_club`: as seen from the object's club.
"""

from __future__ import annotations

import re

from asgiref.local import Local
from django.conf import settings
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import get_script_prefix, resolve, reverse, set_script_prefix

from .models import FederationSeason, Organisation, Season, Tournament
from .prepared import Prepared

#: /c/<club>/<the rest of the address>
CLUB_ADDRESS = re.compile(r"^/c/(?P<club>[-a-zA-Z0-9_]+)(?P<rest>/.*)$")

#: the club of the request being answered (a thread's or task's own): its pk and the script prefix before it
_current = Local()


class ClubAddressMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        # a relative STATIC_URL gets the script prefix of its first reading, kept for good: read it now, before
        # a request adds a club to the prefix (static files are the server's, not a club's)
        settings.STATIC_URL  # noqa: B018

    def __call__(self, request):
        request.club = None
        root = get_script_prefix()
        found = CLUB_ADDRESS.match(request.path_info)
        if found is not None:
            request.club = Organisation.objects.filter(slug=found["club"]).first()
            if request.club is None:
                request.club_unknown = True  # answered 404 once the request is whole (the 404 page needs the user)
            else:
                request.path_info = found["rest"]  # request.path keeps the whole address (login, CSRF redirects)
                set_script_prefix(f"{root}c/{request.club.slug}/")
        _current.club_id = request.club.pk if request.club is not None else None
        _current.root, _current.several = root, None
        try:
            return self.get_response(request)
        finally:
            set_script_prefix(root)
            del _current.club_id, _current.root, _current.several

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(request, "club_unknown", False):
            raise Http404("No club with this address.")
        model, slug = addressed_kind(request, view_kwargs)
        if model is Tournament:
            return _tournament_address(request, slug)
        if model is Season and request.club is None:
            return _unprefixed(request, model, slug)
        return None


def addressed_kind(request, view_kwargs) -> tuple[type | None, str]:
    """What the address names by its short name: a season (/manage/seasons/<season>/, /p/seasons/<season>/, the
    API's /seasons/<slug>) or a tournament (every other <slug>)."""
    if isinstance(view_kwargs.get("season"), str):
        return Season, view_kwargs["season"]
    if isinstance(view_kwargs.get("slug"), str):
        route = getattr(request.resolver_match, "route", "") or ""
        return (Season if "seasons/" in route else Tournament), view_kwargs["slug"]
    return None, ""


def requested_club(request) -> Organisation | None:
    """The club whose address the request opened (/c/<club>/…), None for an address without one."""
    return getattr(request, "club", None)


def addressed(model, request):
    """The tournaments or seasons an address may name: those of the request's club, every club's without one
    (a one-club installation; an unprefixed address the middleware let through)."""
    club = requested_club(request)
    return model.objects.all() if club is None else model.objects.of(club)


def _tournament_address(request, slug: str):
    """Reads the address's tournament once for the request (`request.slug_tournament`, used by the time zone, the
    permission layer and the views); without a club prefix on a server of several clubs, redirects or lists. The
    laptop's pages pay nothing for it: the question "another club?" rides in the same query."""
    if request.club is not None:
        request.slug_tournament = (slug, _OF_CLUB.first(club=request.club.pk, slug=slug))
        return None
    found = _WITH_OTHER_CLUBS.all(slug=slug)
    if len(found) == 1 and not found[0].other_clubs:
        request.slug_tournament = (slug, found[0])
        return None
    if not found:
        request.slug_tournament = (slug, None)
        return None
    return _unprefixed(request, Tournament, slug)


def _with_other_clubs(slug):
    others = Organisation.objects.exclude(pk=OuterRef("organisation_id"))
    return Tournament.objects.filter(slug=slug).annotate(other_clubs=Exists(others))[:2]


# Asked by every page of a tournament: compiled once (tournament/prepared.py).
_WITH_OTHER_CLUBS = Prepared(Tournament, _with_other_clubs, slug=str)
_OF_CLUB = Prepared(Tournament, lambda club, slug: Tournament.objects.of(club).filter(slug=slug).order_by("pk")[:1],
                    slug=str)


def _unprefixed(request, model, slug: str):
    """An address without the club on a server of several clubs: the one club that has this short name (a
    redirect there), or the page listing the clubs that have it; nothing where no club has it (the view's 404)."""
    clubs = list(Organisation.objects.filter(pk__in=model.objects.filter(slug=slug).values("organisation"))
                 .order_by("name", "pk"))
    if not clubs or not Organisation.objects.exclude(pk=clubs[0].pk).exists():
        return None
    tail = request.get_full_path()[len(get_script_prefix()):]
    if len(clubs) == 1:
        return HttpResponseRedirect(f"{get_script_prefix()}c/{clubs[0].slug}/{tail}")
    choices = [(club, f"{get_script_prefix()}c/{club.slug}/{tail}") for club in clubs]
    return render(request, "clubs/choose_club.html", {"choices": choices, "slug": slug}, status=300)


def several_clubs() -> bool:
    """The server has more than one club; asked once a request."""
    several = getattr(_current, "several", None)
    if several is None:
        several = Organisation.objects.all()[1:2].exists()
        if hasattr(_current, "root"):  # within a request: kept until its end
            _current.several = several
    return several


def club_prefix(organisation) -> str:
    """"c/<club>/" for a club of a server of several clubs, "" on a one-club installation (or without a club)."""
    if organisation is None:
        return ""
    if not isinstance(organisation, Organisation) and getattr(_current, "club_id", None) == organisation:
        return get_script_prefix()[len(_current.root):]  # the request's own club: known without a query
    if not several_clubs():
        return ""
    slug = organisation.slug if isinstance(organisation, Organisation) else \
        Organisation.objects.values_list("slug", flat=True).get(pk=organisation)
    return f"c/{slug}/"


def resolve_address(url: str):
    """`resolve()` of an address a `reverse()` of this request made: the script prefix (with the club) is no part of
    what the URLs match."""
    prefix = get_script_prefix()
    return resolve("/" + url[len(prefix):] if url.startswith(prefix) else url)


def club_of(row):
    """The club of a tournament or season: its `Organisation` where already read (no query), else its pk."""
    link = getattr(type(row), "organisation", None)
    if link is not None and hasattr(link, "is_cached") and link.is_cached(row):
        return row.organisation
    return getattr(row, "organisation_id", None)


#: the director's page of each kind of row the lists link to
_ROW_PAGES = {Tournament: "tournament:detail", Season: "seasons:detail", FederationSeason: "federation:season"}


def club_address(row) -> str:
    """The director's page of a tournament or season (a federation season: its admin's) as seen from the row's own
    club, whatever the request's club: the link of a list and the redirect after making one, where
    `get_absolute_url` (the address in the request's club) would open the "which club?" page, or another club's
    twin. No query where the row's club is read (`select_related("organisation")`) or is the request's."""
    return reverse_in_club(club_of(row), _ROW_PAGES[type(row)], args=[row.slug])


def reverse_in_club(organisation, viewname: str, *, args=None, kwargs=None) -> str:
    """`reverse()` as seen from `organisation`'s club, whatever the request (or none: a printout job, a command):
    /c/<club>/… on a server of several clubs, the plain address on a one-club installation."""
    current = get_script_prefix()
    rest = reverse(viewname, args=args, kwargs=kwargs)[len(current):]
    return getattr(_current, "root", current) + club_prefix(organisation) + rest
