"""What the server makes of a phone's photo (scoring/results/photos.py): refused when it is no photo, too large or a
decompression bomb; otherwise made anew, upright, at most 1600 px, JPEG, without metadata."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings
from django.utils import translation
from PIL import Image

from scoring.results.photos import MAX_SIDE, THUMB_SIDE, PhotoRefused, reencoded

from .pictures import LATITUDE, gif, gps_of, jpeg, jpeg_with_gps, png_bomb, transparent_png, webp


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def refusal(data: bytes) -> str:
    with pytest.raises(PhotoRefused) as refused:
        reencoded(data)
    return refused.value.message


def test_a_gps_location_does_not_survive():
    sent = jpeg_with_gps()
    assert gps_of(sent)[2] == LATITUDE  # the test's photo does carry the location
    stored = reencoded(sent)
    assert gps_of(stored.image) == {} and gps_of(stored.thumbnail) == {}
    for data in (stored.image, stored.thumbnail):
        image = opened(data)
        assert dict(image.getexif()) == {}
        assert b"Exif" not in data and b"PhoneMaker" not in data
        assert not {"exif", "icc_profile", "xmp", "comment"} & set(image.info)


def test_a_large_photo_is_stored_at_most_1600_px_as_a_jpeg_with_a_small_thumbnail():
    sent = jpeg(2400, 1800, quality=85)
    stored = reencoded(sent)
    image, thumb = opened(stored.image), opened(stored.thumbnail)
    assert image.format == "JPEG" and image.size == (MAX_SIDE, 1200) == (stored.width, stored.height)
    assert max(thumb.size) == THUMB_SIDE and thumb.format == "JPEG"
    assert len(stored.image) < len(sent) / 2
    assert len(stored.image) < 1600 * 1200  # well under a byte a pixel at JPEG quality 80


def test_a_small_photo_keeps_its_size():
    assert opened(reencoded(jpeg(640, 480)).image).size == (640, 480)


def test_the_photo_is_turned_upright_as_the_camera_noted():
    stored = reencoded(jpeg_with_gps(1200, 900, orientation=6))  # held upright: stored sideways with a note
    assert (stored.width, stored.height) == (900, 1200)


def test_a_webp_is_stored_as_a_jpeg():
    image = opened(reencoded(webp()).image)
    assert image.format == "JPEG" and image.size == (500, 400)


def test_a_transparent_png_is_stored_on_white():
    image = opened(reencoded(transparent_png()).image)
    assert image.mode == "RGB" and image.getpixel((10, 10)) == (255, 255, 255)


@pytest.mark.parametrize("data", [b"%PDF-1.7 not a photo", b"", b"Spielliste" * 100, gif()],
                         ids=["pdf", "empty", "text", "gif"])
def test_what_is_no_photo_is_refused(data):
    with translation.override("en"):
        assert refusal(data) == "This file is not a photo (JPEG, PNG or WebP): it was not kept."


def test_a_damaged_photo_is_refused():
    # cut inside its headers: a JPEG cut later is kept as far as it came (WeasyPrint, in the same process, has
    # Pillow load truncated pictures)
    with translation.override("de"):
        assert "beschädigt" in refusal(jpeg()[:300])


def test_a_decompression_bomb_is_refused_before_it_is_decoded():
    bomb = png_bomb()
    assert len(bomb) < 100_000  # 64 megapixels in a few kilobytes
    with translation.override("en"):
        assert refusal(bomb).startswith("The photo has too many pixels (more than 50 megapixels)")


@override_settings(SHEET_PHOTO_MAX_BYTES=1024 * 1024)
def test_a_file_over_the_limit_is_refused_before_it_is_opened():
    with translation.override("da"):
        assert "for stort (mere end 1 MB)" in refusal(b"\xff\xd8\xff" + bytes(1024 * 1024))


def test_a_fresh_server_process_reads_every_format(tmp_path):
    """Pillow loads its format plugins only when a file needs them: a process that has not opened a picture yet
    (a server just started) must still read a JPEG and a WebP."""
    (tmp_path / "photo.jpg").write_bytes(jpeg(300, 200))
    (tmp_path / "photo.webp").write_bytes(webp(200, 100))
    script = (
        "import django, pathlib, sys; django.setup()\n"
        "from scoring.results.photos import reencoded\n"
        "folder = pathlib.Path(sys.argv[1])\n"
        "print(*(reencoded((folder / name).read_bytes()).width for name in ('photo.jpg', 'photo.webp')))\n"
    )
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          env=environment, cwd=Path(__file__).resolve().parents[2], check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["300", "200"]
