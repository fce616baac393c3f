"""Each player's personal "my evening" link: /p/<slug>/me/<token>/, read-only, without an account.

Who holds one: each participant of a seated game, each team of a team game (Voms: `Game.participants`).

Nothing is stored per link. The token is 21 bytes written base64url (28 characters): the holder's id (5 bytes)
and the first 16 bytes (128 bits) of HMAC-SHA256, under the server's secret key, of the tournament's id, its
`evening_nonce`, the holder's kind and id. So it cannot be guessed or made from another holder's, the cards and
the director's pages show it again whenever asked, and one tournament's token opens nothing in another (its id
and nonce are in the HMAC). The director withdraws every link at once by giving the tournament a new nonce
(`reissue_evening_links`, audited); unpublishing every public page closes them too (the page says so), and
publishing again opens the same links. A new secret key changes every token, as it does the table links'.

The token is kept out of the logs as the table links' are: the app's log (tournament/logs.py) and the proxy's
access log format (docs/server.md) write /p/<slug>/me/… instead.
"""

from __future__ import annotations

import base64
import binascii
import hmac

from django.db import transaction
from django.utils.crypto import salted_hmac

from tournament.addresses import base_url
from tournament.clubaddress import club_of, reverse_in_club
from tournament.models import Participant, Team, Tournament
from tournament.models.tournament import new_evening_nonce
from tournament.permissions import require_director
from tournament.services.audit import log_action

_SALT = "tournament.public.evening"
_ID_BYTES = 5
_MAC_BYTES = 16
#: the length of every token (no padding)
TOKEN_LENGTH = 28


def holder_model(participants: str) -> type[Participant] | type[Team]:
    """Whose link it is, from the game's `participants`: the team in a team game, else the participant."""
    return Team if participants == "team" else Participant


def _mac(tournament, kind: str, pk: int) -> bytes:
    message = f"{tournament.pk}:{tournament.evening_nonce}:{kind}:{pk}"
    return salted_hmac(_SALT, message, algorithm="sha256").digest()[:_MAC_BYTES]


def evening_token(tournament, holder) -> str:
    """The holder's token (the tournament as given: its nonce is part of it)."""
    raw = holder.pk.to_bytes(_ID_BYTES, "big") + _mac(tournament, holder._meta.model_name, holder.pk)
    return base64.urlsafe_b64encode(raw).decode()


def find_holder(tournament, token: str, model: type[Participant] | type[Team]):
    """The participant (or team: `model`) of `tournament` whose link this is, or None (unknown, withdrawn,
    another tournament's)."""
    if not isinstance(token, str) or len(token) != TOKEN_LENGTH:
        return None
    try:
        raw = base64.urlsafe_b64decode(token.encode("ascii"))
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None
    pk, mac = int.from_bytes(raw[:_ID_BYTES], "big"), raw[_ID_BYTES:]
    if not hmac.compare_digest(mac, _mac(tournament, model._meta.model_name, pk)):
        return None
    return model.objects.filter(tournament=tournament, pk=pk).first()


def evening_path(tournament, holder) -> str:
    """The holder's page, carrying the tournament's club on a server of several clubs, also where no request of the
    club builds it (a participant card made by a print job: tournament/clubaddress.py)."""
    return reverse_in_club(club_of(tournament), "public:evening",
                           kwargs={"slug": tournament.slug, "token": evening_token(tournament, holder)})


def evening_url(tournament, holder, request=None) -> str:
    """The absolute address of the holder's page, for a QR code or to copy."""
    return base_url(request) + evening_path(tournament, holder)


def reissue_evening_links(tournament, *, by) -> Tournament:
    """Withdraw every player's personal link at once and give each a new one (a card photographed and passed
    round): the tournament gets a new nonce. The audit entry renews the public pages, whose find-my-seat
    answers show the new links."""
    require_director(by, tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        locked.evening_nonce = new_evening_nonce()
        locked.save(update_fields=["evening_nonce", "updated"])
        log_action("public.evening_links", by=by, tournament=locked, obj=locked)
    return locked
