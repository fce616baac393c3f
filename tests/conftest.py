import copy
import datetime
import os

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.servers.basehttp import WSGIServer
from django.db import connections
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler

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
    # DEBUG is off by default (the laptop runs in production settings), but the tests' pages name the static
    # sources as they are: no collected, hashed copies (tests/ops/test_static_serving.py checks those)
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test (`item.rep_call`), for fixtures that act on a failure only."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


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


def new_director(username="director", password="pw-Director-1"):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from tournament.models import Membership
    from tournament.models.organisation import default_organisation
    from tournament.permissions import DIRECTORS_GROUP

    user = get_user_model().objects.create_user(username=username, password=password, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    # a director of the installation's one club, as the migration made every director of the group
    Membership.objects.create(organisation_id=default_organisation(), user=user)
    user.raw_password = password
    return user


@pytest.fixture
def make_director(db, django_user_model):
    return new_director


# --- data built once per module --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def build_once(django_db_setup, django_db_blocker, tmp_path_factory):
    """Builds data once for every test of a module, like Django's `TestCase.setUpTestData`.

    `build_once(function, *args)` runs `function` inside a transaction that stays open until the module's
    last test and is then rolled back. Each test of the module (`db`, never `transactional_db` or a live
    server: use `shared(request, data)`) runs in a savepoint inside it, so whatever a test writes is undone
    for the next one. Use it for what takes long to build (demo tournaments) and is only read or changed
    per test; the function gets no fixtures (use `new_director()` rather than `make_director`).
    """
    from django.db import transaction
    from django.test import override_settings
    from django.utils import translation

    backups = override_settings(BACKUP_AFTER_ROUND=False, BACKUP_DIR=tmp_path_factory.mktemp("backups"))
    outer = transaction.atomic()
    with django_db_blocker.unblock():
        # set up after a test's own transaction (asked for by `request.getfixturevalue` inside a test), the data
        # would be a savepoint of that test and gone with it: a test must ask for it by name in its arguments
        assert not transaction.get_connection().in_atomic_block, \
            "data built once per module is asked for inside a test's transaction: name it in the test's arguments"
        outer.__enter__()

    def build(function, *args, **kwargs):
        with django_db_blocker.unblock(), backups, translation.override("en"):
            return function(*args, **kwargs)

    try:
        yield build
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def shared(request, data):
    """A test's own copy of data made by `build_once` (model instances changed by one test must not
    show in the next; the rows are restored by the savepoint); refuses a transactional test, whose
    flush would empty the tables under the module's open transaction."""
    marker = request.node.get_closest_marker("django_db")
    transactional = (marker is not None and (marker.kwargs.get("transaction") or (marker.args and marker.args[0]))
                     or {"transactional_db", "live_server"} & set(request.fixturenames))
    assert not transactional, "data built once per module is for tests in a transaction (`db`), not this one"
    request.getfixturevalue("db")
    return copy.deepcopy(data)


def built_once_fixtures(build, *names: str):
    """The fixtures of data built once per module (`build_once`): `built` (the module's), `world` (a test's own
    copy, `shared`) and one fixture per name, for the items of the tuple `build()` returns, in order:

        built, world, director, seated = built_once_fixtures(build_seated_world, "director", "seated")
    """

    @pytest.fixture(scope="module")
    def built(build_once):
        return build_once(build)

    @pytest.fixture
    def world(request, built):
        return shared(request, built)

    def item(index: int, name: str):
        @pytest.fixture(name=name)
        def fixture(world):
            return world[index]

        return fixture

    return (built, world, *(item(index, name) for index, name in enumerate(names)))


def drawn_once_fixtures(build, game: str, fresh):
    """The fixtures `director`, `drawn` and `game` (e.g. "voms") of a directory's conftest.py, built once for a module
    rather than once per test (tests/voms/drawn_once.py and its twins): `build()` returns (director, drawn
    tournament); `fresh(director)` makes the empty tournament that `game` gives a test not taking `drawn`. A module
    takes them by importing the five returned fixtures; each test gets its own copy (`shared`), runs in a
    savepoint, and whatever it writes is rolled back."""

    @pytest.fixture(scope="module")
    def built_drawn(build_once):
        return build_once(build)

    @pytest.fixture
    def drawn_world(request, built_drawn):
        return shared(request, built_drawn)

    @pytest.fixture(name="director")
    def once_director(drawn_world):
        return drawn_world[0]

    @pytest.fixture(name="drawn")
    def once_drawn(drawn_world):
        return drawn_world[1]

    @pytest.fixture(name=game)
    def once_game(request, drawn_world):
        """The built tournament for a test that takes `drawn` (directly or through another fixture), which must
        be the same; a fresh one without players for a test that registers its own."""
        if "drawn" in request.fixturenames:
            return drawn_world[1]
        return fresh(drawn_world[0])

    return built_drawn, drawn_world, once_director, once_drawn, once_game


class SerialServerThread(LiveServerThread):
    """Django's live server answering one request at a time. The threaded one shares the test's in-memory
    SQLite connection between its threads, which breaks when requests overlap ("database table is locked": the
    in-memory database's shared cache answers at once instead of waiting, as the file database of a real
    evening does under its busy timeout); one at a time keeps a test about what the app answers, not about that
    connection."""

    def _create_server(self, connections_override=None):
        return WSGIServer((self.host, self.port), QuietWSGIRequestHandler, allow_reuse_address=False)


@pytest.fixture
def serial_server(transactional_db):
    """The port of a live server of this test's database that answers one request at a time."""
    override = {conn.alias: conn for conn in connections.all()
                if conn.vendor == "sqlite" and conn.is_in_memory_db()}
    for conn in override.values():
        conn.inc_thread_sharing()
    server = SerialServerThread("127.0.0.1", StaticFilesHandler, connections_override=override)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    yield server.port
    server.terminate()
    for conn in override.values():
        conn.dec_thread_sharing()


@pytest.fixture
def overlap_safe_server_url(request, transactional_db):
    """The address of a live server for a test whose requests may overlap (a double click without JavaScript):
    pytest-django's threaded live server, except on the in-memory SQLite test database (see SerialServerThread),
    where the requests are answered one after the other."""
    if any(conn.vendor == "sqlite" and conn.is_in_memory_db() for conn in connections.all()):
        return f"http://127.0.0.1:{request.getfixturevalue('serial_server')}"
    return request.getfixturevalue("live_server").url


@pytest.fixture
def director(make_director):
    return make_director()


def new_tournament(by, name="Club evening", game="voms", **extra):
    """`make_tournament` without the fixture, for build_once."""
    from tournament.services.tournaments import create_tournament

    date = extra.pop("date", datetime.date(2026, 12, 5))
    return create_tournament(by=by, name=name, game=game, date=date, **extra)


@pytest.fixture
def make_tournament(db):
    return new_tournament


@pytest.fixture
def tournament(director, make_tournament):
    return make_tournament(director)


@pytest.fixture
def assistant(db, django_user_model, tournament):
    from tournament.models import Role, TournamentRole

    user = django_user_model.objects.create_user(username="assistant", password="pw-Assistant-1")
    TournamentRole.objects.create(tournament=tournament, user=user, role=Role.ASSISTANT)
    return user


def pytest_collection_modifyitems(items):
    """A real-browser test that times out waiting for the page is run once more, and only then fails; the rerun
    shows in the summary ("1 rerun"). CI's two cores run two browsers and two live servers beside the other
    worker's tests, and a Playwright wait that runs out there under load (seen once in 1,500 tests) would
    otherwise fail the whole submission. Only Playwright's TimeoutError is retried: a failed assertion, or a
    page that never shows what the test waits for, fails twice and stays red. Every test that starts a page (the
    `browser` fixture, directly or through another) counts as a browser test, marked or not (the Voms desk test,
    unmarked, once failed CI on a wait the rerun would have taken)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("browser") and not item.get_closest_marker("flaky"):
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=["TimeoutError"]))
