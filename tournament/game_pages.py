"""Mounting each game's pages under /manage/<slug>/, refusing tournaments of other games.

The guard sits here, where a game's URLconf is included, so no view of a game has to
remember it: every page of a game's URLconf answers 404 for a tournament whose game that
URLconf does not serve (a Voms page given a Schafkopf tournament, say), before the view runs.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.urls import URLPattern, include, path

from scoring.games import all_games

from .requested import tournament_by_slug


def only_for_games(view, games: frozenset[str]):
    """`view`, answering 404 unless the tournament of the URL's `slug` is one of `games`."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        if not request.user.is_authenticated:
            # as every tournament page: the login page first, so addresses reveal nothing to strangers
            return redirect_to_login(request.get_full_path())
        tournament = tournament_by_slug(request, kwargs.get("slug", ""))
        game = tournament.game if tournament is not None else None
        if game not in games:
            raise Http404
        return view(request, *args, **kwargs)

    guarded.games = games
    return guarded


def guarded_urlconf(urlconf, games: frozenset[str]):
    """The URLconf's pages, each behind `only_for_games`, for include()."""
    patterns = []
    for pattern in urlconf.urlpatterns:
        if not isinstance(pattern, URLPattern):
            raise TypeError(f"{urlconf.__name__}: a game's URLconf lists its pages directly, without include()")
        patterns.append(URLPattern(pattern.pattern, only_for_games(pattern.callback, games),
                                   pattern.default_args, pattern.name))
    return patterns, urlconf.app_name


def games_by_urlconf() -> dict:
    """Each game URLconf (module) with the games whose tournaments it serves (the table games share one)."""
    served: dict = {}
    for game in all_games():
        urlconf = game.urlconf()
        if urlconf is not None:
            served.setdefault(urlconf, set()).add(game.key)
    return {urlconf: frozenset(keys) for urlconf, keys in served.items()}


def game_urlpatterns() -> list:
    return [path("<slug:slug>/", include(guarded_urlconf(urlconf, games)))
            for urlconf, games in games_by_urlconf().items()]
