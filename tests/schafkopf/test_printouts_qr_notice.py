"""Walking the evening (issue 27): on a plain `make run` (127.0.0.1) the director printed the score lists and the
participant cards, and every QR code on them led to 127.0.0.1, which no phone opens; only the public pages' page
said so. The printouts page and the table links page say it where the printing is done."""

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["printouts", "links"])
def test_the_pages_that_print_qr_codes_say_when_no_phone_can_scan_them(client, drawn, director, settings, page):
    client.force_login(director)
    url = (reverse("tournament:schafkopf:printouts", args=[drawn.slug]) if page == "printouts"
           else reverse("tournament:schafkopf:links", args=[drawn.slug, 1]))
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    answer = client.get(url).content.decode()
    assert 'id="qr-this-computer-only"' in answer
    assert "lead to http://127.0.0.1:8000, which only this computer opens: no phone can scan them" in answer
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"  # the hall: phones reach it
    assert 'id="qr-this-computer-only"' not in client.get(url).content.decode()


def test_the_notice_is_in_the_directors_language(client, drawn, director, settings):
    client.force_login(director)
    settings.PUBLIC_BASE_URL = "http://localhost:8000"
    with translation.override("de"):
        answer = client.get(reverse("tournament:schafkopf:printouts", args=[drawn.slug]),
                            HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "führen zu http://localhost:8000, das nur dieser Computer öffnet" in answer
