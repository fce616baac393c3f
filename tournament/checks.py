"""System checks of a server's settings (`manage.py check`, `check --deploy`; docs/server.md)."""

from django.conf import settings
from django.core import checks

REDIS_BACKEND = "django.core.cache.backends.redis.RedisCache"


@checks.register(checks.Tags.caches)
def redis_installed(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """REDIS_URL puts the caches in Redis, which needs the `redis` package (the `server` extra): without it every
    page that reads a cache fails."""
    if not any(cache["BACKEND"] == REDIS_BACKEND for cache in settings.CACHES.values()):
        return []
    try:
        import redis  # noqa: F401
    except ImportError:
        return [checks.Error(
            "REDIS_URL is set, but the redis package is not installed: every page that reads the cache fails.",
            hint='Install the server\'s packages: pip install "tournament-manager[server]" (a clone: '
                 "pip install -r requirements.txt), or leave REDIS_URL unset.",
            id="tournament.E001")]
    return []


@checks.register(checks.Tags.security, deploy=True)
def public_base_url_on_a_server(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """The QR codes and printouts name the server by PUBLIC_BASE_URL; a server behind a proxy has no other way to
    know the address the phones use (without it: http://<machine name>:8000 on every printout)."""
    if not settings.SERVER:
        return []
    url = settings.PUBLIC_BASE_URL
    if not url:
        return [checks.Error(
            "PUBLIC_BASE_URL is not set: the QR codes and printouts of a server would name "
            "http://<this machine's name>:8000.",
            hint="Set it to the address players open, e.g. PUBLIC_BASE_URL=https://turnier.example.org "
                 "(docs/server.md).",
            id="tournament.E002")]
    if not url.startswith(("https://", "http://")):
        return [checks.Error(f"PUBLIC_BASE_URL must be an address such as https://turnier.example.org, not {url!r}.",
                             id="tournament.E003")]
    return []
