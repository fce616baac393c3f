"""Automatic backups still owed: one row per completed round, written in the transaction that completes it."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class PendingBackup(models.Model):
    """A round completed and committed whose automatic backup is not written yet (tournament/backup.py).

    The row commits with the round, so a server that dies between the commit and the backup leaves it behind,
    and the next process to look (`backup_pending`, soon after it starts) makes the backup. It names the
    tournament by id and short name rather than by a link: it is no part of the tournament (not exported, not
    imported), and a backup owed for a tournament deleted since is still made.
    """

    tournament_id = models.PositiveBigIntegerField(_("tournament"))
    tournament_slug = models.CharField(_("short name"), max_length=200)
    round_number = models.PositiveIntegerField(_("round"))
    requested_at = models.DateTimeField(_("requested"), auto_now_add=True)
    #: set by the process making the backup, so that two processes do not both make it
    claimed_at = models.DateTimeField(_("claimed"), null=True, blank=True)

    class Meta:
        ordering = ["requested_at", "id"]
        verbose_name = _("pending automatic backup")
        verbose_name_plural = _("pending automatic backups")

    def __str__(self) -> str:
        return f"{self.tournament_slug} round {self.round_number}"


class TournamentSnapshot(models.Model):
    """A server's automatic backup of one tournament after a round: its tournament file (tournament/transfer.py),
    gzip-compressed, kept in the database so that every app server sees it, whichever made it (tournament/backup.py,
    docs/server.md). Restored like any tournament file: download it (`manage.py snapshots --save`) and import it.
    Named by id and short name like `PendingBackup`: a tournament deleted since keeps its last snapshots."""

    tournament_id = models.PositiveBigIntegerField(_("tournament"), db_index=True)
    tournament_slug = models.CharField(_("short name"), max_length=200)
    #: the round that was owed (the newest one, when several were owed at once); None: made by hand
    round_number = models.PositiveIntegerField(_("round"), null=True, blank=True)
    made_at = models.DateTimeField(_("made"), auto_now_add=True)
    #: the tournament file, gzip-compressed
    content = models.BinaryField(_("tournament file"))

    class Meta:
        ordering = ["-made_at", "-id"]
        verbose_name = _("tournament snapshot")
        verbose_name_plural = _("tournament snapshots")

    def __str__(self) -> str:
        return f"{self.tournament_slug} {self.made_at:%Y-%m-%d %H:%M}"
