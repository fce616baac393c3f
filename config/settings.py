"""Settings for the tournament manager: one module, driven by environment variables.

Three ways it runs (docs/deploy.md):
- a director's laptop (the default: SQLite, loopback only) in production settings: DEBUG off, plain HTTP, a secret
  key generated once in the data folder. DEBUG only when a developer asks for it: `DEBUG=1`;
- the hall (HALL=1, set by `serve --hall` or the app's hall switch): the same, serving the hall's other laptops and
  phones (this computer's addresses allowed), never DEBUG;
- a server (DATABASE_URL set: PostgreSQL): SECRET_KEY and ALLOWED_HOSTS set, HTTPS behind a proxy.

The code runs from a clone (manage.py beside config/: templates, static files and translations at its root, data
in data/) or installed from the wheel (`tournament-manager`: those as package data in tournament_manager/, data in
the user's data folder).
"""

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

from config.network import hall_allowed_hosts

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def installed_layout(base: Path) -> bool:
    """True when the code runs installed (from the wheel): a clone has manage.py beside config/, the wheel has not."""
    return not (base / "manage.py").exists()


def resource_dir(base: Path, installed: bool) -> Path:
    """Where templates/, static/ and locale/ are: the clone's root, or the package data of tournament_manager/."""
    return base / "tournament_manager" if installed else base


def default_data_dir(base: Path, installed: bool) -> Path:
    """The clone's data/, or the user's data folder when installed (%LOCALAPPDATA%\\tournament-manager,
    ~/Library/Application Support/tournament-manager, ~/.local/share/tournament-manager)."""
    if not installed:
        return base / "data"
    import platformdirs

    return Path(platformdirs.user_data_dir("tournament-manager", appauthor=False))


#: running from the wheel rather than a clone
INSTALLED = installed_layout(BASE_DIR)
#: every run-time path to templates, static files (the printouts' fonts among them) and translations starts here
RESOURCE_DIR = resource_dir(BASE_DIR, INSTALLED)

#: the laptop's own files: the SQLite database, the secret key, the public pages' cache, the hall choice (and,
#: installed, the backups and the collected static files); DATA_DIR (or `tournament-manager --data-dir`) wins
DATA_DIR = Path(os.environ.get("DATA_DIR") or default_data_dir(BASE_DIR, INSTALLED))

#: a server: PostgreSQL (or another database) named by DATABASE_URL, with the strict settings below
SERVER = bool(os.environ.get("DATABASE_URL"))
#: serving the hall's other laptops and phones (docs/deploy.md, "In the hall"): never DEBUG beyond loopback,
#: as its error pages show settings, paths and the environment to whoever asks.
HALL = env_bool("HALL", False)
#: only when a developer asks (DEBUG=1): a director's laptop runs in production settings, with friendly error pages
DEBUG = False if HALL else env_bool("DEBUG", False)
#: no account made in the terminal: the one-time set-up page (/setup/) makes the first one (set by
#: `tournament-manager`, i.e. `serve --setup-in-browser`, for its serving process)
SETUP_IN_BROWSER = env_bool("SETUP_IN_BROWSER", False)


def generated_secret_key(path: Path) -> str:
    """The key kept in `path`: made once (readable by its owner only, 0600) and reused, so that logins
    survive a restart. Written beside and linked into place, so no process ever reads half a key."""
    if not path.exists():
        from django.core.management.utils import get_random_secret_key

        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(get_random_secret_key())
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
        except OSError:
            # a file system without hard links (FAT or exFAT: a data folder on a USB stick under Windows or macOS)
            if not path.exists():
                os.replace(draft, path)
        finally:
            draft.unlink(missing_ok=True)
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)  # a key written by an older version with the default umask
    return path.read_text().strip()


_secret = os.environ.get("SECRET_KEY")
if not _secret:
    if SERVER and not DEBUG:
        raise RuntimeError("SECRET_KEY must be set on a server (DATABASE_URL is set).")
    # A laptop (and the hall) keeps a generated key beside its database, never a fixed one.
    _secret = generated_secret_key(DATA_DIR / "secret_key")
SECRET_KEY = _secret

if HALL:
    # this computer's names and addresses (config/network.py), and any the environment adds
    ALLOWED_HOSTS = list(dict.fromkeys([*hall_allowed_hosts(), *env_list("ALLOWED_HOSTS", "")]))
