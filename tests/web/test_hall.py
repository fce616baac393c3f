"""The settings that keep the laptop and the hall safe: the hall's production settings, the secret key kept in
data/, SQLite's settings for every SQLite database, directors' sessions, the Content-Security-Policy header.

The hall in a real browser over a network address: tests/browser/test_hall.py.
"""

import datetime
import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from config.settings import generated_secret_key
from tournament.management.commands.serve import Command as Serve

ROOT = Path(__file__).resolve().parents[2]


def settings_of(tmp_path, code: str, **environment: str) -> list[str]:
    """Lines printed by `code` in a fresh process whose settings come from `environment`."""
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "STATIC_ROOT": str(tmp_path / "static"), **environment}
    for name in ("DATABASE_URL", "SQLITE_PATH", "SECRET_KEY", "DEBUG", "HALL", "ALLOWED_HOSTS", "HTTPS"):
        if name not in environment:
            env.pop(name, None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run([sys.executable, "-c", "import django; django.setup()\n" + code], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.split("\n")


# --- SQLite ----------------------------------------------------------------------------------------------


def test_a_sqlite_database_url_gets_wal_normal_sync_immediate_transactions_and_a_busy_timeout(tmp_path):
    database = tmp_path / "named-by-url.sqlite3"
    code = (
        "from django.db import connection\n"
        "c = connection.cursor()\n"
        "for pragma in ('journal_mode', 'synchronous', 'busy_timeout', 'foreign_keys'):\n"
        "    c.execute('PRAGMA ' + pragma); print(c.fetchone()[0])\n"
        "print(connection.settings_dict['OPTIONS'].get('transaction_mode'))\n"
    )
    lines = settings_of(tmp_path, code, DATABASE_URL=f"sqlite:///{database}", SECRET_KEY="k" * 50)
    journal, synchronous, busy, foreign_keys, transactions = lines[:5]
    assert journal == "wal"
    assert synchronous == "1"  # NORMAL
    assert int(busy) >= 5000
    assert foreign_keys == "1"
    assert transactions == "IMMEDIATE"
    assert database.exists()


# --- the secret key ----------------------------------------------------------------------------------------


def test_the_generated_secret_key_is_made_once_readable_by_its_owner_only_and_reused(tmp_path):
    path = tmp_path / "data" / "secret_key"
    key = generated_secret_key(path)
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert generated_secret_key(path) == key
    assert list(path.parent.iterdir()) == [path]  # no draft left beside it


def test_the_secret_key_is_made_on_a_file_system_without_hard_links(tmp_path, monkeypatch):
    """A data folder on a USB stick (FAT, exFAT) under Windows or macOS: os.link fails there."""

    def no_links(source, target):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "stick" / "secret_key"
    key = generated_secret_key(path)
    assert len(key) >= 50 and generated_secret_key(path) == key
    assert list(path.parent.iterdir()) == [path]


def test_a_secret_key_readable_by_others_is_made_private(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("an-older-key-written-with-the-default-umask-0644-xxxxxxxx")
    path.chmod(0o644)
    assert generated_secret_key(path) == "an-older-key-written-with-the-default-umask-0644-xxxxxxxx"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# --- the hall ----------------------------------------------------------------------------------------------


def test_the_hall_runs_with_debug_off_its_own_secret_key_and_this_computers_addresses(tmp_path):
    code = (
        "from django.conf import settings\n"
        "from config.network import local_addresses, url_host\n"
        "print(settings.DEBUG, settings.SESSION_COOKIE_SECURE, settings.SECURE_SSL_REDIRECT,"
        " settings.SECURE_HSTS_SECONDS)\n"
        "print(' '.join(settings.ALLOWED_HOSTS))\n"
        "print(' '.join(url_host(a) for a in local_addresses()))\n"
        "print(settings.STORAGES['staticfiles']['BACKEND'])\n"
    )
    # DEBUG=1 in the environment does not switch the debug pages on in the hall
    lines = settings_of(tmp_path, code, HALL="1", DEBUG="1", ALLOWED_HOSTS="turnier.lan")
    flags, allowed, addresses, storage = lines[:4]
    assert flags == "False False False 0"  # plain HTTP on the hall's network: no HTTPS redirect, no secure cookie
    allowed = allowed.split()
    assert {"127.0.0.1", "localhost", "turnier.lan", *addresses.split()} <= set(allowed)
    assert "*" not in allowed
    assert storage == "config.static_storage.StaticFiles"  # whitenoise's, each address kept
    key = tmp_path / "data" / "secret_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_a_server_without_the_hall_still_refuses_to_start_without_a_secret_key(tmp_path):
    env = {**os.environ, "DEBUG": "0", "DATA_DIR": str(tmp_path),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'server.sqlite3'}"}
    for name in ("SECRET_KEY", "HALL"):
        env.pop(name, None)
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
    assert not (tmp_path / "secret_key").exists()


def test_a_laptop_runs_in_production_settings_with_its_own_key_over_plain_http(tmp_path):
    """The one-laptop default (no DATABASE_URL, no DEBUG in the environment): no debug pages, the hashed static
    files, a key generated in the data folder, no HTTPS redirect or secure-only cookies (there is no certificate)."""
    code = (
        "from django.conf import settings\n"
        "print(settings.DEBUG, settings.SESSION_COOKIE_SECURE, settings.SECURE_SSL_REDIRECT,"
        " settings.SECURE_HSTS_SECONDS)\n"
        "print(settings.STORAGES['staticfiles']['BACKEND'])\n"
        "print(' '.join(settings.ALLOWED_HOSTS))\n"
    )
    flags, storage, allowed = settings_of(tmp_path, code)[:3]
    assert flags == "False False False 0"
    assert storage == "config.static_storage.StaticFiles"  # whitenoise's, each address kept
    assert allowed.split() == ["127.0.0.1", "localhost", "[::1]"]
    assert stat.S_IMODE((tmp_path / "data" / "secret_key").stat().st_mode) == 0o600
    # a developer asks for DEBUG explicitly
    flags = settings_of(tmp_path, code, DEBUG="1")[0]
    assert flags.startswith("True ")


def test_a_server_keeps_https_and_secure_cookies(tmp_path):
    code = ("from django.conf import settings\n"
            "print(settings.DEBUG, settings.SESSION_COOKIE_SECURE, settings.SECURE_SSL_REDIRECT,"
            " settings.SECURE_HSTS_SECONDS > 0)\n")
    server = {"DATABASE_URL": f"sqlite:///{tmp_path / 'server.sqlite3'}", "SECRET_KEY": "k" * 50}
    assert settings_of(tmp_path, code, **server)[0] == "False True True True"
    assert settings_of(tmp_path, code, HTTPS="1")[0] == "False True True True"  # a laptop behind a TLS proxy
    assert settings_of(tmp_path, code, HTTPS="0", **server)[0] == "False False False False"


def test_serve_prints_the_address_for_the_other_laptops_and_phones(monkeypatch):
    monkeypatch.setattr("tournament.management.commands.serve.local_addresses",
                        lambda: ["192.168.1.20", "fd00::20"])
    out = io.StringIO()
    url = Serve(stdout=out).announce("0.0.0.0", 8000)
    assert url == "http://192.168.1.20:8000"
    text = out.getvalue()
    assert "Open http://192.168.1.20:8000 on the other laptops and phones" in text
    assert "http://[fd00::20]:8000" in text
    assert "firewall" in text


def test_serve_says_so_when_this_computer_has_no_network_address(monkeypatch):
    monkeypatch.setattr("tournament.management.commands.serve.local_addresses", lambda: [])
    out = io.StringIO()
    assert Serve(stdout=out).announce("0.0.0.0", 8000) == ""
    assert "No network address found" in out.getvalue()


def test_serve_on_an_address_given_prints_that_one():
    out = io.StringIO()
    assert Serve(stdout=out).announce("10.1.2.3", 8080) == "http://10.1.2.3:8080"


# --- directors' sessions ------------------------------------------------------------------------------------


def log_in(client, director):
    response = client.post(reverse("login"), {"username": director.username, "password": director.raw_password})
    assert response.status_code == 302, response.content[:500]
    return response


def test_a_directors_session_ends_with_the_browser_and_lasts_far_less_than_14_days(client, director, settings):
    response = log_in(client, director)
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie.value
    assert not cookie["expires"] and not cookie["max-age"]  # a browser-session cookie
    assert cookie["httponly"]
    session = Session.objects.get(session_key=cookie.value)
    assert session.expire_date - timezone.now() <= datetime.timedelta(hours=12)
    assert settings.SESSION_COOKIE_AGE < 14 * 24 * 3600


@pytest.fixture
def clock(monkeypatch):
    """A fake clock for the sessions (Django's session store and the renewal read timezone.now)."""
    now = [timezone.now()]
    monkeypatch.setattr("django.utils.timezone.now", lambda: now[0])

    def advance(**delta):
        now[0] += datetime.timedelta(**delta)

    return advance


def test_an_idle_session_ends_after_the_idle_time(client, director, settings, clock):
    log_in(client, director)
    home = reverse("tournament:list")
    assert client.get(home).status_code == 200
    clock(seconds=settings.SESSION_COOKIE_AGE + 60)
    response = client.get(home)
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_session_in_use_is_renewed_and_never_ends_mid_tournament(client, director, settings, clock):
    log_in(client, director)
    home = reverse("tournament:list")
    # a request every two hours for 16 hours: twice the idle time, still signed in
    for _ in range(8):
        clock(hours=2)
        assert client.get(home).status_code == 200
    session = Session.objects.get(session_key=client.cookies[settings.SESSION_COOKIE_NAME].value)
    assert session.expire_date > timezone.now() + datetime.timedelta(seconds=settings.SESSION_COOKIE_AGE - 3600)


def test_renewal_writes_the_session_at_most_every_few_minutes(client, director, settings, clock):
    log_in(client, director)
    home = reverse("tournament:list")
    client.get(home)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    before = Session.objects.get(session_key=key).expire_date
    clock(seconds=10)
    client.get(home)
    assert Session.objects.get(session_key=key).expire_date == before  # not saved again within minutes
    clock(seconds=settings.SESSION_RENEW_SECONDS)
    client.get(home)
    assert Session.objects.get(session_key=key).expire_date > before


# --- Content-Security-Policy ----------------------------------------------------------------------------------


def test_director_pages_send_a_content_security_policy_without_inline_scripts(client, director):
    log_in(client, director)
    response = client.get(reverse("tournament:list"))
    assert response.status_code == 200
    policy = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'"
    assert policy["default-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy["style-src"] and "unsafe-eval" not in response["Content-Security-Policy"]


def test_no_template_has_an_inline_script_or_event_handler_attribute():
    import re

    script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
    handler = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)
    style_element = re.compile(r"<style\b", re.I)
    found = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text()
        name = template.relative_to(ROOT)
        found += [f"{name}: inline script" for _ in script.finditer(text)]
        found += [f"{name}: event handler attribute" for _ in handler.finditer(text)]
        # <style> elements only in what WeasyPrint lays out (print/, the PDF frame), never in a page a browser shows
        if "/print/" not in str(name) and str(name) != "templates/documents/print.html":
            found += [f"{name}: <style> element" for _ in style_element.finditer(text)]
    assert not found, found


@pytest.mark.parametrize("content_type, policy", [("text/html; charset=utf-8", True), ("application/json", True),
                                                  ("image/svg+xml", True), ("application/pdf", False)])
def test_every_answer_but_a_pdf_carries_the_policy(rf, content_type, policy):
    """Chrome's PDF viewer is an <embed> with inline styles: the pages' policy would leave a PDF blank."""
    from django.http import HttpResponse

    from tournament.middleware import ContentSecurityPolicyMiddleware

    middleware = ContentSecurityPolicyMiddleware(lambda request: HttpResponse(b"x", content_type=content_type))
    response = middleware(rf.get("/manage/cup/voms/print/standings.pdf"))
    assert ("Content-Security-Policy" in response) is policy


def test_serve_on_loopback_gives_the_printouts_the_address_it_serves(monkeypatch, settings, tmp_path):
    """The printed QR codes said http://<hostname>:8000 while `make run PORT=8103` served 127.0.0.1:8103 (and a
    loopback server answers no other address): the links page and the printouts now agree."""
    started = []

    class Recording:
        """The supervisor, recording the serving child's first command instead of starting it."""

        def __init__(self, command, started=None):
            self.command = command

        def run(self):
            started.append(self.command(False))
            return 0

    settings.PUBLIC_BASE_URL = ""
    settings.DATA_DIR = tmp_path  # no hall.json: loopback
    monkeypatch.setattr("config.serving.Supervisor", Recording)
    monkeypatch.setattr("config.serving.check_port_free", lambda host, port: None)
    monkeypatch.setattr("tournament.management.commands.serve.call_command", lambda *args, **kwargs: None)
    monkeypatch.setattr(Serve, "collect_static", lambda self: None)
    Serve(stdout=io.StringIO()).handle(host="127.0.0.1", port=8103, hall=False, threads=4, no_demo=True,
                                       setup_in_browser=False, open_browser=False, child=False)
    argv, environment = started[0]
    assert argv[-7:] == ["--child", "--host", "127.0.0.1", "--port", "8103", "--threads", "4"]
    assert environment["PUBLIC_BASE_URL"] == "http://127.0.0.1:8103"
    assert environment.get("HALL") != "1"
