"""Passwords: strong wherever one is set; no reset by mail (the app sends none)."""

import getpass

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.management import CommandError, call_command
from django.urls import NoReverseMatch, reverse

pytestmark = pytest.mark.django_db

#: too short, too common, only digits, like the user name: each refused on its own
WEAK = {"short": "Kx7-qp2-Lm", "common": "password1234", "numeric": "493817264509", "like the name": "karlheinz-2027"}
STRONG = "Trumpf-Eichel-Ober-7"


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("karlheinz", password=STRONG)


@pytest.mark.parametrize("path", ["/accounts/password_reset/", "/accounts/password_reset/done/",
                                  "/accounts/reset/MQ/set-password/", "/accounts/reset/done/"])
def test_there_are_no_password_reset_pages(client, path):
    assert client.get(path).status_code == 404
    assert client.post(path, {"email": "director@example.org"}).status_code == 404


def test_no_page_links_to_a_password_reset():
    with pytest.raises(NoReverseMatch):
        reverse("password_reset")
    assert reverse("login") == "/accounts/login/" and reverse("logout") == "/accounts/logout/"


@pytest.mark.parametrize("kind", WEAK)
def test_changepassword_refuses_weak_passwords(superuser, monkeypatch, kind):
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": WEAK[kind])
    with pytest.raises(CommandError):
        call_command("changepassword", "karlheinz")
    superuser.refresh_from_db()
    assert superuser.check_password(STRONG)


def test_changepassword_sets_a_strong_one(superuser, monkeypatch):
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": "Schellen-Sau-Wenz-42")
    call_command("changepassword", "karlheinz")
    superuser.refresh_from_db()
    assert superuser.check_password("Schellen-Sau-Wenz-42")


@pytest.mark.parametrize("kind", WEAK)
def test_the_admin_refuses_weak_passwords_for_new_accounts(client, superuser, kind):
    client.force_login(superuser)
    name = "karlheinz2" if kind == "like the name" else "newdirector"
    response = client.post("/admin/auth/user/add/", {"username": name, "usable_password": "true",
                                                    "password1": WEAK[kind], "password2": WEAK[kind]})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not get_user_model().objects.filter(username=name).exists()


def test_the_admin_refuses_a_short_password_change(client, superuser, django_user_model):
    other = django_user_model.objects.create_user("helper", password=STRONG)
    client.force_login(superuser)
    response = client.post(f"/admin/auth/user/{other.pk}/password/",
                           {"password1": WEAK["short"], "password2": WEAK["short"]})
    assert response.status_code == 200 and "at least 12 characters" in response.content.decode()
    other.refresh_from_db()
    assert other.check_password(STRONG)


def test_the_generated_first_password_passes_the_same_checks(capsys):
    call_command("bootstrap", "--no-demo")
    out = capsys.readouterr().out
    password = next(line.split(":", 1)[1].strip() for line in out.splitlines() if "password:" in line)
    validate_password(password, get_user_model().objects.get(username="director"))