else:
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
    "csp",
    "django_tables2",
    # the read-only API's reference page (Swagger UI) from its own static files: tournament/public/api.py
    "ninja",
    # the tasks framework of Django 6 (backport) with its database backend: long printouts as jobs
    # (tournament/printjobs.py); with Django 6 `django_tasks` goes and `django.tasks` takes its place
    "django_tasks",
    "django_tasks_db",
    "tournament",
    "scoring",
]

MIDDLEWARE = [
    # /c/<club>/… on a server of several clubs: the club taken off the address first, so every other middleware
    # and the URLs see the address a one-club installation has (tournament/clubaddress.py)
    "tournament.clubaddress.ClubAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # static files never touch the database: the outage page guards everything after them
    "tournament.middleware.DatabaseOutageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "tournament.middleware.VenueTimeZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournament.middleware.ContentSecurityPolicyMiddleware",
    "tournament.middleware.RenewSessionMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [RESOURCE_DIR / "templates"],
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
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", DATA_DIR / "db.sqlite3"))
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
}
if os.environ.get("DATABASE_URL"):
    # health checks: a kept connection that the database closed (a restart) is replaced at a request's start,
    # not met by the request as an error (docs/server.md)
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60,
                                                  conn_health_checks=True)}
else:
    SQLITE_PATH.parent.mkdir(parents=True, exist_ok=True)
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": SQLITE_PATH}}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # every SQLite database, also one named by a sqlite: DATABASE_URL (options given there win)
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Backups (docs/operations.md) -----------------------------------------
# `manage.py backup` and the automatic backup after each round write here; only the newest
# BACKUP_KEEP automatic backups are kept, manual ones are never deleted.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or (DATA_DIR / "backups" if INSTALLED else BASE_DIR / "backups"))
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "20"))
BACKUP_AFTER_ROUND = env_bool("BACKUP_AFTER_ROUND", True)
#: on a server the backup after a round is a snapshot of that tournament (its tournament file) in the database,
#: made outside the request, the newest BACKUP_KEEP of each tournament kept (tournament/snapshots.py); a laptop
#: writes a backup file of its database into BACKUP_DIR. Whole-database backups of a server: docs/server.md.
ROUND_SNAPSHOTS = env_bool("ROUND_SNAPSHOTS", SERVER)
#: the largest tournament file (JSON) a director may import
TOURNAMENT_IMPORT_MAX_BYTES = int(os.environ.get("TOURNAMENT_IMPORT_MAX_BYTES", str(50 * 1024 * 1024)))
#: the largest photo of a paper sheet a table's phone may send (scoring/results/photos.py); the phone makes it
#: smaller first where it can, the server stores it made anew at most 1600 px wide
SHEET_PHOTO_MAX_BYTES = int(os.environ.get("SHEET_PHOTO_MAX_BYTES", str(8 * 1024 * 1024)))
#: how large printouts start their worker processes: "" = the system's best (documents.pdf.start_method)
PDF_START_METHOD = os.environ.get("PDF_START_METHOD", "")

# --- Print jobs (tournament/printjobs.py, docs/server.md) ------------------
# Long printouts are tasks in the database (django-tasks' database backend): the laptop's server runs their
# worker in a thread of its own, a server `manage.py print_worker` beside gunicorn.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "printouts"]}}
#: a running job whose worker has not reported for this long is of a worker that died: the next one takes it over
PRINT_JOB_DEAD_SECONDS = int(os.environ.get("PRINT_JOB_DEAD_SECONDS", "120"))
#: a job nobody took up for this long: the page says that no printer worker runs, and offers the file at once
PRINT_JOB_WAIT_SECONDS = int(os.environ.get("PRINT_JOB_WAIT_SECONDS", "15"))
#: the laptop's server (`manage.py serve`) runs the print worker in a thread of its serving process
PRINT_WORKER_THREAD = env_bool("PRINT_WORKER_THREAD", not SERVER)

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
PUBLIC_CACHE_DIR = os.environ.get("PUBLIC_CACHE_DIR", str(DATA_DIR / "public-cache"))
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
#: the newest; the tests' default). By default the poll interval: a phone polling every 15 s cannot see more than
#: one rendering per 15 s anyway, and 500 tables sending in five minutes no longer cost a rendering every 5 s
PUBLIC_RENDER_SECONDS = float(os.environ.get("PUBLIC_RENDER_SECONDS", str(PUBLIC_POLL_SECONDS)))
#: a public page answered with the previous state while the newest is rendered (in the background) asks again
#: after this many seconds instead of PUBLIC_POLL_SECONDS
PUBLIC_RETRY_SECONDS = int(os.environ.get("PUBLIC_RETRY_SECONDS", "2"))

