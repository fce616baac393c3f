"""The one-time set-up page (/setup/, tournament/views/setup.py): who may open it, what it makes, and that it
makes one account however often it is sent. The first start in a real browser: tests/browser/test_first_start.py."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournament.models import Tournament
from tournament.services import first_start

pytestmark = pytest.mark.django_db

GOOD = {"username": "director", "password1": "Kartenabend-2026!", "password2": "Kartenabend-2026!", "demo": "on"}


@pytest.fixture
def setup_on(settings):
    settings.SETUP_IN_BROWSER = True
    return settings


def accounts():
    return get_user_model().objects.count()


def test_the_page_opens_on_this_computer_with_the_user_name_proposed_and_focused(client, setup_on):
    response = client.get(reverse("setup"))
    assert response.status_code == 200
    form = response.context["form"]
    assert form["username"].value() == "director"
    assert form.fields["username"].widget.attrs.get("autofocus")
    assert form["demo"].value() is True
    assert 'id="language-select"' in response.text  # the site's language picker


@pytest.mark.parametrize("address", ["127.0.0.1", "127.8.0.3", "::1", "::ffff:127.0.0.1"])
def test_every_loopback_address_is_this_computer(setup_on, address):
    assert Client(REMOTE_ADDR=address).get(reverse("setup")).status_code == 200


@pytest.mark.parametrize("address", ["192.168.1.20", "10.0.0.7", "fe80::1", "2001:db8::5", "::ffff:192.168.1.20",
                                     "", "localhost"])
def test_another_computer_is_refused_and_nothing_is_made(setup_on, address):
    client = Client(REMOTE_ADDR=address)
    assert client.get(reverse("setup")).status_code == 403
    response = client.post(reverse("setup"), GOOD)
    assert response.status_code == 403
    assert "computer that runs the tournament manager" in response.text
    assert accounts() == 0


def test_behind_a_proxy_even_a_loopback_client_is_refused(setup_on):
    # a reverse proxy on this computer sends every request from 127.0.0.1, whoever sent it to the proxy
    setup_on.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert Client().post(reverse("setup"), GOOD).status_code == 403
    setup_on.SECURE_PROXY_SSL_HEADER = None
    setup_on.BEHIND_PROXY = True
    assert Client().post(reverse("setup"), GOOD).status_code == 403
    assert accounts() == 0


def test_without_setup_in_browser_there_is_no_page(client, settings):
    settings.SETUP_IN_BROWSER = False
    assert client.get(reverse("setup")).status_code == 404
    assert client.post(reverse("setup"), GOOD).status_code == 404
    assert accounts() == 0
    # and the start and login pages stay as they are
    assert client.get(reverse("home")).status_code == 200
    assert client.get(reverse("login")).status_code == 200


def test_once_an_account_exists_the_page_sends_to_the_login(client, setup_on, make_director):
    make_director("someone")
    response = client.get(reverse("setup"))
    assert response.status_code == 302 and response.url == reverse("login")
    response = client.post(reverse("setup"), {**GOOD, "username": "intruder"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("login")
    assert "exists already" in response.text
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["someone"]


def test_it_makes_the_director_logs_in_and_makes_the_demos(client, setup_on):
    response = client.post(reverse("setup"), GOOD, follow=True)
    assert response.redirect_chain[-1][0] == reverse("tournament:list")
    director = get_user_model().objects.get()
    # as `manage.py bootstrap` makes it: a superuser, no e-mail
    assert (director.username, director.is_superuser, director.is_staff, director.email) == ("director", True,
                                                                                            True, "")
    assert director.check_password(GOOD["password1"])
    assert response.context["user"] == director  # logged in
    games = {game.key for game in first_start.demo_games()}
    assert games and set(Tournament.objects.values_list("game", flat=True)) == games
    assert "demo tournaments are in the list" in response.text
    # the page is closed from now on
    assert client.get(reverse("setup")).status_code == 302


def test_the_demos_are_optional_and_the_user_name_is_the_directors_choice(client, setup_on):
    client.post(reverse("setup"), {**GOOD, "username": "anna", "demo": ""})  # the box unticked
    assert get_user_model().objects.get().username == "anna"
    assert Tournament.objects.count() == 0


def test_a_second_post_never_makes_a_second_account(setup_on):
    first, second = Client(), Client()  # a double click, or two tabs
    assert first.post(reverse("setup"), {**GOOD, "demo": ""}).status_code == 302
    response = second.post(reverse("setup"), {**GOOD, "username": "other", "demo": ""})
    assert response.status_code == 302 and response.url == reverse("login")
    assert accounts() == 1


def test_the_account_is_checked_again_under_the_lock(client, setup_on, monkeypatch):
    """Both requests saw no account; the other one got the lock first and made its account meanwhile: this one
    finds it inside its transaction and makes none."""
    lock = first_start._one_set_up_at_a_time

    def the_other_request_was_first():
        lock()
        get_user_model().objects.create_superuser("first", "", "Kartenabend-2026!")

    monkeypatch.setattr(first_start, "_one_set_up_at_a_time", the_other_request_was_first)
    response = client.post(reverse("setup"), {**GOOD, "username": "second", "demo": ""})
    assert response.status_code == 302 and response.url == reverse("login")
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["first"]
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize(("password", "words"), [
    ("short-1", "too short"),
    ("123456789012345", "entirely numeric"),
    ("director2026", "too similar to the username"),
    ("qwertyuiop123", "too common"),
])
def test_the_password_validators_refuse_a_weak_password(client, setup_on, password, words):
    response = client.post(reverse("setup"), {**GOOD, "password1": password, "password2": password})
    assert response.status_code == 400
    assert words in response.text
    form = response.context["form"]
    assert form.fields["password1"].widget.attrs.get("autofocus")  # the cursor where the mistake is
    assert not form.fields["username"].widget.attrs.get("autofocus")
    assert accounts() == 0


def test_two_different_passwords_are_refused(client, setup_on):
    response = client.post(reverse("setup"), {**GOOD, "password2": "Kartenabend-2027!"})
    assert response.status_code == 400
    assert "The two passwords differ" in response.text
    assert response.context["form"].fields["password1"].widget.attrs.get("autofocus")
    assert accounts() == 0


def test_a_bad_user_name_keeps_the_focus_on_it(client, setup_on):
    response = client.post(reverse("setup"), {**GOOD, "username": "two words"})
    assert response.status_code == 400
    assert response.context["form"].fields["username"].widget.attrs.get("autofocus")
    assert accounts() == 0


def test_the_errors_are_translated(client, setup_on):
    client.cookies["django_language"] = "de"
    response = client.post(reverse("setup"), {**GOOD, "password1": "short-1", "password2": "short-2"},
                           HTTP_ACCEPT_LANGUAGE="de")
    assert "Die beiden Passwörter sind verschieden" in response.text
    response = client.post(reverse("setup"), {**GOOD, "password1": "short-1", "password2": "short-1"},
                           HTTP_ACCEPT_LANGUAGE="de")
    assert "Dieses Passwort ist zu kurz" in response.text
    client.cookies["django_language"] = "da"
    response = client.post(reverse("setup"), {**GOOD, "password1": "short-1", "password2": "short-1"})
    assert "Denne adgangskode er for kort" in response.text


def test_the_start_and_login_pages_lead_this_computer_to_the_setup(setup_on):
    client = Client()
    for name in ("home", "login"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response.url == reverse("setup")
    # another computer is not led there (it may not set up)
    other = Client(REMOTE_ADDR="192.168.1.20")
    assert other.get(reverse("home")).status_code == 200
    assert other.get(reverse("login")).status_code == 200


def test_once_the_account_exists_the_start_and_login_pages_are_as_always(client, setup_on, make_director):
    make_director()
    assert client.get(reverse("home")).status_code == 200
    assert client.get(reverse("login")).status_code == 200
