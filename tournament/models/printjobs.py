"""A long printout made outside the request (tournament/printjobs.py): its state, progress and file, in the
database, so that any serving process shows its progress and any worker (a thread of the laptop's server, a
server's `manage.py print_worker`) makes it, also after the worker that began it died."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class PrintJob(models.Model):
    """One document of a tournament rendered as a PDF: which one (`document` and `params`), how far
    (`done` of `total` pages), and once done the file itself (no local disk: every server sees it).

    `key` is the hash of what the file will show (its pages' HTML): a job whose document would print
    differently now (a re-draw, a substitute) is stale, and a new one is made."""

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("being made")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="print_jobs")
    #: the document's name in its game's catalogue, and its options ({"round": 2})
    document = models.CharField(max_length=100)
    params = models.JSONField(default=dict, blank=True)
    key = models.CharField(max_length=64, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    filename = models.CharField(max_length=255, blank=True)
    content = models.BinaryField(null=True, blank=True)
    #: why it failed, one of `tournament.printjobs.ERRORS` (translated when shown)
    error = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    #: the worker making it writes this after every batch; a running job whose heartbeat is too old is of a
    #: worker that died, and the next worker takes it over
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tournament", "document"]), models.Index(fields=["state"])]
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")

    def __str__(self) -> str:
        return f"{self.document} {self.params} ({self.state})"


class PrintJobPart(models.Model):
    """A finished batch of a job's pages: a job taken over after its worker died goes on from its parts."""

    job = models.ForeignKey(PrintJob, on_delete=models.CASCADE, related_name="parts")
    index = models.PositiveIntegerField()
    pages = models.PositiveIntegerField()
    content = models.BinaryField()

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["job", "index"], name="print_job_part_once")]

    def __str__(self) -> str:
        return f"{self.job_id} #{self.index}"
