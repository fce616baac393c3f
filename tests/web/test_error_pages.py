"""The error pages a director or a player meets: translated, saying what to do, no stack trace, no word of DEBUG,
nothing the Content-Security-Policy refuses (no inline script or style). Rendered as Django renders them in
production (DEBUG off, as in the tests)."""

import re

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from tournament.views.setup import HomeView

pytestmark = pytest.mark.django_db

#: (heading, what to do) of each page, in each language
TEXTS = {
    400: {"en": ("Request not understood", "Go back and try again"),
          "de": ("Anfrage nicht verstanden", "Gehen Sie zurück und versuchen Sie es noch einmal"),
          "da": ("Forespørgslen blev ikke forstået", "Gå tilbage og prøv igen")},
    403: {"en": ("Not allowed", "Log in with an account that may open it"),
          "de": ("Nicht erlaubt", "Melden Sie sich mit einem Konto an, das sie öffnen darf"),
          "da": ("Ikke tilladt", "Log ind med en konto, der må åbne den")},
    404: {"en": ("Page not found", "Check the address"),
          "de": ("Seite nicht gefunden", "Prüfen Sie die Adresse"),
          "da": ("Siden blev ikke fundet", "Tjek adressen")},
    500: {"en": ("Something went wrong", "restart the program"),
          "de": ("Etwas ist schiefgegangen", "starten Sie das Programm neu"),
          "da": ("Noget gik galt", "genstart programmet")},
    "csrf": {"en": ("Please send it again", "reload the page and send again"),
             "de": ("Bitte noch einmal senden", "laden Sie die Seite neu und senden Sie noch einmal"),
             "da": ("Send det venligst igen", "genindlæs siden og send igen")},
}
#: what each 500 page says about the data: a director's first worry
KEPT = {"en": "Everything saved before it is kept", "de": "Alles vorher Gespeicherte bleibt erhalten",
        "da": "Alt, hvad der blev gemt før, er bevaret"}
LANGUAGES = ("en", "de", "da")
INLINE = re.compile(r"<script(?![^>]*\bsrc=)|<style\b|\sstyle=|\son[a-z]+=", re.IGNORECASE)


def client_in(language: str, **options) -> Client:
    client = Client(**options)
    client.cookies["django_language"] = language
    return client


def assert_friendly(response, status, kind, language):
    assert response.status_code == status
    text = response.content.decode()
    heading, advice = TEXTS[kind][language]
    assert f"<h1>{heading}</h1>" in text
    assert advice in re.sub(r"\s+", " ", text)
    assert f'<html lang="{language}">' in text
    for word in ("DEBUG", "Traceback", "Exception", "settings.py", "/usr/", ".venv"):
        assert word not in text
    assert not INLINE.search(text), INLINE.search(text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_that_does_not_exist(language):
    assert_friendly(client_in(language).get("/no/such/page/"), 404, 404, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_that_is_not_open_to_the_user(language, make_director):
    client = client_in(language)
    client.force_login(make_director())  # a director of tournaments, not the installation's superuser
    assert_friendly(client.get(reverse("hall:page")), 403, 403, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_request_for_another_host(language):
    # the hall: a phone that opened this computer by a name the server does not answer to
    assert_friendly(client_in(language).get("/", HTTP_HOST="elsewhere.example"), 400, 400, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_server_error_says_the_data_is_kept_and_what_to_do(language, monkeypatch):
    def broken(self, request, *args, **kwargs):
        raise RuntimeError("a bug, with /usr/lib/python3/secret/path.py in its message")

    monkeypatch.setattr(HomeView, "get", broken)
    response = client_in(language, raise_request_exception=False).get("/")
    assert_friendly(response, 500, 500, language)
    assert KEPT[language] in re.sub(r"\s+", " ", response.content.decode())
    assert "secret/path" not in response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_500_page_renders_without_a_request_context(language):
    # Django's server_error renders 500.html with an empty context: no request, no user, no csrf token
    with translation.override(language):
        response = server_error(RequestFactory().get("/"))
    assert_friendly(response, 500, 500, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_form_sent_without_its_cookie_gets_the_translated_page(language):
    """What a phone gets when its page was open too long or its cookie is gone (issue 25): not Django's English
    page about DEBUG, whose inline style the Content-Security-Policy refuses."""
    client = client_in(language, enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "director", "password": "whatever-it-is"})
    assert_friendly(response, 403, "csrf", language)
    assert "Content-Security-Policy" in response.headers
