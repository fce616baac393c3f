"""What makes app servers interchangeable, piece by piece in the test database (docs/server.md); the proof with two
real servers on one PostgreSQL is tests/ops/test_two_servers.py."""

import datetime
import tempfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournament.models import ImportUpload, Tournament
from tournament.transfer import export_tournament

pytestmark = pytest.mark.django_db


# --- the import's upload between its two steps ------------------------------------------------------------------


def test_step_two_of_an_import_works_on_another_server(seated, director, client, settings, tmp_path, monkeypatch):
    client.force_login(director)
    data = export_tournament(seated)
    response = client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", data)})
    assert response["Location"] == reverse("tournament:import_roles")
    # the next request is answered by another server: its own temp folder, nothing of the first one's
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "other-server"))
    settings.TOURNAMENT_IMPORT_STASH_DIR = str(tmp_path / "other-server")
    step2 = client.get(reverse("tournament:import_roles"))
    assert step2.status_code == 200 and "Schafkopf night" in step2.content.decode()
    response = client.post(reverse("tournament:import_roles"), {"action": "new"})
    assert Tournament.objects.filter(slug="schafkopf-night-2").exists()
    assert not ImportUpload.objects.exists()  # forgotten once imported


def test_an_upload_belongs_to_its_importer_and_is_forgotten_after_a_day(seated, director, make_director, client):
    client.force_login(director)
    client.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", export_tournament(seated))})
    kept = ImportUpload.objects.get()
    assert kept.user == director and bytes(kept.data) == export_tournament(seated)

    other = Client()
    other.force_login(make_director("other"))
    session = other.session
    session["tournament_import"] = kept.token  # another user's token is nobody's key
    session.save()
    assert other.get(reverse("tournament:import_roles"))["Location"] == reverse("tournament:import")

    ImportUpload.objects.update(uploaded_at=timezone.now() - datetime.timedelta(days=1, seconds=1))
    assert client.get(reverse("tournament:import_roles"))["Location"] == reverse("tournament:import")
    other.post(reverse("tournament:import"), {"file": SimpleUploadedFile("t.json", export_tournament(seated))})
    assert list(ImportUpload.objects.values_list("user__username", flat=True)) == ["other"]  # the old one pruned


# --- a database outage -----------------------------------------------------------------------------------------


def _database_gone(*args, **kwargs):
    raise OperationalError("server closed the connection unexpectedly")


def test_a_database_outage_in_a_view_gets_the_outage_page_not_a_500(director, monkeypatch):
    from tournament.views.setup import HomeView

    monkeypatch.setattr(HomeView, "get", _database_gone)
    monkeypatch.setattr(HomeView, "post", _database_gone, raising=False)
    client = Client(raise_request_exception=False)
    response = client.get("/")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert "Nothing was changed" in response.content.decode()
    sent = client.post("/", {"x": "1"})
    assert sent.status_code == 503
    text = sent.content.decode()
    assert "may already be saved" in text and "Sending it again is safe" in text
    german = client.post("/", {"x": "1"}, headers={"accept-language": "de"})
    assert "Erneut senden ist sicher" in german.content.decode()


def test_a_database_outage_outside_the_view_gets_the_outage_page_too(monkeypatch):
    from tournament.middleware import RenewSessionMiddleware

    monkeypatch.setattr(RenewSessionMiddleware, "__call__", _database_gone)
    response = Client(raise_request_exception=False).post("/", {"x": "1"})
    assert response.status_code == 503 and "Sending it again is safe" in response.content.decode()


def test_other_errors_keep_the_500_page(monkeypatch):
    from tournament.views.setup import HomeView

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(HomeView, "get", broken)
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()


def test_a_server_checks_its_kept_connections_before_use():
    from django.conf import settings

    if not settings.SERVER:
        pytest.skip("a laptop's SQLite has no connection to lose")
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


# --- the backup after a round on a server: a snapshot of the tournament, outside the request --------------------


