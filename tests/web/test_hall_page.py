"""The hall page (tournament/views/hall.py): what it says with the hall off and on, the switch (config.serving,
mocked: the supervisor restarts the real server), the addresses and the hall poster.
The hall in a real browser: tests/browser/test_first_start.py; over a real network: tests/browser/test_hall.py."""

import pypdfium2 as pdfium
import pytest
import zxingcpp
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from config import serving
from tests.pdf_text import page_texts
from tournament import hall
from tournament.hall import POSTER_LINES

pytestmark = pytest.mark.django_db

ADDRESSES = ["192.168.1.20", "fd00::5"]


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("director", "", "Kartenabend-2026!")


@pytest.fixture
def director_client(superuser):
    client = Client(HTTP_HOST="127.0.0.1:8000")
    client.force_login(superuser)
    return client


@pytest.fixture
def switch(monkeypatch):
    """config.serving's switch, recorded instead of restarting anything."""
    calls = []
    monkeypatch.setattr(serving, "set_hall", lambda on: calls.append(("set_hall", on)))
    monkeypatch.setattr(serving, "request_restart", lambda: calls.append(("request_restart",)) or True)
    return calls


@pytest.fixture
def hall_on(settings, monkeypatch):
    settings.HALL = True
    monkeypatch.setattr(hall, "local_addresses", lambda: list(ADDRESSES))
    return settings


def test_only_the_installations_director_opens_it(client, make_director):
    assert client.get(reverse("hall:page")).status_code == 302  # to the login
    client.force_login(make_director())  # directs tournaments, may not restart the server they share
    assert client.get(reverse("hall:page")).status_code == 403
    assert client.post(reverse("hall:page"), {"hall": "on"}).status_code == 403
    assert client.get(reverse("hall:poster")).status_code == 403
    assert "Phones in the hall" not in client.get(reverse("home")).text


def test_the_director_finds_it_in_the_menu_and_on_the_start_page(director_client):
    for name in ("home", "tournament:list"):
        assert f'href="{reverse("hall:page")}"' in director_client.get(reverse(name)).text


def test_with_the_hall_off_it_says_only_this_computer_and_what_the_switch_does(director_client, settings):
    settings.HALL = False
    text = director_client.get(reverse("hall:page")).text
    assert "Only this computer can open the tournament manager now." in text
    assert "allow it for private networks" in text
    assert "Let phones and other laptops in" in text
    assert 'name="hall" value="on"' in text
    assert "http://" not in text and "<svg" not in text
    assert reverse("hall:poster") not in text


def test_with_the_hall_on_it_shows_the_addresses_the_qr_code_and_the_poster(director_client, hall_on):
    text = director_client.get(reverse("hall:page")).text
    assert '<a href="http://192.168.1.20:8000" id="hall-address">http://192.168.1.20:8000</a>' in text
    assert "http://[fd00::5]:8000" in text
    assert "<svg" in text and 'class="qr"' in text
    assert f'href="{reverse("hall:poster")}"' in text
    assert "Only this computer" in text and 'name="hall" value="off"' in text


def test_public_base_url_is_the_address_to_open_unless_it_is_loopback(director_client, hall_on):
    hall_on.PUBLIC_BASE_URL = "http://turnier.local:8000/"
    text = director_client.get(reverse("hall:page")).text
    assert 'id="hall-address">http://turnier.local:8000</a>' in text
    hall_on.PUBLIC_BASE_URL = "http://127.0.0.1:8000"  # what `make run` sets for this computer alone
    assert 'id="hall-address">http://192.168.1.20:8000</a>' in director_client.get(reverse("hall:page")).text


def test_without_a_network_address_it_says_to_connect_the_computer(director_client, hall_on, monkeypatch):
    monkeypatch.setattr(hall, "local_addresses", lambda: [])
    text = director_client.get(reverse("hall:page")).text
    assert "This computer has no network address" in text
    assert reverse("hall:poster") not in text