# Checked wherever a password is set: `manage.py changepassword` / `createsuperuser`, the admin's user and
# password forms. 12 characters for every account: the admin makes an account before it can be made a
# director, so a rule for directors only would never apply (doors, issue 11).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# --- Sessions (docs/deploy.md, "Sessions") ---------------------------------
# A director's login ends when the browser is closed, and after SESSION_IDLE_HOURS without a request (not
# Django's 14 days): a laptop left open at the referee table is not a director's key for weeks. Every request
# renews it (at most every SESSION_RENEW_SECONDS, tournament/middleware.py), so it never ends while in use.
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_AGE = int(float(os.environ.get("SESSION_IDLE_HOURS", "8")) * 3600)
SESSION_RENEW_SECONDS = 300
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:list"
LOGOUT_REDIRECT_URL = "home"

# --- Languages -----------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German")), ("da", _("Danish"))]
LOCALE_PATHS = [RESOURCE_DIR / "locale"]
#: English short dates as "8 Jan 2027", not the US "01/08/2027" (config/formats/en/formats.py)
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")

# --- Static files: served by whitenoise, nothing from a CDN ---------------
STATIC_URL = "static/"
#: the sources; the printouts read their fonts and images from the first (documents/pdf.py)
STATICFILES_DIRS = [RESOURCE_DIR / "static"]
#: what `serve` collects (and compresses) for whitenoise: the clone's staticfiles/, or DATA_DIR/static installed
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or (DATA_DIR / "static" if INSTALLED else BASE_DIR / "staticfiles"))
if not SERVER:
    # whitenoise warns when the folder is missing (`serve` fills it; a server's is made by its deployment)
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
#: the hashed, compressed files `serve` collects; the sources as they are while debugging
PRODUCTION_STATICFILES_STORAGE = "config.static_storage.StaticFiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": PRODUCTION_STATICFILES_STORAGE if not DEBUG
                     else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# templates name every static file through {% static %}, i.e. by its hashed name: only those are kept and
# compressed (half the work for collectstatic); printouts read the sources in static/ (documents/pdf.py)
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
# The printouts' TrueType fonts (static/fonts/) are read by the PDF renderer from static/ and never loaded by a
# page: compressing them with brotli took 9 of the 10 CPU seconds of the hall's first collectstatic.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "ttf")
# /favicon.ico for what browsers ask without reading a page's icon link (the admin, a PDF): whitenoise serves it
WHITENOISE_ROOT = RESOURCE_DIR / "static" / "root"

DJANGO_TABLES2_TEMPLATE = "django_tables2/semantic.html"

# --- Security: strict on a server, plain HTTP on a laptop and in the hall -----
#: reached over HTTPS (a server behind its TLS proxy): secure cookies, redirect to HTTPS, HSTS. Not on the
#: laptop, not in the hall (plain HTTP on the local network: docs/deploy.md, "In the hall"); HTTPS=1 asks for it
#: without DATABASE_URL, HTTPS=0 leaves it off on a server (e.g. a throw-away one on loopback for the tests).
HTTPS = not HALL and env_bool("HTTPS", SERVER and not DEBUG)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
#: the load balancer asks /healthz over plain HTTP from inside (docs/server.md)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY", False) else None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# browsers ignore it over plain HTTP to a network address (and say so in the console of every page)
SECURE_CROSS_ORIGIN_OPENER_POLICY = None if HALL else "same-origin"
X_FRAME_OPTIONS = "DENY"
#: a refused form (its page was open too long, its cookie is gone) gets our translated page, not Django's
CSRF_FAILURE_VIEW = "tournament.views.errors.csrf_failure"

# Content-Security-Policy (django-csp; Django 5.2 has none of its own, 6.0 will), on every answer but PDFs
# (tournament/middleware.py: Chrome's PDF viewer would be blocked): scripts only from our own
# static files — no inline script, no event-handler attribute, no eval (htmx's eval is off: templates/base.html)
# — and everything else from this server only. Style sheets likewise; only style="" attributes are allowed
# (a few computed widths and the outline of a differing entry), which cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # a table link's token never reaches the log (tournament/logs.py)
    "filters": {"table_link_tokens": {"()": "tournament.logs.HideTableLinkTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["table_link_tokens"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
