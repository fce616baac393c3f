"""Static files in production: answered before the rest of the middleware, by their hashed names (kept by a
phone for good: whitenoise answers them `max-age=315360000, public, immutable`) and precompressed at
collectstatic, with brotli as well as gzip. The hall's browser test fetches a hashed style sheet through
gunicorn (tests/browser/test_hall.py); these check the settings that make it so."""

import importlib.util

from django.conf import settings


def test_whitenoise_answers_static_files_before_the_rest_of_the_middleware():
    assert settings.MIDDLEWARE[:2] == ["django.middleware.security.SecurityMiddleware",
                                       "whitenoise.middleware.WhiteNoiseMiddleware"]


def test_collectstatic_compresses_with_brotli_too():
    from whitenoise.compress import Compressor

    assert importlib.util.find_spec("brotli") is not None  # requirements.txt: else only .gz files are made
    assert Compressor(quiet=True).use_brotli and Compressor(quiet=True).use_gzip

