"""A club's API tokens (tournament/models/tokens.py): made and revoked by the club's admin on the club page, used by
a laptop that pushes the evening's file (tournament/club_api.py) or a club's program that reads its tournaments.

A token is `tmk_` and 43 random characters (256 bits); only its SHA-256 is stored, so a copy of the database
gives no working token, and a lookup by the hash is an index lookup (a token of that strength needs no slow hash).
A token acts for its club only, with the rights its maker has there (a director updates the tournaments they
direct), as far as its scopes allow; a maker who no longer directs in the club leaves their tokens without rights.
Every make, revoke and use is in the club's audit log, named by the token's name and its first characters.
"""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import ApiToken, Organisation, TokenScope
from ..tenancy import acting_in, administers, directs_in
from .audit import log_action
from .errors import DomainError

PREFIX = "tmk_"
#: the characters of a token kept to tell it apart (the prefix and four random ones)
HINT_LENGTH = len(PREFIX) + 4


class TokenRefused(DomainError):
    """A request with a token that may not do what it asks: `status` 401 (no such token, or revoked) or 403 (the
    token may not do this)."""

    def __init__(self, message, *, status: int):
        super().__init__(message)
        self.status = status


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _entry(token: ApiToken) -> dict:
    return {"name": token.name, "hint": token.hint, "scopes": list(token.scopes)}


def _require_admin(by, club: Organisation) -> None:
    if not administers(by, club):
        raise DomainError(_("Only an admin of this club can manage its API tokens."))


def make_token(club: Organisation, *, by, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token of the club; returns it with the token itself, which is shown once and never again."""
    _require_admin(by, club)
    name = " ".join(name.split())
    if not name:
        raise DomainError(_("A token needs a name (what uses it, for example “Club laptop”)."), field="name")
    if not scopes or not set(scopes) <= set(TokenScope.values):
        raise DomainError(_("Choose what the token may do."), field="scopes")
    text = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(organisation=club, name=name[:80], scopes=sorted(set(scopes)),
                                        token_hash=token_hash(text), hint=text[:HINT_LENGTH], created_by=by)
        log_action("club.token_add", by=by, organisation=club, obj=str(token), after=_entry(token))
    return token, text


def revoke_token(token: ApiToken, *, by) -> ApiToken:
    """The token stops working at once; it stays listed as revoked (who, when)."""
    _require_admin(by, token.organisation)
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().get(pk=token.pk)
        if token.revoked_at is not None:
            return token
        token.revoked_at, token.revoked_by = timezone.now(), by
        token.save(update_fields=["revoked_at", "revoked_by"])
        log_action("club.token_revoke", by=by, organisation=token.organisation, obj=str(token),
                   before=_entry(token))
    return token


def tokens_of(club: Organisation):
    return ApiToken.objects.filter(organisation=club).select_related("created_by", "revoked_by")


def authenticate(text: str, scope: str) -> ApiToken:
    """The token a request names, allowed to `scope`, with `acting`: its maker as they act through it (in the
    token's club only). Raises `TokenRefused` otherwise."""
    token = (ApiToken.objects.select_related("organisation", "created_by")
             .filter(token_hash=token_hash(text.strip())).first()) if text else None
    if token is None or token.revoked_at is not None:
        raise TokenRefused(_("The API token is unknown or revoked."), status=401)
    if scope not in token.scopes:
        raise TokenRefused(_("This API token may not do this: it lacks the scope “%(scope)s”.") % {"scope": scope},
                           status=403)
    maker = token.created_by
    if maker is None or not maker.is_active or not directs_in(maker, token.organisation):
        raise TokenRefused(_("The member who made this API token no longer directs in the club: make a new one."),
                           status=403)
    token.acting = acting_in(maker, token.organisation)
    return token


def record_use(token: ApiToken, what: str, *, answer: dict | None = None) -> None:
    """The token was used (`what`: the request), with what it answered: its last use, and the club's log."""
    with transaction.atomic():
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        log_action("club.token_use", by=token.acting, organisation=token.organisation, obj=str(token),
                   after={"request": what, **(answer or {})})
