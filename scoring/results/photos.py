"""A photo of the signed paper list, sent by a table's phone with its list or after it: checked, made anew,
stored with the place (`SheetPhoto`), shown to the referee table beside the entry it confirms.

What a phone sends is untrusted. It is refused, with a message the table understands, when it is larger than
`settings.SHEET_PHOTO_MAX_BYTES` (counted while it arrives, `scoring.photo_views.PhotoUploadHandler`), when
Pillow does not read it as one of `FORMATS` (HEIC only where a Pillow plugin reads it: Pillow alone does not),
or when it has more than `MAX_PIXELS` pixels, read from its header before anything is decoded (a decompression
bomb: a few kilobytes that would unpack to gigabytes). What is stored is made anew from the pixels alone: turned
upright as the camera noted, at most `MAX_SIDE` pixels on its longest side, JPEG; no byte of the upload's
metadata (EXIF, the GPS location, comments, colour profiles) survives.

One photo per place; a newer one replaces it. With a list that was taken it is always kept; on its own only
while a list the table sent awaits confirmation (a confirmed list is the referee table's). It stays after
the list is confirmed or its first entry replaced (it shows the paper, not an entry), and goes with its
tournament, round, table or match.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from scoring.models import PendingSheet, SheetPhoto, TableLink
from tournament.services.audit import log_action
from tournament.services.errors import DomainError

from .links import refuse_closed
from .places import PlaceQuery, lock_place, place_of

#: what a phone may send: Pillow's names of the formats (HEIF only when a plugin registered it)
FORMATS = ("JPEG", "PNG", "WEBP", "HEIF")
#: a photo's pixels at most (50 megapixels: more than a phone's camera makes by default), read from the header
MAX_PIXELS = 50_000_000
#: the stored photo's longest side, and the thumbnail's
MAX_SIDE = 1600
THUMB_SIDE = 320
QUALITY = 80


class PhotoRefused(DomainError):
    """The photo was not kept; what the table sent with it is (the message says so)."""


@dataclass(frozen=True)
class Encoded:
    image: bytes
    thumbnail: bytes
    width: int
    height: int


def max_megabytes() -> int:
    return max(1, settings.SHEET_PHOTO_MAX_BYTES // (1024 * 1024))


def too_large() -> PhotoRefused:
    return PhotoRefused(_("The photo is too large (more than %(mb)s MB): it was not kept. Take it again with a "
                          "smaller size, or send it from another phone.") % {"mb": max_megabytes()})


def reencoded(data: bytes) -> Encoded:
    """The upload made anew (upright, at most `MAX_SIDE` px, JPEG, without metadata), or `PhotoRefused`."""
    if len(data) > settings.SHEET_PHOTO_MAX_BYTES:
        raise too_large()
    try:
        with Image.open(io.BytesIO(data), formats=_readable()) as upload:
            if upload.width * upload.height > MAX_PIXELS:  # the header's size: nothing is decoded yet
                raise _bomb()
            upload.draft("RGB", (MAX_SIDE, MAX_SIDE))  # a JPEG is decoded at a fraction of its size when it can be
            upright = ImageOps.exif_transpose(upload)
            picture = _pixels_only(upright)
    except Image.DecompressionBombError as error:
        raise _bomb() from error
    except UnidentifiedImageError as error:
        raise PhotoRefused(_("This file is not a photo (JPEG, PNG or WebP): it was not kept.")) from error
    except PhotoRefused:
        raise
    except Exception as error:  # noqa: BLE001 - a truncated or crafted file fails in many ways inside Pillow
        raise PhotoRefused(_("The photo cannot be read (it may be damaged): it was not kept. Take it again.")) \
            from error
    picture.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    small = picture.copy()
    small.thumbnail((THUMB_SIDE, THUMB_SIDE), Image.Resampling.LANCZOS)
    return Encoded(image=_jpeg(picture), thumbnail=_jpeg(small, quality=75), width=picture.width,
                   height=picture.height)


def _readable() -> list[str]:
    """`FORMATS` that this Pillow reads (every plugin loaded first: only the common ones are until a file needs
    another)."""
    Image.init()
    return [name for name in FORMATS if name in Image.OPEN]


def _bomb() -> PhotoRefused:
    return PhotoRefused(_("The photo has too many pixels (more than %(mp)s megapixels): it was not kept. Take it "
                          "again with a smaller size.") % {"mp": MAX_PIXELS // 1_000_000})


def _pixels_only(image: Image.Image) -> Image.Image:
    """The picture's pixels in a new RGB image: nothing of the file's metadata is carried (a transparent PNG on
    white)."""
    image.load()
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        clean = Image.new("RGB", rgba.size, "white")
        clean.paste(rgba, mask=rgba.getchannel("A"))
        return clean
    rgb = image.convert("RGB")
    clean = Image.new("RGB", rgb.size)
    clean.paste(rgb)
    return clean


def _jpeg(image: Image.Image, *, quality: int = QUALITY) -> bytes:
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality, optimize=True)
    return out.getvalue()


def attach_photo(link: TableLink, data: bytes, *, with_send: bool) -> SheetPhoto:
    """Keep the photo the table sent (`with_send`: with a list that was taken), replacing the place's photo."""
    encoded = reencoded(data)  # before the transaction: the place is not held while the picture is made
    tournament = link.tournament
    with transaction.atomic():
        place = link.place
        lock_place(place)
        refuse_closed(link)
        if not with_send and not PendingSheet.objects.filter(source_link__isnull=False, **place).exists():
            raise PhotoRefused(_("Your list is not awaiting confirmation any more: the photo was not kept. If "
                                 "something is wrong, bring the paper list to the referee table."))
        photo = SheetPhoto.objects.select_for_update().filter(**place).first()
        replaced = photo is not None
        if photo is None:
            photo = SheetPhoto(tournament=tournament, **place)
        photo.source_link, photo.uploaded_at = link, timezone.now()
        photo.image, photo.thumbnail = encoded.image, encoded.thumbnail
        photo.width, photo.height, photo.size = encoded.width, encoded.height, len(encoded.image)
        photo.save()
        log_action("sheet.photo", by=None, tournament=tournament, obj=link.target,
                   after={"from_link": link.hint, "size": photo.size, "replaced": replaced})
    return photo


def photo_of(*, match=None, table=None) -> SheetPhoto | None:
    """The place's photo without its bytes (what a page needs to show it), or None."""
    return _PHOTO.first(place_of(match, table))


#: asked on every list page and phone page: compiled once (tournament/prepared.py)
_PHOTO = PlaceQuery(SheetPhoto, lambda place: SheetPhoto.objects.defer("image", "thumbnail").filter(**place)
                    .order_by("pk")[:1])
