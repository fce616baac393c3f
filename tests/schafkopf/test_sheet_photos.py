"""A photo of the paper list from the table's phone (issue 27): sent with the list or after it, checked and made anew
by the server, shown to the referee table beside the entry it confirms, served to the tournament's directors and
assistants only; a refused photo never costs the list."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import models
from django.test import override_settings
from django.urls import reverse
from PIL import Image

from scoring.models import PendingSheet, ScoreSheet, SheetPhoto
from scoring.results.photos import PhotoRefused, attach_photo
from tests.conftest import new_director
from tests.photos.pictures import gps_of, jpeg, jpeg_with_gps, png_bomb
from tournament.models import AuditEntry, Role, TournamentRole
from tournament.transfer import export_document

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401
from .test_tablelink_views import grid_post, table_url

#: the module's data is built once (`build_once`), which needs the test database set up
pytestmark = pytest.mark.django_db


def upload(data: bytes, name: str = "IMG_0001.jpg", content_type: str = "image/jpeg"):
    return SimpleUploadedFile(name, data, content_type=content_type)


@pytest.fixture
def phone(client):
    client.cookies.pop("django_language", None)
    return client


@pytest.fixture
def sent_with(phone, links, a_list):
    """Send table 1's list of round 1 with `photo`; the phone's next page and the link."""

    def send(photo):
        link, token = links[(1, 1)]
        response = phone.post(table_url(token), {**grid_post(a_list(30, 4, seed=3)), "photo": photo})
        assert response.status_code == 302
        return phone.get(response["Location"]).content.decode(), link

    return send


def test_a_photo_sent_with_the_list_is_kept_without_its_location(sent_with):
    page, link = sent_with(upload(jpeg_with_gps(2400, 1800)))
    assert "The photo of the paper list has been sent to the referee table." in page
    photo = SheetPhoto.objects.get()
    assert photo.table == link.table and photo.source_link == link and photo.tournament == link.tournament
    assert PendingSheet.objects.get().source_link == link  # the list waits for the referee table as ever
    stored = Image.open(io.BytesIO(bytes(photo.image)))
    assert stored.format == "JPEG" and max(stored.size) == 1600 == max(photo.width, photo.height)
    assert gps_of(bytes(photo.image)) == {} and photo.size == len(bytes(photo.image))
    assert 'id="ph-photo-form"' in page and "Replace the photo of the paper list" in page
    entry = AuditEntry.objects.get(action="sheet.photo")
    assert entry.after["from_link"] == link.hint and entry.after["replaced"] is False


@pytest.mark.parametrize(("photo", "said"), [
    (upload(b"%PDF-1.7 a score list", "list.pdf", "application/pdf"), "This file is not a photo"),
    (upload(png_bomb(), "bomb.png", "image/png"), "The photo has too many pixels"),
], ids=["not-an-image", "decompression-bomb"])
def test_a_refused_photo_says_why_and_the_list_is_kept(sent_with, photo, said):
    page, link = sent_with(photo)
    assert said in page and "Your list was sent and is kept." in page
    assert not SheetPhoto.objects.exists()
    assert PendingSheet.objects.get().source_link == link


@override_settings(SHEET_PHOTO_MAX_BYTES=200_000)
def test_a_photo_over_the_limit_is_dropped_while_it_arrives_and_the_list_is_kept(sent_with):
    data = jpeg(1600, 1200, quality=95)
    assert len(data) > 200_000
    page, link = sent_with(upload(data))
    assert "The photo is too large" in page and "Your list was sent and is kept." in page
    assert not SheetPhoto.objects.exists() and PendingSheet.objects.get().source_link == link


def test_a_photo_sent_with_a_refused_list_is_not_kept_and_the_phone_says_so(phone, links, a_list):
    _link, token = links[(1, 1)]
    data = {**grid_post(a_list(30, 4, seed=3)), "d5": "9", "photo": upload(jpeg())}
    response = phone.post(table_url(token), data)
    assert response.status_code == 400
    assert "Choose the photo again: it was not kept, as the list was not sent." in response.content.decode()
    assert not SheetPhoto.objects.exists() and not PendingSheet.objects.exists()


def test_a_photo_sent_alone_while_the_list_awaits_confirmation_replaces_the_first(phone, sent_with, links):
    _page, link = sent_with(upload(jpeg(800, 600)))
    first = SheetPhoto.objects.get()
    _link, token = links[(1, 1)]
    response = phone.post(table_url(token), {"action": "photo", "photo": upload(jpeg(600, 800))})
    assert response.status_code == 302
    photo = SheetPhoto.objects.get()
    assert photo.pk == first.pk and (photo.width, photo.height) == (600, 800)
    assert AuditEntry.objects.filter(action="sheet.photo").latest("pk").after["replaced"] is True


def test_a_photo_alone_is_refused_before_the_list_is_sent_and_after_it_counts(phone, links, sent_with, director):
    _link, token = links[(1, 1)]
    response = phone.post(table_url(token), {"action": "photo", "photo": upload(jpeg())}, follow=True)
    assert "Your list is not awaiting confirmation any more" in response.content.decode()
    assert not SheetPhoto.objects.exists()
    response = phone.post(table_url(token), {"action": "photo"}, follow=True)
    assert "Choose the photo of the paper list first." in response.content.decode()
    _page, link = sent_with(upload(jpeg(800, 600)))
    pending = PendingSheet.objects.get()
    from scoring.games.schafkopf import services
    services.confirm_sheet(link.table, by=director, expected_version=pending.version)
    assert ScoreSheet.objects.exists()
    with pytest.raises(PhotoRefused):
        attach_photo(link, jpeg(600, 800), with_send=False)
    assert SheetPhoto.objects.get().width == 800  # still the first photo: it stays with the counted list


def test_the_referee_table_sees_the_photo_beside_the_entry_it_confirms(sent_with, client, director):
    _page, link = sent_with(upload(jpeg(1200, 900)))
    photo = SheetPhoto.objects.get()
    client.force_login(director)
    page = client.get(reverse("tournament:schafkopf:sheet", args=[link.tournament.slug, 1, 1])).content.decode()
    url = reverse("tournament:sheet_photo", args=[link.tournament.slug, photo.pk])
    assert f'id="sheet-photo-{photo.pk}"' in page and f'href="{url}?v=' in page
    assert f'src="{url}?size=thumb&amp;v=' in page
    assert "Photo of the paper sheet: open it full size" in page
    full = client.get(url)
    assert full.status_code == 200 and full["Content-Type"] == "image/jpeg"
    assert bytes(full.content) == bytes(photo.image)
    assert "private" in full["Cache-Control"] and "public" not in full["Cache-Control"]
    thumb = client.get(url + "?size=thumb")
    assert Image.open(io.BytesIO(thumb.content)).size == (320, 240)


def test_only_the_tournaments_directors_and_assistants_open_the_photo(sent_with, client, django_user_model):
    _page, link = sent_with(upload(jpeg()))
    tournament = link.tournament
    url = reverse("tournament:sheet_photo", args=[tournament.slug, SheetPhoto.objects.get().pk])
    assistant = django_user_model.objects.create_user("helper", password="pw-Helper-1")
    TournamentRole.objects.create(tournament=tournament, user=assistant, role=Role.ASSISTANT)
    client.force_login(assistant)
    assert client.get(url).status_code == 200
    client.force_login(new_director("stranger"))  # a director, but not of this tournament
    assert client.get(url).status_code == 404
    client.force_login(django_user_model.objects.create_user("visitor", password="pw-Visitor-1"))
    assert client.get(url).status_code == 404
    client.logout()  # the table's phone: its link opens its page, never the photo
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_photo_is_in_no_tournament_file_and_goes_with_its_round_and_tournament(sent_with):
    _page, link = sent_with(upload(jpeg()))
    document = export_document(link.tournament)
    assert "scoring.sheetphoto" not in {table["model"] for table in document["models"]}
    assert SheetPhoto._meta.get_field("tournament").remote_field.on_delete is models.CASCADE
    link.table.round.delete()  # as a new seating draw deletes the rounds
    assert not SheetPhoto.objects.exists()


def test_the_public_pages_never_show_the_photo(sent_with, client):
    _page, link = sent_with(upload(jpeg()))
    tournament = link.tournament
    type(tournament).objects.filter(pk=tournament.pk).update(
        publish_schedule=True, publish_standings=True, publish_bracket=True, publish_results=True)
    client.logout()
    shown = 0
    for name in ("index", "schedule", "standings", "results", "seat", "beamer"):
        response = client.get(reverse(f"public:{name}", args=[tournament.slug]))
        if response.status_code == 200:
            shown += 1
            assert "/photos/" not in response.content.decode() and "sheet-photo" not in response.content.decode()
    assert shown >= 4
