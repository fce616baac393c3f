"""Static files in production: answered before the rest of the middleware, by their hashed names (kept by a
phone for good: whitenoise answers them `max-age=315360000, public, immutable`) and precompressed at
collectstatic, with brotli as well as gzip. The hall's browser test fetches a hashed style sheet through
waitress (tests/browser/test_hall.py); these check the settings that make it so."""

import importlib.util
import re

from django.conf import settings

from tournament.clubaddress import CLUB_ADDRESS


def test_whitenoise_answers_static_files_before_the_rest_of_the_middleware():
    """Only the club addresses' middleware comes first: it rewrites /c/<club>/… addresses and does nothing (no query)
    for any other, static files included (tournament/clubaddress.py)."""
    assert settings.MIDDLEWARE[:3] == ["tournament.clubaddress.ClubAddressMiddleware",
                                       "django.middleware.security.SecurityMiddleware",
                                       "whitenoise.middleware.WhiteNoiseMiddleware"]
    assert not CLUB_ADDRESS.match(settings.STATIC_URL + "css/app.css")


def test_collectstatic_compresses_with_brotli_too():
    from whitenoise.compress import Compressor

    assert importlib.util.find_spec("brotli") is not None  # requirements.txt: else only .gz files are made
    assert Compressor(quiet=True).use_brotli and Compressor(quiet=True).use_gzip


def test_the_printouts_fonts_are_collected_but_not_compressed(tmp_path, settings):
    """The TrueType fonts of the printouts are read from static/ by the PDF renderer, never by a page; brotli took
    nine seconds of CPU for them at every first start in the hall. The other files are still compressed."""
    from django.core.management import call_command

    # the hall's storage (settings.py with DEBUG off) into a folder of the test's (Django's test signals make the
    # storage again for these settings, and again after the test)
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "config.static_storage.StaticFiles"}}
    call_command("collectstatic", interactive=False, verbosity=0)
    fonts = {path.name for path in (tmp_path / "fonts").iterdir()}
    assert any(name.startswith("DejaVuSans.") and name.endswith(".ttf") for name in fonts), fonts
    assert not [name for name in fonts if name.endswith((".ttf.br", ".ttf.gz"))], fonts
    assert list(tmp_path.glob("css/app.*.css.br")) and list(tmp_path.glob("css/app.*.css.gz"))


def test_each_static_address_is_worked_out_once_and_forgotten_when_the_settings_change(tmp_path, settings):
    """A page names a dozen static files: the hall's storage keeps each hashed address after its first use (the
    manifest does not change while the process runs), and forgets them when STATIC_URL changes (tests)."""
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.management import call_command

    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "config.static_storage.StaticFiles"}}
    call_command("collectstatic", interactive=False, verbosity=0)
    staticfiles_storage.load_manifest()
    first = staticfiles_storage.url("css/app.css")
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", first), first
    staticfiles_storage.hashed_files["css/app.css"] = "css/app.changed.css"  # not read again: kept
    assert staticfiles_storage.url("css/app.css") == first
    settings.STATIC_URL = "/files/"
    assert re.fullmatch(r"/files/css/app\.[0-9a-f]{12}\.css", staticfiles_storage.url("css/app.css"))