@pytest.mark.parametrize(("hall_now", "sent", "wanted"), [(False, "on", True), (True, "off", False)])
def test_the_switch_stores_the_choice_restarts_and_waits(director_client, settings, switch, hall_now, sent, wanted):
    settings.HALL = hall_now
    response = director_client.post(reverse("hall:page"), {"hall": sent})
    assert response.status_code == 200
    assert switch == [("set_hall", wanted), ("request_restart",)]
    text = response.text
    assert f'data-wanted="{str(wanted).lower()}"' in text
    assert f'data-state="{reverse("hall:state")}"' in text
    assert "tournament/hall.js" in text  # the polling is our own static script, none inline


def test_the_switch_to_what_is_already_so_changes_nothing(director_client, settings, switch):
    settings.HALL = True
    response = director_client.post(reverse("hall:page"), {"hall": "on"})
    assert response.status_code == 302 and switch == []


def test_another_laptop_cannot_switch(superuser, settings, switch):
    settings.HALL = True
    client = Client(REMOTE_ADDR="192.168.1.30")
    client.force_login(superuser)
    assert "The switch is on the computer that runs the tournament manager." in client.get(reverse("hall:page")).text
    assert client.post(reverse("hall:page"), {"hall": "off"}).status_code == 403
    assert switch == []


def test_a_data_folder_that_cannot_be_written_says_how_to_start_the_hall(director_client, settings, monkeypatch):
    settings.HALL = False

    def no_supervisor(on):
        raise PermissionError("the data folder is read-only")

    monkeypatch.setattr(serving, "set_hall", no_supervisor)
    response = director_client.post(reverse("hall:page"), {"hall": "on"}, follow=True)
    assert "tournament-manager serve --hall" in response.text


def test_the_waiting_page_asks_whether_the_hall_is_on(client, settings):
    for on in (False, True):
        settings.HALL = on
        response = client.get(reverse("hall:state"))  # no login: a session may not survive the restart
        assert response.json() == {"hall": on}
        assert response["Cache-Control"] == "no-store"


def test_the_poster_carries_the_address_its_qr_code_and_three_languages(director_client, hall_on):
    response = director_client.get(reverse("hall:poster"))
    assert response["Content-Type"] == "application/pdf"
    assert "tournament-manager-hall-poster.pdf" in response["Content-Disposition"]
    pages = page_texts(response.content)
    assert len(pages) == 1
    text = pages[0].replace("\n", " ")
    assert "http://192.168.1.20:8000" in text
    for _language, line in POSTER_LINES:
        assert line in text
    for absent in ("Page 1", "Printed", "Seite"):  # no running header or footer of the tournaments' printouts
        assert absent not in text
    # its QR code, read from the printed page, opens the address
    page = pdfium.PdfDocument(response.content)[0]
    assert [code.text for code in zxingcpp.read_barcodes(page.render(scale=1).to_pil())] == ["http://192.168.1.20:8000"]
    # the same whatever the screen's language
    director_client.cookies["django_language"] = "de"
    assert page_texts(director_client.get(reverse("hall:poster")).content) == pages


def test_there_is_no_poster_while_the_hall_is_off(director_client, settings):
    settings.HALL = False
    response = director_client.get(reverse("hall:poster"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("hall:page")
    assert "There is no hall poster" in response.text


def test_a_long_address_gets_smaller_type_on_the_poster():
    assert hall.poster_address_pt("http://10.0.0.2:8000") > 40
    assert hall.poster_address_pt("http://1.2") == hall.POSTER_ADDRESS_MAX_PT
    assert hall.poster_address_pt("http://[2001:db8:1234:5678:9abc:def0:1234:5678]:8000") < 30


def test_a_server_that_cannot_restart_itself_keeps_the_choice_and_says_to_restart(director_client, settings,
                                                                                monkeypatch):
    """Served by something else than `tournament-manager` (no supervisor): the choice is stored for the next start
    and the page says so, instead of a waiting page that would wait for ever."""
    stored = []
    monkeypatch.setattr(serving, "set_hall", stored.append)
    monkeypatch.setattr(serving, "request_restart", lambda: False)
    settings.HALL = False
    response = director_client.post(reverse("hall:page"), {"hall": "on"}, follow=True)
    assert stored == [True]
    assert "this server cannot restart itself" in response.text
    assert "data-wanted" not in response.text
