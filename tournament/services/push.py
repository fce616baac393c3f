"""The laptop's side of "Laptop ↔ server" (issue 26): send a tournament's file to the club's server.

One service for the button on the tournament's page and `manage.py push`: it exports the tournament's file
(tournament/transfer.py) and posts it to the server's `/api/v1/club/push` with the club's API token
(tournament/club_api.py), with Python's own urllib and a timeout. The server updates its copy of the tournament
(or makes it the first time) and answers what it did. Nothing on the laptop changes but its audit log: every
push, sent or not, is an entry of the club (when, to which server, the answer), not of the tournament, so the
tournament's file stays the same for the next push. Offline at the venue the push fails with a message that says
nothing was sent.
"""

from __future__ import annotations

import http.client
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..models import ClubServer, Tournament
from ..permissions import require_director
from ..tenancy import directs_in
from ..transfer import export_tournament
from .audit import log_action
from .errors import DomainError

#: the server's address of the push, after its base address
PUSH_PATH = "/api/v1/club/push"
#: seconds a push waits for the server (an evening's file is sent and imported well within it)
TIMEOUT = 60


class PushFailed(DomainError):
    """Nothing was sent, or the server refused the file: the message says which."""


@dataclass(frozen=True)
class Pushed:
    """The server's answer to a push."""

    server: str
    #: "created" or "updated"
    result: str
    #: the tournament's page on the server
    url: str
    counts: dict
    notes: tuple[str, ...]


def offline_message() -> str:
    return _("The club's server cannot be reached; nothing was sent. Try again when online.")


def no_answer_message() -> str:
    return _("The file was sent, but the club's server did not answer in time: it may have arrived. Sending it "
             "again is safe (it updates the server's copy).")


def club_server(tournament: Tournament) -> ClubServer | None:
    return ClubServer.objects.filter(organisation_id=tournament.organisation_id).first()


#: the first parts of the app's own addresses: a server's address copied from the browser ends before them
APP_ADDRESSES = frozenset({"c", "manage", "p", "api", "accounts", "admin", "hall", "t", "setup", "i18n", "healthz"})


def server_address(url: str) -> str:
    """The server's address as a push needs it: one copied from the browser's address bar (a club's page,
    …/c/<club>/manage/…) loses the page, keeping a folder the server may be served under."""
    parts = urlsplit(url.strip())
    path = []
    for part in parts.path.split("/"):
        if part in APP_ADDRESSES:
            break
        path.append(part)
    return urlunsplit((parts.scheme, parts.netloc, "/".join(path).rstrip("/"), "", ""))


def push_url(server: str) -> str:
    return server_address(server) + PUSH_PATH


#: seconds to reach the server and agree on encryption: an https:// address of a plain-http server (the TLS
#: greeting waits for an answer that never comes), or a host that drops the connection, is said at once as
#: "cannot be reached, nothing was sent", not after the whole TIMEOUT as "may have arrived"
CONNECT_TIMEOUT = 10


def _connecting_quickly(connection_class):
    class Connection(connection_class):
        def connect(self):
            waiting = self.timeout
            if isinstance(waiting, int | float):
                self.timeout = min(waiting, CONNECT_TIMEOUT)
            try:
                super().connect()
            finally:
                self.timeout = waiting
            if isinstance(waiting, int | float):
                self.sock.settimeout(waiting)  # the answer may take the whole TIMEOUT (a big file imported)

    return Connection


_HTTPConnection = _connecting_quickly(http.client.HTTPConnection)
_HTTPSConnection = _connecting_quickly(http.client.HTTPSConnection)


