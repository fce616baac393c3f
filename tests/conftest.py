import datetime
import os

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM calls made by
# fixtures alongside it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_configure(config):
    from tests import probes

    probes.register(config)  # counts the hostile tests' requests (docs/operations.md)
    """Tests keep the public pages' cache in memory (cleared per test) and render it at every change, and
    hash passwords with a fast hasher: the default one takes a third of a second per user or login, and no
    test is about the hash's strength (the live server of the browser tests runs in this process too)."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    settings.CACHES = {**settings.CACHES, "public": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                                     "LOCATION": "public-pages"}}
    settings.PUBLIC_RENDER_SECONDS = 0


@pytest.fixture(autouse=True)
def _fresh_state_per_test():
    """Each test starts in English with empty caches: a language left active by one test, or a
    login lock-out counted by the rate-limit tests (the cache lives in-process), must not leak."""
    from django.core.cache import caches
    from django.utils import translation

    translation.activate("en")
    for cache in caches.all():
        cache.clear()
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def _no_automatic_backups(settings, tmp_path):
    # Tests on PostgreSQL commit for real: keep any automatic backup out of the project folder.
    settings.BACKUP_AFTER_ROUND = False
    settings.BACKUP_DIR = tmp_path / "backups"


@pytest.fixture
def make_director(db, django_user_model):
    from django.contrib.auth.models import Group

    from tournament.permissions import DIRECTORS_GROUP

    def make(username="director", password="pw-Director-1"):
        user = django_user_model.objects.create_user(username=username, password=password, is_staff=True)
        user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
        user.raw_password = password
        return user

    return make


@pytest.fixture
def director(make_director):
    return make_director()


@pytest.fixture
def make_tournament(db):
    from tournament.services.tournaments import create_tournament

    def make(by, name="Club evening", game="voms", **extra):
        date = extra.pop("date", datetime.date(2026, 12, 5))
        return create_tournament(by=by, name=name, game=game, date=date, **extra)

    return make


@pytest.fixture
def tournament(director, make_tournament):
    return make_tournament(director)


@pytest.fixture
def assistant(db, django_user_model, tournament):
    from tournament.models import Role, TournamentRole

    user = django_user_model.objects.create_user(username="assistant", password="pw-Assistant-1")
    TournamentRole.objects.create(tournament=tournament, user=user, role=Role.ASSISTANT)
    return user
