"""A table game's photo of its paper score sheet (issue 27): sent with the hands from the phone, beside the hands
awaiting confirmation on the referee table's sheet page, the first ones and the later ones alike."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import SheetPhoto
from tests.photos.pictures import jpeg

from .test_tablelinks import (  # noqa: F401
    FIRST,
    SECOND,
    built,
    director,
    domino_links,
    domino_of_four,
    phone,
    sheet_url,
    table_url,
    world,
)

#: the module's data is built once (`build_once`), which needs the test database set up
pytestmark = pytest.mark.django_db


def test_the_sheets_photo_is_beside_the_hands_the_referee_table_confirms(phone, domino_links, domino_of_four,  # noqa: F811
                                                                          director, client):  # noqa: F811
    link, token = domino_links[(1, 1)]
    photo = SimpleUploadedFile("sheet.jpg", jpeg(900, 1200), content_type="image/jpeg")
    assert phone.post(table_url(token), {**FIRST, "photo": photo}).status_code == 302
    stored = SheetPhoto.objects.get()
    assert stored.table == link.table and (stored.width, stored.height) == (900, 1200)
    client.force_login(director)
    url = reverse("tournament:sheet_photo", args=[domino_of_four.slug, stored.pk])
    page = client.get(sheet_url(domino_of_four, 1, 1)).content.decode()
    note = page.split('id="pending-note"')[1].split("</div>")[0]
    assert f'href="{url}?v=' in note
    client.post(sheet_url(domino_of_four, 1, 1), {"action": "confirm", "pending_version": 1})
    client.logout()
    assert phone.post(table_url(token), {**FIRST, **SECOND}).status_code == 302  # a later hand awaits confirmation
    client.force_login(director)
    page = client.get(sheet_url(domino_of_four, 1, 1)).content.decode()
    assert "later hands sent by the table" in page and f'href="{url}?v=' in page


def test_the_photo_stays_on_the_sheet_page_once_the_hands_count(phone, domino_links, domino_of_four,  # noqa: F811
                                                                director, client):  # noqa: F811
    """Confirmed (or counted by two agreeing seats), the sheet page showed no photo any more: the director checking a
    counted sheet against the paper later had no way to see it."""
    _link, token = domino_links[(1, 1)]
    photo = SimpleUploadedFile("sheet.jpg", jpeg(900, 1200), content_type="image/jpeg")
    assert phone.post(table_url(token), {**FIRST, "photo": photo}).status_code == 302
    stored = SheetPhoto.objects.get()
    client.force_login(director)
    client.post(sheet_url(domino_of_four, 1, 1), {"action": "confirm", "pending_version": 1})
    page = client.get(sheet_url(domino_of_four, 1, 1)).content.decode()
    url = reverse("tournament:sheet_photo", args=[domino_of_four.slug, stored.pk])
    assert 'id="pending-note"' not in page  # nothing awaits confirmation any more
    assert f'id="sheet-photo-{stored.pk}"' in page and f'href="{url}?v=' in page