@pytest.fixture
def snapshots_on(settings):
    settings.BACKUP_AFTER_ROUND = True
    settings.ROUND_SNAPSHOTS = True
    return settings


def test_a_server_owes_a_snapshot_with_the_round_and_makes_it_after_the_request(
        tournament, snapshots_on, monkeypatch, django_capture_on_commit_callbacks):
    from tournament import backup
    from tournament.models import PendingBackup, TournamentSnapshot
    from tournament.snapshots import snapshot_file

    kicked = []
    monkeypatch.setattr(backup, "check_pending_backups", lambda now=False: kicked.append(now))
    monkeypatch.setattr(backup, "create_backup", lambda **kwargs: pytest.fail("no database backup on a server"))
    with django_capture_on_commit_callbacks(execute=True):
        backup.schedule_backup_after_round(tournament, 2)
    # the save made nothing: the snapshot is owed, and a background thread of this process was asked to make it
    assert list(PendingBackup.objects.values_list("round_number", flat=True)) == [2]
    assert not TournamentSnapshot.objects.exists() and kicked == [True]

    (snapshot,) = backup.backup_pending()  # what that thread (or any server's next check) runs
    assert (snapshot.tournament_id, snapshot.tournament_slug, snapshot.round_number) == (tournament.pk,
                                                                                          "club-evening", 2)
    assert snapshot_file(snapshot) == export_tournament(tournament)  # the tournament file, ready to import
    assert not PendingBackup.objects.exists()
    assert not snapshots_on.BACKUP_DIR.exists()  # no file in the answering server's folder


def test_snapshots_are_pruned_per_tournament(director, make_tournament, snapshots_on):
    from tournament.models import TournamentSnapshot
    from tournament.snapshots import take_snapshot

    snapshots_on.BACKUP_KEEP = 2
    busy, quiet = make_tournament(director, name="Busy"), make_tournament(director, name="Quiet")
    take_snapshot(quiet.pk, round_number=1)
    made = [take_snapshot(busy.pk, round_number=n) for n in (1, 2, 3)]
    assert set(TournamentSnapshot.objects.filter(tournament_id=busy.pk)) == set(made[1:])
    assert TournamentSnapshot.objects.filter(tournament_id=quiet.pk).count() == 1  # another's rounds never prune it


