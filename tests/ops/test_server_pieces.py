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
    response = client.post(reverse("tournament:import_roles"), {})
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
