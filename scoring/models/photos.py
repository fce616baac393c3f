"""A photo of a place's signed paper list, sent by the table's phone with its list (`scoring.results.photos`).

Kept in the database, not on a disk, so every server of an installation shows it. Only what the server made of
the upload is stored: the picture re-encoded (no metadata, no location) and a thumbnail. One photo per place; a
newer one from the table replaces it. It goes with its tournament, table or match; it is not part of the
tournament file (`tournament.transfer.LOCAL_MODELS`).
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SheetPhoto(models.Model):
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="sheet_photos")
    #: the place, one of two as for a sheet: a seated game's table of a round, or a Voms match
    table = models.OneToOneField("tournament.Table", on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="sheet_photo")
    match = models.OneToOneField("tournament.Match", on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="sheet_photo")
    #: the link it came from (kept when the link is withdrawn or reissued)
    source_link = models.ForeignKey("scoring.TableLink", on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    #: JPEG, re-encoded by the server; `thumbnail` the same, small, for the confirming pages
    image = models.BinaryField()
    thumbnail = models.BinaryField()
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    #: bytes of `image`
    size = models.PositiveIntegerField()
    uploaded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(table__isnull=False, match__isnull=True)
                                   | models.Q(table__isnull=True, match__isnull=False), name="photo_has_one_place"),
        ]
        verbose_name = _("photo of the paper sheet")
        verbose_name_plural = _("photos of the paper sheets")

    def __str__(self) -> str:
        return str(_("Photo of %(place)s") % {"place": self.match or self.table})
