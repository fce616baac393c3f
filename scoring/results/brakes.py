"""The brakes on table links: what a phone may send, and how many unknown tokens an address may try.

Three counts, each over a window of `WINDOW`:

- **taken sends per link** (`TableLink.window_count`): a table sends its list a few times at most, from any
  phone; after `TAKEN_LIMIT` sends were stored, the link takes no more until the window ends.
- **refused sends per link and address** (`LinkBrake`): a send that is not taken (refused, or failed while it
  was read) counts against its address for that link (`note_refused`). Junk therefore never uses up the table's
  honest quota, and an address that sent `REFUSED_LIMIT` refused sends to a link is braked for that link, while
  another phone with the same link still sends.
- **unknown tokens per address** (`LinkBrake`): after `UNKNOWN_LIMIT` addresses of links that do not exist,
  that address opens no table link at all until the window ends (answering a valid token then would tell a
  guesser it found one).

Phones in a hall that reach a server on the internet through one router share its address: they share the
two address counts too, which is why these limits are far above what a table's phone needs.

The counts live in the database, as the log-in brake's (tournament/models/logins.py, which says why): every
server process sees them. Each count is one locked row or one UPDATE, so sends answered at once all count; the
checks read the counts before the send is read, so sends that arrive at the very same moment may pass a limit by
the few that were in flight (a brake against floods, not an exact quota). A send costs the hall two statements
for the brakes: the check of both address counts, and the taken count.
"""

from __future__ import annotations

import datetime
import hashlib
import math

from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import LinkBrake, TableLink
from tournament.prepared import Prepared

from .links import LinkRefused, hash_of

TAKEN_LIMIT = 20
REFUSED_LIMIT = 20
UNKNOWN_LIMIT = 20
WINDOW = datetime.timedelta(minutes=10)


class Braked(LinkRefused):
    """Refused by a brake: `retry_after` seconds until the window ends."""

    def __init__(self, message, *, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def now() -> datetime.datetime:
    """The brakes' clock (the tests move it)."""
    return timezone.now()


def _key(kind: str, address: str, token_hash: str = "") -> str:
    # hashed: fixed size, and the table holds no addresses and no token hashes
    return hashlib.sha256(f"{kind}\n{token_hash}\n{address}".encode()).hexdigest()


def _seconds_left(start: datetime.datetime, moment: datetime.datetime) -> int:
    return max(1, math.ceil((start + WINDOW - moment).total_seconds()))


def _brake(key: str, moment: datetime.datetime) -> LinkBrake:
    """The locked row of `key`, its count started afresh when its window has ended (call inside a transaction)."""
    row, created = LinkBrake.objects.select_for_update().get_or_create(key=key, defaults={"window_start": moment})
    if created:
        LinkBrake.objects.filter(window_start__lt=moment - WINDOW).delete()  # ended windows count nothing
    elif moment - row.window_start >= WINDOW:
        row.window_start, row.count = moment, 0
    return row


def check_address(address: str, token: str, *, sending: bool) -> None:
    """Before a link is even looked up: refuse an address that opened `UNKNOWN_LIMIT` unknown links in the window
    (every link, a valid one too: answering it would tell a guesser he found one), and, for a send, an address
    that sent `REFUSED_LIMIT` refused sends to this link. One query for both counts."""
    moment = now()
    keys = {_key("unknown", address): "unknown"}
    if sending:
        keys[_key("refused", address, hash_of(token))] = "refused"
    unknown, refused = list(keys) if sending else (next(iter(keys)),) * 2
    rows = [row for row in _COUNTS.all(unknown=unknown, refused=refused) if row[1] > moment - WINDOW]
    for key, start, count in sorted(rows, key=lambda row: keys[row[0]] != "unknown"):
        if keys[key] == "unknown" and count >= UNKNOWN_LIMIT:
            raise Braked(_("Too many addresses of table links that do not exist were opened from this phone. "
                           "Wait a few minutes, then open your table's link again."),
                         retry_after=_seconds_left(start, moment))
        if keys[key] == "refused" and count >= REFUSED_LIMIT:
            raise Braked(_("This phone has sent too much that could not be taken in the last minutes. Wait a few "
                           "minutes or bring the paper list to the referee table."),
                         retry_after=_seconds_left(start, moment))


#: asked before every phone page and send: compiled once (tournament/prepared.py); the window is compared here
_COUNTS = Prepared(LinkBrake, lambda unknown, refused: LinkBrake.objects.filter(key__in=(unknown, refused))
                   .values_list("key", "window_start", "count"), unknown=str, refused=str)


def check_taken(link: TableLink) -> None:
    """Before a send of `link` is read: refuse it when the link took `TAKEN_LIMIT` sends in the window (its
    counts as loaded with it, in this request)."""
    moment = now()
    if link.window_start is not None and moment - link.window_start < WINDOW and link.window_count >= TAKEN_LIMIT:
        raise Braked(_("This table has sent too often in the last minutes. Wait a few minutes or bring the "
                       "paper list to the referee table."),
                     retry_after=_seconds_left(link.window_start, moment))


def note_refused(link: TableLink, address: str) -> None:
    """Count a send of `link` from `address` that was not taken (refused, or failed while it was read)."""
    moment = now()
    with transaction.atomic():
        brake = _brake(_key("refused", address, link.token_hash), moment)
        brake.count += 1
        brake.save()


def accept_send(link: TableLink) -> None:
    """A send of `link` was taken: it counts on the link's quota (a new window when the last one has ended).
    One statement, so two sends taken at once both count."""
    moment = now()
    ended = Q(window_start__isnull=True) | Q(window_start__lte=moment - WINDOW)
    TableLink.objects.filter(pk=link.pk).update(
        window_start=Case(When(ended, then=Value(moment)), default=F("window_start")),
        window_count=Case(When(ended, then=Value(1)), default=F("window_count") + 1))


def note_unknown(address: str) -> None:
    """Count one unknown token opened from `address`."""
    moment = now()
    with transaction.atomic():
        row = _brake(_key("unknown", address), moment)
        row.count += 1
        row.save()
