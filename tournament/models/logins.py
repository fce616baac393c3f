"""Failed log-ins, counted per address and user name together (tournament/services/logins.py).

A table rather than the cache: every server process (gunicorn's workers) sees the same rows,
counting under a row lock loses no attempt when workers answer at once, rows are never evicted
to make room (a cache's culling would let a guesser flush the counts with junk user names), and
`migrate` creates it wherever the app runs, with nothing else to set up.
"""

from django.db import models


class LoginThrottle(models.Model):
    #: sha256 of the address and the case-folded user name: fixed size, whatever was typed
    key = models.CharField(max_length=64, unique=True)
    #: attempts since the last successful log-in (or since the row was forgotten)
    attempts = models.PositiveIntegerField(default=0)
    #: no attempt for this address and name is checked before this moment
    blocked_until = models.DateTimeField(null=True, blank=True)
    last_attempt = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key[:12]}… {self.attempts}"