def test_a_failing_snapshot_stays_owed_and_the_others_are_made(director, make_tournament, snapshots_on,
                                                                monkeypatch):
    from tournament import backup, snapshots
    from tournament.models import PendingBackup, TournamentSnapshot

    good, bad = make_tournament(director, name="Good"), make_tournament(director, name="Bad")
    for t in (good, bad):
        PendingBackup.objects.create(tournament_id=t.pk, tournament_slug=t.slug, round_number=1)
    working = snapshots.export_tournament

    def export(tournament):
        if tournament.pk == bad.pk:
            raise OSError("no memory")
        return working(tournament)

    monkeypatch.setattr(snapshots, "export_tournament", export)
    assert [s.tournament_id for s in backup.backup_pending()] == [good.pk]
    owed = PendingBackup.objects.get()
    assert owed.tournament_id == bad.pk and owed.claimed_at is None  # tried again at the next check
    monkeypatch.setattr(snapshots, "export_tournament", working)
    assert [s.tournament_id for s in backup.backup_pending()] == [bad.pk]
    assert TournamentSnapshot.objects.count() == 2 and not PendingBackup.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_last_lists_saved_at_the_same_moment_leave_the_round_owed(director, make_tournament, snapshots_on,
                                                                       monkeypatch):
    """PostgreSQL: the round's last two lists (the round started: its first list is in), saved by two requests at
    once, each saved before either looks whether the round is complete (forced here: each waits for the other after
    inserting its sheet). Each used to miss the other's uncommitted list, so neither saw the round complete and no
    backup was owed."""
    import random
    import threading

    from django.db import connection, connections
    from django.db.models.signals import post_save

    from scoring.games.schafkopf import services as sk
    from scoring.games.schafkopf.demo import random_list
    from scoring.models import ScoreSheet
    from scoring.seated import services as seated_services
    from scoring.seated.queries import seated_tables
    from tournament import backup
    from tournament.models import PendingBackup
    from tournament.services import participants as desk

    if connection.vendor != "postgresql":
        pytest.skip("SQLite's writers take turns (IMMEDIATE transactions): there is no such moment")
    monkeypatch.setattr(backup, "check_pending_backups", lambda now=False: None)  # the owed row is what counts
    tournament = make_tournament(director, name="Race cup", game="schafkopf")
    for n in range(12):
        desk.add_participant(tournament, by=director, first_name=f"Anna{n}", last_name=f"Huber{n}")
    seated_services.draw_seating(tournament, by=director, seed=7)
    first, *tables = [t.seats[0].table for t in seated_tables(tournament)[1]]
    assert len(tables) == 2
    rng = random.Random(3)
    sk.enter_sheet(first, by=director, mode="games", entries=random_list(rng, 30, 4))
    lists = [random_list(rng, 30, 4) for _ in tables]

    both_saved = threading.Barrier(2, timeout=30)

    def wait_for_the_other(sender, instance, created, **kwargs):
        if created:
            both_saved.wait()

    post_save.connect(wait_for_the_other, sender=ScoreSheet, dispatch_uid="race")
    errors = []

    def enter(table, entries):
        try:
            sk.enter_sheet(table, by=director, mode="games", entries=entries)
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)
        finally:
            connections.close_all()

    try:
        threads = [threading.Thread(target=enter, args=pair) for pair in zip(tables, lists, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        post_save.disconnect(dispatch_uid="race", sender=ScoreSheet)
    assert errors == []
    assert ScoreSheet.objects.filter(table__in=tables).count() == 2
    assert list(PendingBackup.objects.values_list("round_number", flat=True)) == [1]


def test_a_snapshot_is_listed_and_saved_as_a_tournament_file_to_import(tournament, director, snapshots_on, tmp_path):
    import io

    from django.core.management import call_command

    from tournament.snapshots import take_snapshot
    from tournament.transfer import import_tournament

    snapshot = take_snapshot(tournament.pk, round_number=3)
    out = io.StringIO()
    call_command("snapshots", stdout=out)
    assert f"{snapshot.pk:>6}" in out.getvalue() and "club-evening  after round 3" in out.getvalue()
    call_command("snapshots", "--save", str(snapshot.pk), str(tmp_path / "t.json"), stdout=io.StringIO())
    copy = import_tournament((tmp_path / "t.json").read_bytes(), by=director, as_new=True)
    assert copy.name == tournament.name and copy.pk != tournament.pk


# --- settings a server must have, and its health ---------------------------------------------------------------


def _check_ids(deploy: bool = False) -> set[str]:
    from django.core.checks import run_checks

    return {message.id for message in run_checks(include_deployment_checks=deploy)}


def test_redis_url_without_the_redis_package_is_a_system_check_error(settings, monkeypatch):
    import sys

    assert "tournament.E001" not in _check_ids()
    settings.CACHES = {**settings.CACHES, "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                                      "LOCATION": "redis://127.0.0.1:6379/0"}}
    assert "tournament.E001" not in _check_ids()  # installed here
    monkeypatch.setitem(sys.modules, "redis", None)  # as without the package: import redis raises ImportError
    assert "tournament.E001" in _check_ids()


def test_the_server_extra_holds_redis():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    extras = project["tool"]["hatch"]["metadata"]["hooks"]["custom"]["extras"]
    assert {"gunicorn", "psycopg", "redis"} <= set(extras["server"])


def test_a_server_without_public_base_url_fails_check_deploy(settings):
    settings.SERVER, settings.PUBLIC_BASE_URL = True, ""
    assert "tournament.E002" in _check_ids(deploy=True)
    assert "tournament.E002" not in _check_ids()  # `check --deploy` only
    settings.PUBLIC_BASE_URL = "turnier.example.org"
    assert "tournament.E003" in _check_ids(deploy=True)
    settings.PUBLIC_BASE_URL = "https://turnier.example.org"
    assert not {"tournament.E002", "tournament.E003"} & _check_ids(deploy=True)
    settings.SERVER, settings.PUBLIC_BASE_URL = False, ""  # a laptop: the address the browser used
    assert "tournament.E002" not in _check_ids(deploy=True)


def test_healthz_answers_without_login_and_names_what_failed(client, monkeypatch):
    from django.core.cache import caches
    from django.db import OperationalError

    response = client.get("/healthz")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "ok" and body["checks"]["database"] == "ok" and body["checks"]["cache:default"] == "ok"
    assert "sessionid" not in response.cookies

    def cache_down(*args, **kwargs):
        raise ConnectionError("redis at 10.0.0.5:6379 refused")

    monkeypatch.setattr(caches["public"], "set", cache_down)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["cache:public"] == "error: ConnectionError"
    assert "10.0.0.5" not in response.content.decode()
    monkeypatch.undo()

    from tournament.views import health

    def database_down(alias="default"):
        raise OperationalError("gone")

    monkeypatch.setattr(health, "connections", {"default": type("Gone", (), {"cursor": database_down})()})
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["checks"]["database"] == "error: OperationalError"


# --- behind the reverse proxy ------------------------------------------------------------------------------------


def test_the_app_reads_the_proxys_headers_as_its_settings_say(settings, client):
    """docs/server.md's nginx passes Host, X-Forwarded-Proto and X-Forwarded-For; BEHIND_PROXY=1 trusts them."""
    from django.test import RequestFactory

    from tournament.views.auth import client_address

    settings.ALLOWED_HOSTS = ["turnier.example.org"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # BEHIND_PROXY=1
    settings.SECURE_SSL_REDIRECT = True
    site = {"host": "turnier.example.org"}
    assert client.get("/", headers={**site, "x-forwarded-proto": "https"}).status_code == 200
    plain = client.get("/", headers=site)  # what nginx without X-Forwarded-Proto would send: for ever redirected
    assert plain.status_code == 301 and plain["Location"] == "https://turnier.example.org/"
    assert client.get("/", headers={"host": "tournament", "x-forwarded-proto": "https"}).status_code == 400
    assert client.get("/healthz", headers=site).status_code == 200  # the load balancer asks over HTTP
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    assert client_address(request) == "203.0.113.7"  # the address nginx appended, not the client's word
    settings.SECURE_PROXY_SSL_HEADER = None  # not behind a proxy: the header is anyone's
    assert client_address(request) == "10.0.0.2"


def test_table_link_tokens_stay_out_of_the_log(settings):
    import logging

    from tournament.logs import HideTableLinkTokens, hide_table_link_tokens

    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "Not Found: %s", ("/t/AbC-12_xYz9/",),
                               None)
    assert HideTableLinkTokens().filter(record) and record.getMessage() == "Not Found: /t/AbC-12…/"
    assert (hide_table_link_tokens("GET /t/s3cretRest?x=1 and /p/cup/t/keep/")
            == "GET /t/s3cret…?x=1 and /p/cup/t/keep/")
    assert settings.LOGGING["handlers"]["console"]["filters"] == ["table_link_tokens"]


def test_backup_pending_by_hand_makes_the_snapshots_still_owed(tournament, snapshots_on):
    import io

    from django.core.management import call_command

    from tournament.models import PendingBackup, TournamentSnapshot

    PendingBackup.objects.create(tournament_id=tournament.pk, tournament_slug=tournament.slug, round_number=4)
    out = io.StringIO()
    call_command("backup", "--pending", stdout=out)
    snapshot = TournamentSnapshot.objects.get()
    assert f"Snapshot {snapshot.pk} of club-evening made" in out.getvalue() and snapshot.round_number == 4
    assert not PendingBackup.objects.exists()
