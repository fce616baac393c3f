"""The club's part of the API (/api/v1/, beside the public read-only part of tournament/public/api.py): what a club
API token (tournament/services/api_tokens.py) may do, sent as `Authorization: Bearer <token>`.

- `POST /api/v1/club/push` (scope `push`): the body is a tournament file; the server does with it what its
  import page does (tournament/transfer_update.py `receive_file`): the club's tournament of the file's identity is
  updated (a snapshot of it first), else the file becomes a new tournament of the token's club.
- `GET /api/v1/club` (scope `read`): the token's club and its tournaments, published or not.

Answers are JSON; a refusal is `{"detail": "<translated message>"}` in the language the request asks for
(Accept-Language): 401 for a missing, unknown or revoked token; 403 for a token without the scope, or whose maker
no longer directs in the club; 400 for a file that cannot be imported (nothing changed); 413 for a file larger than
the import's limit. A token acts with the rights of the member who made it: a file of a tournament of the club that
member does not direct is refused (403), not copied. Every use is in the club's audit log.
"""

from __future__ import annotations

import datetime
import uuid

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer

from .addresses import base_url
from .clubaddress import reverse_in_club
from .models import TokenScope, Tournament
from .services.api_tokens import TokenRefused, authenticate, record_use
from .transfer import TransferError, max_import_bytes
from .transfer_update import NotYours, content_here, receive_file


class ClubToken(HttpBearer):
    """A club API token allowed to `scope`; `request.auth` is the token, `request.auth.acting` its maker as it acts
    for them."""

    def __init__(self, scope: str):
        super().__init__()
        self.scope = scope

    def authenticate(self, request: HttpRequest, token: str):
        return authenticate(token, self.scope)


class ErrorOut(Schema):
    #: what went wrong, in the language the request asked for
    detail: str


class CountsOut(Schema):
    players: int
    rounds: int
    sheets: int


class PushOut(Schema):
    #: "created" (a new tournament of the token's club) or "updated" (the club's tournament of the file's identity)
    result: str
    slug: str
    uid: uuid.UUID
    name: str
    #: the tournament's page on this server (for its directors)
    url: str
    counts: CountsOut
    #: what became of the file's season, as the import page says it
    notes: list[str]


class ClubTournamentOut(Schema):
    slug: str
    uid: uuid.UUID
    name: str
    game: str
    date: datetime.date
    status: str
    season: str | None


class ClubOut(Schema):
    club: str
    #: the token's name and the scopes it has
    token: str
    scopes: list[str]
    tournaments: list[ClubTournamentOut]


router = Router(tags=["club (API token)"])

FILE_BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "description": "A tournament file as the tournament's page downloads it (“Download as JSON”)",
}}}}}


def _refused(status: int, message: str):
    return Status(status, {"detail": message})


@router.post("/club/push", auth=ClubToken(TokenScope.PUSH), openapi_extra=FILE_BODY,
             response={200: PushOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 413: ErrorOut},
             summary="Send a tournament file: update the club's tournament of its identity, or create it")
def push(request):
    token = request.auth
    limit = max_import_bytes()
    try:
        declared = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        declared = 0
    # read no more than the limit allows: the body is not held in memory beyond it
    data = b"" if declared > limit else request.read(limit + 1)
    if declared > limit or len(data) > limit:
        message = _("The file is larger than %(limit)s MB.") % {"limit": limit // (1024 * 1024)}
        record_use(token, "push", answer={"status": 413})
        return _refused(413, message)
    try:
        received = receive_file(data, by=token.acting)
    except TransferError as error:
        status = 403 if isinstance(error, NotYours) else 400
        record_use(token, "push", answer={"status": status, "detail": str(error.message)[:200]})
        return _refused(status, str(error.message))
    tournament = received.tournament
    result = "created" if received.created else "updated"
    record_use(token, "push", answer={"status": 200, "result": result, "tournament": tournament.slug})
    return {"result": result, "slug": tournament.slug, "uid": tournament.uid, "name": tournament.name,
            "url": base_url(request) + reverse_in_club(tournament.organisation_id, "tournament:detail",
                                                       kwargs={"slug": tournament.slug}),
            "counts": content_here(tournament).as_dict(), "notes": list(received.notes)}


@router.get("/club", auth=ClubToken(TokenScope.READ), response={200: ClubOut, 401: ErrorOut, 403: ErrorOut},
            summary="The token's club and its tournaments, published or not")
def club(request):
    token = request.auth
    tournaments = [
        {"slug": t.slug, "uid": t.uid, "name": t.name, "game": t.game, "date": t.date, "status": t.status,
         "season": t.season.slug if t.season_id else None}
        for t in Tournament.objects.of(token.organisation).select_related("season").order_by("-date", "-pk")
    ]
    record_use(token, "club")
    return {"club": token.organisation.name, "token": token.name, "scopes": list(token.scopes),
            "tournaments": tournaments}


def install(api) -> None:
    """Mount the club's endpoints on `api`, and answer a refused token with a translated JSON message."""
    api.add_router("", router)

    @api.exception_handler(TokenRefused)
    def token_refused(request, error: TokenRefused):
        return api.create_response(request, {"detail": str(error.message)}, status=error.status)

    @api.exception_handler(AuthenticationError)
    def no_token(request, error: AuthenticationError):
        return api.create_response(
            request, {"detail": _("This needs a club API token: send it as “Authorization: Bearer <token>”.")},
            status=401)
