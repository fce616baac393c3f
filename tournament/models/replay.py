"""Forms saved once: the single-use key a form was rendered with, and a digest of what it said.

See `tournament.services.replay`. Deliberately not linked to a tournament: a tournament file
(`tournament.transfer` exports every model linked to one) must not carry these keys, or importing
the same file twice would clash on them.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SentForm(models.Model):
    key = models.CharField(max_length=64)
    #: sha-256 of the posted fields (and files): the same key with other content is a new submission
    digest = models.CharField(max_length=64)
    #: what the service did ("sheet", "team.add", "participant.add", ...) and to what, for the answer to a replay
    action = models.CharField(max_length=60)
    what = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "digest"], name="sent_form_saved_once")]
        verbose_name = _("form saved")
        verbose_name_plural = _("forms saved")

    def __str__(self) -> str:
        return f"{self.action} {self.what}"
