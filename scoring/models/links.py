"""A table's private link: a phone at the table opens that table's score entry for one round, without an account.

Only the SHA-256 of the token is stored, so a copy of the database alone opens nothing. The token itself
is derived from a random `nonce` with the server's secret key (`scoring.results.links.token_of`), so
the director's page and the printed score list can show the same link again without storing it.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def team_side(holder: int) -> str:
    """A Voms team's link's holder (1, 2) as the slip names its half: "A", "B"."""
    return "AB"[holder - 1]


class TableLink(models.Model):
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="table_links")
    #: what the link opens, one of two: a table of a seated game's round (a table belongs to one round, so the
    #: link opens that table's sheet of that round only), or a Voms match (a pool game's slip, a knockout series)
    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="links")
    match = models.ForeignKey("tournament.Match", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="links")
    #: whose link it is when two agreeing reports count (`Tournament.agreeing_reports_count`): the seat's number
    #: at the table, or a Voms match's team (1: the first team, 2: the second); empty: the whole table's link
    holder = models.PositiveSmallIntegerField(null=True, blank=True)
    nonce = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True)
    issued_at = models.DateTimeField(default=timezone.now)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: sends taken (stored) in the current brake window, from any address (`scoring.results.brakes`); refused
    #: sends are counted apart, per address, in `LinkBrake`
    window_start = models.DateTimeField(null=True, blank=True)
    window_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["table__round__number", "table__number", "holder", "-issued_at"]
        constraints = [
            models.UniqueConstraint(fields=["table"], condition=models.Q(revoked_at__isnull=True, holder__isnull=True),
                                    name="one_open_link_per_table"),
            models.UniqueConstraint(fields=["match"], condition=models.Q(revoked_at__isnull=True, holder__isnull=True),
                                    name="one_open_link_per_match"),
            models.UniqueConstraint(fields=["table", "holder"],
                                    condition=models.Q(revoked_at__isnull=True, holder__isnull=False),
                                    name="one_open_link_per_seat"),
            models.UniqueConstraint(fields=["match", "holder"],
                                    condition=models.Q(revoked_at__isnull=True, holder__isnull=False),
                                    name="one_open_link_per_team"),
            models.CheckConstraint(condition=models.Q(table__isnull=False, match__isnull=True)
                                   | models.Q(table__isnull=True, match__isnull=False), name="link_has_one_target"),
        ]
        verbose_name = _("table link")
        verbose_name_plural = _("table links")

    def __str__(self) -> str:
        return str(_("Link of %(table)s") % {"table": self.target})

    @property
    def target(self):
        """The table or the match the link opens."""
        return self.table if self.table_id is not None else self.match

    @property
    def place(self) -> dict:
        """The link's place as `scoring.results.places` names a sheet's place: {"table": …} or {"match": …}."""
        return {"table": self.table} if self.table_id is not None else {"match": self.match}

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    @property
    def holder_label(self) -> str:
        """Whose link it is in words ("seat 3", "team A"), or "" for a whole table's link."""
        if self.holder is None:
            return ""
        if self.table_id is not None:
            return str(_("seat %(number)s") % {"number": self.holder})
        return str(_("team %(side)s") % {"side": team_side(self.holder)})

    @property
    def hint(self) -> str:
        """The first characters of the token's hash: names a link in logs without revealing it."""
        return self.token_hash[:8]


class LinkReport(models.Model):
    """What one holder of a seat's or a team's link sent for its sheet (two agreeing reports count: see
    `scoring.results.counting`). One per holder and place: the holder sending again replaces it."""

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="link_reports")
    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="link_reports")
    match = models.ForeignKey("tournament.Match", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="link_reports")
    #: the seat's number, or the Voms match's team (1 or 2), as on its link
    holder = models.PositiveSmallIntegerField()
    link = models.ForeignKey(TableLink, on_delete=models.CASCADE, related_name="reports")
    mode = models.CharField(max_length=12, default="games")
    entries = models.JSONField(default=list)
    #: the version of the counted sheet the report extends (0: there is none yet)
    base_version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["holder"]
        constraints = [
            models.UniqueConstraint(fields=["table", "holder"], name="one_report_per_seat"),
            models.UniqueConstraint(fields=["match", "holder"], name="one_report_per_team"),
            models.CheckConstraint(condition=models.Q(table__isnull=False, match__isnull=True)
                                   | models.Q(table__isnull=True, match__isnull=False), name="report_has_one_place"),
        ]
        verbose_name = _("report sent from a seat's link")
        verbose_name_plural = _("reports sent from seats' links")

    def __str__(self) -> str:
        return f"{self.table or self.match}: {self.link.holder_label}"


class LinkBrake(models.Model):
    """What one address did in the current window (`scoring.results.brakes`): its refused sends to one link,
    or the unknown tokens it opened.

    A table rather than the cache, as the log-in brake (tournament/models/logins.py): every server process sees
    the same rows, counting under a row lock loses nothing when processes answer at once, and no row is evicted
    to make room. No link to the tournament: the key names the link by its token's hash, so the tournament file
    never carries these counts and an imported copy (its links get new tokens) starts without them.
    """

    #: sha256 of what is counted (refused sends or unknown tokens), the link's token hash and the address
    key = models.CharField(max_length=64, unique=True)
    window_start = models.DateTimeField(db_index=True)
    count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.key[:12]}… {self.count}"


class TableProblem(models.Model):
    """A table signals a problem from its link (a wrong player, a dispute, a missing player); the referee
    table sees it on the round's page and closes it there."""

    class Kind(models.TextChoices):
        WRONG_PLAYER = "wrong_player", _("A wrong player at the table")
        DISPUTE = "dispute", _("A dispute")
        MISSING_PLAYER = "missing_player", _("A player is missing")
        OTHER = "other", _("Something else")

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="table_problems")
    #: where the problem is: the link's table, or its match (Voms)
    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="problems")
    match = models.ForeignKey("tournament.Match", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="problems")
    link = models.ForeignKey(TableLink, on_delete=models.SET_NULL, null=True, related_name="problems")
    kind = models.CharField(_("problem"), max_length=20, choices=Kind.choices)
    note = models.CharField(_("note"), max_length=300, blank=True)
    signalled_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["signalled_at"]
        verbose_name = _("problem signalled by a table")
        verbose_name_plural = _("problems signalled by tables")

    def __str__(self) -> str:
        return f"{self.table or self.match}: {self.get_kind_display()}"