class _HTTP(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(_HTTPConnection, req)


class _HTTPS(urllib.request.HTTPSHandler):
    def https_open(self, req):
        return self.do_open(_HTTPSConnection, req, context=self._context)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is answered as it comes (urllib would repeat a POST as a GET, without the file)."""

    def redirect_request(self, *args, **kwargs):
        return None


def _post(url: str, token: str, data: bytes, timeout: float) -> tuple[int, dict]:
    """The server's status and JSON answer; raises `OSError` (urllib's URLError is one) when it cannot be reached."""
    request = urllib.request.Request(url, data=data, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json", "Accept": "application/json",
        "Accept-Language": get_language() or "en"})
    opener = urllib.request.build_opener(_NoRedirect, _HTTP, _HTTPS)
    try:
        with opener.open(request, timeout=timeout) as response:
            return response.status, _json(response.read())
    except urllib.error.HTTPError as error:
        with error:
            body = _json(error.read())
        if 300 <= error.code < 400:
            body = {"detail": _("The server sends the push elsewhere (%(location)s): enter that address on the "
                                "“Club server” page.") % {"location": error.headers.get("Location", "?")}}
        return error.code, body


def _json(raw: bytes) -> dict:
    try:
        answer = json.loads(raw)
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


def _log(tournament: Tournament, by, server: str, answer: dict) -> None:
    log_action("tournament.push", by=by, organisation=tournament.organisation_id, obj=tournament,
               after={"server": server, **answer})


def push_tournament(tournament: Tournament, *, by, server: str | None = None, token: str | None = None,
                    timeout: float = TIMEOUT) -> Pushed:
    """Send the tournament's file to the club's server (the laptop's "Club server", or the address and token
    given); `by` is the director who sends it (None: `manage.py push` on the laptop's command line). Raises
    `PushFailed` with the reason when the file did not arrive or was refused."""
    if by is not None:
        require_director(by, tournament)
    kept = club_server(tournament)
    server = (server or (kept.url if kept else "")).strip()
    token = (token or (kept.token if kept else "")).strip()
    if not server or not token:
        raise PushFailed(_("No club server is set: enter its address and API token on the “Club server” page."))
    if urlsplit(server).scheme not in ("http", "https") or not urlsplit(server).netloc:
        raise PushFailed(_("The club server's address must begin with https:// (or http://)."))
    data = export_tournament(tournament)
    try:
        status, answer = _post(push_url(server), token, data, timeout)
    except TimeoutError:  # sent, but no answer within the timeout: the server may still be importing it
        _log(tournament, by, server, {"status": None, "sent": True, "answered": False})
        raise PushFailed(no_answer_message()) from None
    except OSError:  # urllib's URLError: no network, no such host, connection refused, not sent in time
        _log(tournament, by, server, {"status": None, "sent": False})
        raise PushFailed(offline_message()) from None
    except (UnicodeError, ValueError):  # an address or token that cannot be sent (kept before they were checked)
        raise PushFailed(_("The club server's address or API token cannot be used: enter them again on the "
                           "“Club server” page.")) from None
    if status != 200 or answer.get("result") not in ("created", "updated"):
        detail = str(answer.get("detail") or _("the server answered %(status)s.") % {"status": status})
        _log(tournament, by, server, {"status": status, "detail": detail[:300]})
        raise PushFailed(_("The club's server did not take the file: %(detail)s") % {"detail": detail})
    pushed = Pushed(server=server, result=answer["result"], url=str(answer.get("url", "")),
                    counts=dict(answer.get("counts") or {}), notes=tuple(str(n) for n in answer.get("notes") or ()))
    _log(tournament, by, server, {"status": status, "result": pushed.result, "url": pushed.url, **pushed.counts})
    return pushed


def _require_director_of(by, organisation) -> None:
    if not directs_in(by, organisation):
        raise DomainError(_("Only a director of the club can set its server."))


#: what a token can hold (the server makes "tmk_" and URL-safe base64): anything else is a copying mistake, and
#: could not even be sent in a header
TOKEN_CHARACTERS = re.compile(r"[A-Za-z0-9_-]{8,200}")


def save_club_server(organisation, *, by, url: str, token: str = "") -> ClubServer:
    """Keep the club server's address and token on the laptop (an empty token keeps the one kept)."""
    _require_director_of(by, organisation)
    url = url.strip()
    token = token.strip()
    if token and not TOKEN_CHARACTERS.fullmatch(token):
        raise DomainError(_("This is not an API token: copy it again, whole, from the club page of the server."),
                          field="token")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or not url.isascii():
        raise DomainError(_("The club server's address must begin with https:// (or http://)."), field="url")
    url = server_address(url)
    with transaction.atomic():
        kept = ClubServer.objects.select_for_update().filter(organisation=organisation).first()
        if not token and kept is None:
            raise DomainError(_("Enter the API token the club's admin made for this laptop."), field="token")
        before = {"url": kept.url, "token": kept.masked_token} if kept else None
        kept = kept or ClubServer(organisation=organisation)
        kept.url = url
        if token:
            kept.token = token
        kept.save()
        log_action("club.server_set", by=by, organisation=organisation, obj=url, before=before,
                   after={"url": kept.url, "token": kept.masked_token})
    return kept


def forget_club_server(organisation, *, by) -> None:
    _require_director_of(by, organisation)
    with transaction.atomic():
        kept = ClubServer.objects.select_for_update().filter(organisation=organisation).first()
        if kept is not None:
            kept.delete()
            log_action("club.server_remove", by=by, organisation=organisation, obj=kept.url,
                       before={"url": kept.url, "token": kept.masked_token})
