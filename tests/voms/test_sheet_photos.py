"""A Voms table's photo of its paper slip (issue 27): sent with the slip from the phone, beside the slip in the
referee table's *Awaiting confirmation* list, where the slip is confirmed."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.games.voms.services.slips import confirm_slip
from scoring.models import PendingSheet, SheetPhoto
from tests.photos.pictures import jpeg

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401
from .test_tablelinks import slip, slip_links, table_url  # noqa: F401, F811

#: the module's data is built once (`build_once`), which needs the test database set up
pytestmark = pytest.mark.django_db


def test_a_slips_photo_is_beside_it_where_the_referee_table_confirms_it(client, slip_links, director):  # noqa: F811
    link, token = slip_links[(1, 1)]
    page = client.get(table_url(token)).content.decode()
    assert 'enctype="multipart/form-data" id="ph-slip"' in page and 'capture="environment"' in page
    photo = SimpleUploadedFile("slip.jpg", jpeg(1000, 700), content_type="image/jpeg")
    response = client.post(table_url(token), {**slip(9, 5), "photo": photo})
    assert response.status_code == 302
    stored = SheetPhoto.objects.get()
    assert stored.match == link.match and PendingSheet.objects.get().match == link.match
    client.force_login(director)
    enter = client.get(reverse("tournament:voms:enter", args=[link.tournament.slug])).content.decode()
    url = reverse("tournament:sheet_photo", args=[link.tournament.slug, stored.pk])
    pending_table = enter.split('id="pending-slips"')[1].split("</table>")[0]
    assert f'href="{url}?v=' in pending_table and "Photo of the paper sheet: open it full size" in pending_table


def test_the_photo_is_on_the_correction_page_of_the_counted_slip(client, slip_links, director):  # noqa: F811
    """Once the slip counts, its photo was on no page: the director correcting it could not compare with the paper."""
    link, token = slip_links[(1, 1)]
    photo = SimpleUploadedFile("slip.jpg", jpeg(1000, 700), content_type="image/jpeg")
    assert client.post(table_url(token), {**slip(9, 5), "photo": photo}).status_code == 302
    stored = SheetPhoto.objects.get()
    confirm_slip(link.match, by=director)
    client.force_login(director)
    page = client.get(reverse("tournament:voms:correct", args=[link.tournament.slug, link.match.pk])).content.decode()
    url = reverse("tournament:sheet_photo", args=[link.tournament.slug, stored.pk])
    assert f'id="sheet-photo-{stored.pk}"' in page and f'href="{url}?v=' in page
