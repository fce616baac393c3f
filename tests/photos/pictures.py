"""Pictures a phone might send, made in memory for the photo tests (scoring/results/photos.py)."""

from __future__ import annotations

import io
import random

from PIL import ExifTags, Image

#: where the GPS location in `jpeg_with_gps` says the photo was taken (Munich)
LATITUDE = (48.0, 8.0, 15.0)


def noisy(width: int, height: int, *, seed: int = 1) -> Image.Image:
    """A picture that compresses badly (as a photo does), reproducible per seed."""
    rng = random.Random(seed)
    tile = Image.frombytes("RGB", (64, 64), bytes(rng.randrange(256) for _ in range(64 * 64 * 3)))
    picture = Image.new("RGB", (width, height))
    for x in range(0, width, 64):
        for y in range(0, height, 64):
            picture.paste(tile, (x, y))
    return picture


def jpeg(width: int = 800, height: int = 600, *, exif: Image.Exif | None = None, quality: int = 90) -> bytes:
    out = io.BytesIO()
    extra = {"exif": exif} if exif is not None else {}
    noisy(width, height).save(out, format="JPEG", quality=quality, **extra)
    return out.getvalue()


def gps_exif(*, orientation: int | None = None) -> Image.Exif:
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Model] = "Camera 9"
    if orientation is not None:
        exif[ExifTags.Base.Orientation] = orientation
    exif[ExifTags.Base.GPSInfo] = {ExifTags.GPS.GPSLatitudeRef: "N", ExifTags.GPS.GPSLatitude: LATITUDE,
                                   ExifTags.GPS.GPSLongitudeRef: "E", ExifTags.GPS.GPSLongitude: (11.0, 34.0, 30.0)}
    return exif


def jpeg_with_gps(width: int = 1200, height: int = 900, *, orientation: int | None = None) -> bytes:
    return jpeg(width, height, exif=gps_exif(orientation=orientation))


def gps_of(data: bytes) -> dict:
    with Image.open(io.BytesIO(data)) as image:
        return dict(image.getexif().get_ifd(ExifTags.IFD.GPSInfo))


def png_bomb(side: int = 8_000) -> bytes:
    """A small file of a huge picture: `side`² one-bit pixels compress to a few kilobytes."""
    out = io.BytesIO()
    Image.new("1", (side, side)).save(out, format="PNG", optimize=True)
    return out.getvalue()


def transparent_png(width: int = 300, height: int = 200) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (width, height), (255, 0, 0, 0)).save(out, format="PNG")
    return out.getvalue()


def gif(width: int = 40, height: int = 30) -> bytes:
    out = io.BytesIO()
    Image.new("P", (width, height)).save(out, format="GIF")
    return out.getvalue()


def webp(width: int = 500, height: int = 400) -> bytes:
    out = io.BytesIO()
    noisy(width, height).save(out, format="WEBP")
    return out.getvalue()
