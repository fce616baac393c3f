"""Slowing down password guessing: attempts are counted per address and user name together.

The first `FREE_ATTEMPTS` attempts for one user name from one address are checked at once.
After that, each further attempt for that pair must wait: `FIRST_DELAY` seconds after the
fifth, twice as long after each further one, never more than `MAX_DELAY`. A guesser gets a
handful of tries an hour; the rightful user, logging in from another computer, is not held
up at all, and from the same computer only for as long as the delay of the moment.

An attempt is reserved (counted) before its password is checked, in one locked transaction:
several server processes answering at once cannot let more attempts through than one would.
A successful log-in forgets the pair's count; a pair quiet for `FORGET_AFTER` starts afresh.
"""

from __future__ import annotations

import datetime
import hashlib
import math

from django.db import transaction
from django.utils import timezone

from ..models import LoginThrottle

FREE_ATTEMPTS = 5
FIRST_DELAY = 30
MAX_DELAY = 15 * 60
FORGET_AFTER = 24 * 60 * 60


def now() -> datetime.datetime:
    return timezone.now()


def throttle_key(address: str, username: str) -> str:
    # hashed: any typed user name fits the column, and the table holds no names or addresses
    return hashlib.sha256(f"{address}\n{username.strip().casefold()}".encode()).hexdigest()


def delay_after(attempts: int) -> int:
    """Seconds to wait after `attempts` attempts without success."""
    if attempts < FREE_ATTEMPTS:
        return 0
    return min(FIRST_DELAY * 2 ** min(attempts - FREE_ATTEMPTS, 16), MAX_DELAY)


def reserve_attempt(address: str, username: str) -> int:
    """Count one log-in attempt for this address and user name.

    Returns 0 if the password may be checked now, else the seconds to wait (nothing counted).
    """
    moment = now()
    with transaction.atomic():
        row, _created = LoginThrottle.objects.select_for_update().get_or_create(
            key=throttle_key(address, username), defaults={"last_attempt": moment}
        )
        if row.last_attempt < moment - datetime.timedelta(seconds=FORGET_AFTER):
            row.attempts, row.blocked_until = 0, None
        if row.blocked_until is not None and row.blocked_until > moment:
            return math.ceil((row.blocked_until - moment).total_seconds())
        row.attempts += 1
        row.last_attempt = moment
        wait = delay_after(row.attempts)
        row.blocked_until = moment + datetime.timedelta(seconds=wait) if wait else None
        row.save()
        if _created:
            forget_stale(moment)
    return 0


def forget_attempts(address: str, username: str) -> None:
    """After a successful log-in: the pair starts afresh."""
    LoginThrottle.objects.filter(key=throttle_key(address, username)).delete()


def forget_stale(moment: datetime.datetime) -> None:
    """Rows quiet for longer than FORGET_AFTER count nothing any more; keep the table small."""
    LoginThrottle.objects.filter(last_attempt__lt=moment - datetime.timedelta(seconds=FORGET_AFTER)).delete()
