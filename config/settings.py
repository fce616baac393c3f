"""Settings for the tournament manager: one module, driven by environment variables.

Defaults serve a director's laptop (SQLite in the project folder, DEBUG on,
loopback only). Production sets SECRET_KEY, ALLOWED_HOSTS, DEBUG=0 and
DATABASE_URL (PostgreSQL); see docs/deploy.md.
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_secret = os.environ.get("SECRET_KEY")
if not _secret:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")
    # A laptop install keeps a generated key beside its database, never a fixed one.
    _key_file = BASE_DIR / "data" / "secret_key"
    _key_file.parent.mkdir(exist_ok=True)
    if not _key_file.exists():
        from django.core.management.utils import get_random_secret_key

        _key_file.write_text(get_random_secret_key())
    _secret = _key_file.read_text().strip()
SECRET_KEY = _secret

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "tournament",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------
# SQLite by default, in WAL mode so readers never block the writer, with
# IMMEDIATE transactions and a busy timeout: several laptops at one referee
# table write at once, and a writer should wait its turn instead of failing.
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", BASE_DIR / "data" / "db.sqlite3"))
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
else:
    SQLITE_PATH.parent.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Backups (docs/operations.md) -----------------------------------------
# `manage.py backup` and the automatic backup after each round write here; only the newest
# BACKUP_KEEP automatic backups are kept, manual ones are never deleted.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", BASE_DIR / "backups"))
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "20"))
BACKUP_AFTER_ROUND = env_bool("BACKUP_AFTER_ROUND", True)
#: the largest tournament file (JSON) a director may import
TOURNAMENT_IMPORT_MAX_BYTES = int(os.environ.get("TOURNAMENT_IMPORT_MAX_BYTES", str(50 * 1024 * 1024)))

# The default cache is per process (the login counts live in the database: tournament/services/logins.py);
# REDIS_URL (e.g. redis://127.0.0.1:6379/0, with `pip install redis`) puts both caches there.
# The public pages (tournament/public/) have their own cache.
def _cache(name: str, max_entries: int, folder: str = "") -> dict:
    if os.environ.get("REDIS_URL"):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["REDIS_URL"],
                "KEY_PREFIX": name}
    if folder:
        return {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": folder,
                "OPTIONS": {"MAX_ENTRIES": max_entries}}
    return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": name,
            "OPTIONS": {"MAX_ENTRIES": max_entries}}


#: the public pages' cache is shared by all server processes of this machine (gunicorn's workers render a
#: public page once per change, not once each): files in this folder unless REDIS_URL is set; empty: each
#: process keeps its own in memory (the tests do). docs/deploy.md, "Public pages' cache".
PUBLIC_CACHE_DIR = os.environ.get("PUBLIC_CACHE_DIR", str(BASE_DIR / "data" / "public-cache"))
CACHES = {"default": _cache("tournament-manager", 300),
          "public": _cache("public-pages", 1000 if PUBLIC_CACHE_DIR else 5000, PUBLIC_CACHE_DIR)}
PUBLIC_CACHE_ALIAS = "public"

# --- Public pages (docs/directors-guide.md, "Public pages") ----------------
#: how phones in the hall reach this server, for QR codes and printouts (e.g. http://192.168.1.20:8000);
#: empty: the address the browser used, and on printouts http://<this computer's name>:8000
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "")
#: how often open public pages ask for news
PUBLIC_POLL_SECONDS = int(os.environ.get("PUBLIC_POLL_SECONDS", "15"))
#: the longest a cached public page lives (every change renews it at once; this bounds anything missed)
PUBLIC_CACHE_SECONDS = int(os.environ.get("PUBLIC_CACHE_SECONDS", "60"))
#: a public region not rendered yet for the newest change is answered with the newest one rendered, if that
#: is younger than this: one process renders while the others answer, at most once per this interval (0: always
#: the newest; the tests' default)
PUBLIC_RENDER_SECONDS = float(os.environ.get("PUBLIC_RENDER_SECONDS", "5"))

# Checked wherever a password is set: `manage.py changepassword` / `createsuperuser`, the admin's user and
# password forms. 12 characters for every account: the admin makes an account before it can be made a
# director, so a rule for directors only would never apply (doors, issue 11).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:list"
LOGOUT_REDIRECT_URL = "home"

# --- Languages -----------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German")), ("da", _("Danish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")

# --- Static files: served by whitenoise, nothing from a CDN ---------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
if DEBUG:
    # whitenoise serves from the finders while debugging, but warns when the folder is missing.
    STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/semantic.html"

# --- Security: strict in production, relaxed on a laptop -------------------
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY", False) else None
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
