"""What the table wrote: one score sheet per match (Voms slip) or per table and round (score list).

`entries` keeps the raw entries exactly as typed; `derived` holds what they are worth
(points, totals, counts), written only by the game's recompute path
(`scoring.results.recording`), so it can never drift from its source.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ScoreSheet(models.Model):
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="sheets")
    match = models.OneToOneField(
        "tournament.Match", on_delete=models.CASCADE, null=True, blank=True, related_name="sheet"
    )
    table = models.OneToOneField(
        "tournament.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="sheet"
    )
    #: how the entries were given, in the game's terms ("games", "totals", "hands")
    mode = models.CharField(max_length=12, default="games")
    entries = models.JSONField(_("entries"), default=list)
    derived = models.JSONField(default=dict)
    #: raised by every change: a save based on an older version is refused (no lost update)
    version = models.PositiveIntegerField(default=1)
    corrected = models.BooleanField(_("corrected"), default=False)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    #: a score sheet counts in the standings (a `PendingSheet` does not)
    counted = True
    #: on the sheet `record_sheet` returns when a director decided between two different entries: "first" or
    #: "mine" (which one counts now); not stored (the audit entry `sheet.decided` is)
    decision = ""

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(match__isnull=False) | models.Q(table__isnull=False), name="sheet_has_a_place"
            )
        ]
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")

    def __str__(self) -> str:
        return str(_("Sheet of %(place)s") % {"place": self.match or self.table})


class SheetRevision(models.Model):
    """Every version a sheet had: who wrote it, when, and why it was changed."""

    class Kind(models.TextChoices):
        ENTRY = "entry", _("Entry")
        CORRECTION = "correction", _("Correction")

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    entries = models.JSONField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField(blank=True, max_length=500)  # tournament.services.text.MAX_REASON
    #: under double entry: the second person, who confirmed or entered the same again
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: the entry came from the table's private link (which one; `at` says when)
    source_link = models.ForeignKey(
        "scoring.TableLink", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["version"]
        constraints = [models.UniqueConstraint(fields=["sheet", "version"], name="revision_version_unique")]

    def __str__(self) -> str:
        return f"{self.sheet_id} v{self.version}"


class PendingSheet(models.Model):
    """A first entry under double entry: it does not count until a second person confirms it.

    It is not a `ScoreSheet`, so standings, round completion and the knockout never see it. It
    holds the whole list as the first person typed it; `base_version` is the version of the counted
    sheet it extends (0: there is none yet). `version` is raised whenever the first person changes
    it, so a confirmation is always of the entry that was looked at.
    """

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="pending_sheets")
    match = models.OneToOneField(
        "tournament.Match", on_delete=models.CASCADE, null=True, blank=True, related_name="pending_sheet"
    )
    table = models.OneToOneField(
        "tournament.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="pending_sheet"
    )
    mode = models.CharField(max_length=12, default="games")
    entries = models.JSONField(_("entries"), default=list)
    version = models.PositiveIntegerField(default=1)
    base_version = models.PositiveIntegerField(default=0)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    #: sent by the table from its private link (then `entered_by` is empty)
    source_link = models.ForeignKey(
        "scoring.TableLink", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    #: a pending entry never counts (a `ScoreSheet` always does); callers tell the two apart by this
    counted = False

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(match__isnull=False) | models.Q(table__isnull=False), name="pending_has_a_place"
            )
        ]
        verbose_name = _("first entry awaiting confirmation")
        verbose_name_plural = _("first entries awaiting confirmation")

    def __str__(self) -> str:
        return str(_("First entry of %(place)s") % {"place": self.match or self.table})
