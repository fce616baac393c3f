"""Counting the probes of the hostile tests: every request that tests/hostile and the permission walk send
through Django's test client, by method, address, named route and the role of the one who sent it.

The counts are printed at the end of a run that included those tests (also under pytest-xdist: each worker
sends its counts to the controller), for docs/operations.md ("What the hostile tests probe").
"""

from __future__ import annotations

from collections import Counter

import pytest

#: the tests whose requests are counted
PROBING = ("tests/hostile/", "tests/web/test_permission_walk.py")

_counts: Counter = Counter()
_addresses: set[str] = set()
_routes: set[str] = set()
_roles: Counter = Counter()
_tests: set[str] = set()
#: session key -> the user logged in with it, for the running test
_senders: dict = {}
#: (user id, tournament slug) -> role, for the running test's GETs since its last POST
_role_of_sender: dict = {}


def sender(environ):
    """The user whose session cookie a request carries (before the request: a login request is anonymous)."""
    from http.cookies import SimpleCookie

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.base import SessionBase
    from django.utils.module_loading import import_string

    cookie = SimpleCookie(environ.get("HTTP_COOKIE", "")).get(settings.SESSION_COOKIE_NAME)
    if cookie is None:
        return None
    if cookie.value in _senders:
        return _senders[cookie.value]
    store: SessionBase = import_string(f"{settings.SESSION_ENGINE}.SessionStore")(cookie.value)
    user_id = store.get("_auth_user_id")
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is not None:  # a session key names one login: looked up once per test (cleared in _count_probes)
        _senders[cookie.value] = user
    return user


def role_of(user, match) -> str:
    """Who sent a request, as the permission checks see them."""
    from tournament.models import Tournament
    from tournament.permissions import DIRECTORS_GROUP, role_in

    if user is None:
        return "anonymous"
    if user.is_superuser:
        return "superuser"
    slug = match.kwargs.get("slug") if match else None
    tournament = Tournament.objects.filter(slug=slug).first() if slug else None
    if tournament is not None:
        role = role_in(user, tournament)
        if role:
            return str(role)
    if user.groups.filter(name=DIRECTORS_GROUP).exists():
        return "director of another tournament" if tournament is not None else "director"
    return "logged in, no role"


def record(user, request, response) -> None:
    match = getattr(request, "resolver_match", None)
    _counts[request.method] += 1
    _addresses.add(f"{request.method} {request.path}")
    _routes.add(match.view_name if match else f"(no route) {response.status_code}")
    if request.method != "GET":
        _role_of_sender.clear()  # a POST may have changed roles or groups: look them up again
    key = (user.pk if user is not None else None, match.kwargs.get("slug") if match else None)
    if key not in _role_of_sender:
        _role_of_sender[key] = role_of(user, match)
    _roles[_role_of_sender[key]] += 1


@pytest.fixture(autouse=True)
def _count_probes(request, monkeypatch):
    if not request.node.nodeid.startswith(PROBING):
        yield
        return
    from django.test.client import ClientHandler

    original = ClientHandler.__call__

    def counted(handler, environ):
        user = sender(environ)
        response = original(handler, environ)
        record(user, response.wsgi_request, response)
        return response

    monkeypatch.setattr(ClientHandler, "__call__", counted)
    _tests.add(request.node.nodeid)
    _senders.clear()
    _role_of_sender.clear()
    yield
    _senders.clear()
    _role_of_sender.clear()


def summary() -> dict:
    return {"requests": dict(_counts), "addresses": sorted(_addresses), "routes": sorted(_routes),
            "roles": dict(_roles), "tests": sorted(_tests)}


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller adds it up
        workeroutput["probes"] = summary()


_from_workers: list[dict] = []


class FromWorkers:
    """Registered only under pytest-xdist (whose hook this is)."""

    @staticmethod
    def pytest_testnodedown(node, error):
        if "probes" in getattr(node, "workeroutput", {}):
            _from_workers.append(node.workeroutput["probes"])


def register(config) -> None:
    import sys

    config.pluginmanager.register(sys.modules[__name__], "probes")
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(FromWorkers(), "probes-from-workers")


def pytest_terminal_summary(terminalreporter):
    parts = _from_workers or [summary()]
    requests, roles = Counter(), Counter()
    addresses, routes, tests = set(), set(), set()
    for part in parts:
        requests.update(part["requests"])
        roles.update(part["roles"])
        addresses.update(part["addresses"])
        routes.update(part["routes"])
        tests.update(part["tests"])
    if not tests:
        return
    by_method = ", ".join(f"{count:,} {method}s" for method, count in sorted(requests.items()))
    terminalreporter.write_sep("-", "hostile probes (tests/hostile, tests/web/test_permission_walk.py)")
    terminalreporter.write_line(f"{sum(requests.values()):,} requests in {len(tests)} tests: {by_method}")
    terminalreporter.write_line(f"{len(addresses):,} distinct addresses (method and path), {len(routes)} named routes")
    terminalreporter.write_line("by role: " + ", ".join(f"{role} {count:,}" for role, count in roles.most_common()))
