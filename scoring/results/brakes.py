"""The brakes on table links: what a phone may send, and how many unknown tokens an address may try.

Three counts, each over a window of `WINDOW`:

- **taken sends per link** (`TableLink.window_count`): a table sends its list a few times at most, from any
  phone; after `TAKEN_LIMIT` sends were stored, the link takes no more until the window ends.
- **refused sends per link and address** (`LinkBrake`): a send is counted as refused before it is read (so a
  broken or hostile one costs its sender too) and moved to the link's taken sends once it is stored
  (`accept_send`). Junk therefore never uses up the table's honest quota, and an address that sent
  `REFUSED_LIMIT` refused sends to a link is braked for that link, while another phone with the same link
  still sends.
- **unknown tokens per address** (`LinkBrake`): after `UNKNOWN_LIMIT` addresses of links that do not exist,
  that address opens no table link at all until the window ends (answering a valid token then would tell a
  guesser it found one).

Phones in a hall that reach a server on the internet through one router share its address: they share the
two address counts too, which is why these limits are far above what a table's phone needs.

The counts live in the database, as the log-in brake's (tournament/models/logins.py, which says why): every
server process sees them, and a row lock counts each send once when processes answer at once.
"""

from __future__ import annotations

import datetime
import hashlib
import math

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import LinkBrake, TableLink

from .links import LinkRefused

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


def _key(kind: str, address: str, link: TableLink | None = None) -> str:
    # hashed: fixed size, and the table holds no addresses and no token hashes
    return hashlib.sha256(f"{kind}\n{link.token_hash if link else ''}\n{address}".encode()).hexdigest()


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


def reserve_send(link: TableLink, address: str) -> None:
    """Before a send of `link` from `address` is read: refuse it when a brake holds, else count it as refused
    until `accept_send` says it was taken. Committed on its own, before the send is read."""
    moment = now()
    with transaction.atomic():
        locked = TableLink.objects.select_for_update().get(pk=link.pk)
        if (locked.window_start is not None and moment - locked.window_start < WINDOW
                and locked.window_count >= TAKEN_LIMIT):
            raise Braked(_("This table has sent too often in the last minutes. Wait a few minutes or bring the "
                           "paper list to the referee table."),
                         retry_after=_seconds_left(locked.window_start, moment))
        brake = _brake(_key("refused", address, link), moment)
        if brake.count >= REFUSED_LIMIT:
            raise Braked(_("This phone has sent too much that could not be taken in the last minutes. Wait a few "
                           "minutes or bring the paper list to the referee table."),
                         retry_after=_seconds_left(brake.window_start, moment))
        brake.count += 1
        brake.save()


def accept_send(link: TableLink, address: str) -> None:
    """The send reserved by `reserve_send` was taken: it counts on the link's quota, no longer as refused."""
    moment = now()
    with transaction.atomic():
        locked = TableLink.objects.select_for_update().get(pk=link.pk)
        if locked.window_start is None or moment - locked.window_start >= WINDOW:
            locked.window_start, locked.window_count = moment, 0
        locked.window_count += 1
        locked.save(update_fields=["window_start", "window_count"])
        LinkBrake.objects.filter(key=_key("refused", address, link), count__gt=0).update(count=F("count") - 1)


def check_unknown(address: str) -> None:
    """Refuse every table link to an address that opened `UNKNOWN_LIMIT` unknown ones in the window."""
    moment = now()
    row = LinkBrake.objects.filter(key=_key("unknown", address), window_start__gt=moment - WINDOW,
                                   count__gte=UNKNOWN_LIMIT).first()
    if row is not None:
        raise Braked(_("Too many addresses of table links that do not exist were opened from this phone. Wait a "
                       "few minutes, then open your table's link again."),
                     retry_after=_seconds_left(row.window_start, moment))


def note_unknown(address: str) -> None:
    """Count one unknown token opened from `address`."""
    moment = now()
    with transaction.atomic():
        row = _brake(_key("unknown", address), moment)
        row.count += 1
        row.save()
