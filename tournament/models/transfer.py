"""A tournament file between the two steps of its import (tournament/views/transfer.py)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ImportUpload(models.Model):
    """The checked file of step 1, kept until step 2 imports it or is cancelled, or a day has passed. In the
    database rather than a server's temp folder: behind a load balancer step 2 is often answered by another app
    server than step 1. The importer's session holds the random token; the row belongs to the importer."""

    token = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    data = models.BinaryField()
    uploaded_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("tournament file being imported")
        verbose_name_plural = _("tournament files being imported")

    def __str__(self) -> str:
        return f"{self.user} {self.uploaded_at:%Y-%m-%d %H:%M}"
