"""The audit log: every state change a service makes, with who, when, before, after and why."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .organisation import ClubQuerySet, organisation_field


class AuditEntry(models.Model):
    #: the club whose data changed; empty for what belongs to no club (a server's superuser's own doings)
    organisation = organisation_field(null=True, blank=True)
    #: the federation whose register or seasons changed (tournament/models/federation.py)
    federation = models.ForeignKey("tournament.Federation", on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("federation"))
    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, null=True, blank=True, related_name="audit"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("who")
    )
    when = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=60)
    #: the object as the writer's language named it then ("Table 4"); shown as it is where `object_ref` is empty
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    #: the same object in language-neutral pieces (names as text, {"kind": "table", "number": 4} for what has a
    #: word), worded at read time in the reader's language (tournament.audit_labels.object_words); empty on
    #: entries written before it existed and for objects given as text
    object_ref = models.JSONField(_("object (language-neutral)"), null=True, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.TextField(_("why"), blank=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["-when", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.when:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"
