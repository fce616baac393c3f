"""A table attaches a photo of its signed paper list on a phone (390 x 844): the phone makes it smaller before the
send, the list and the photo go together, and the referee table's confirm page shows the photo beside the entry
(a thumbnail that opens it full size), reached by keyboard."""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from scoring.models import PendingSheet, SheetPhoto
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import axe_violations, keep_screenshot, login_by_keyboard, new_phone, tab_to
from tests.photos.pictures import gps_of, jpeg_with_gps

from .test_tablelink_browser import tap_and_type

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_photo_attached_on_the_phone_is_shown_where_the_referee_table_confirms(live_server, browser, page,
                                                                                short_list, links, director):
    _link, token = links[(1, 1)]
    taken = jpeg_with_gps(3000, 2000)  # a camera's photo, with the place it was taken
    phone = new_phone(browser)
    try:
        phone.goto(f"{live_server.url}/t/{token}/")
        phone.locator("#sk-view-grid").tap()  # typed on the grid: the photo, not the entry, is what is tested
        tap_and_type(phone, "t1", "R")
        tap_and_type(phone, "d1", "1")
        tap_and_type(phone, "p1", "2")
        tap_and_type(phone, "r1", "+")
        tap_and_type(phone, "t2", "S")
        tap_and_type(phone, "d2", "3")
        tap_and_type(phone, "r2", "-")
        field = phone.locator("#ph-photo")
        expect(field).to_have_attribute("capture", "environment")
        field.set_input_files(files=[{"name": "IMG_2041.jpg", "mimeType": "image/jpeg", "buffer": taken}])
        # made smaller in the phone: a JPEG of at most 1600 px replaces the camera's file before the send
        expect(phone.locator("#ph-photo-state")).to_contain_text("Photo ready to send")
        chosen = field.evaluate("input => [input.files[0].name, input.files[0].size]")
        assert chosen[0] == "photo.jpg" and chosen[1] < len(taken)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        keep_screenshot(phone, ARTIFACTS / "sheet-photo-phone-attached.png", full_page=True)
        assert axe_violations(phone) == []
        phone.locator("#sk-save").tap()
        expect(phone.locator("#sent-note")).to_be_visible()
        expect(phone.locator(".ph-messages")).to_contain_text("The photo of the paper list has been sent")
        expect(phone.locator("#ph-photo-form")).to_contain_text("Replace the photo of the paper list")
        keep_screenshot(phone, ARTIFACTS / "sheet-photo-phone-sent.png", full_page=True)
        assert axe_violations(phone) == []
        photo = SheetPhoto.objects.get()
        assert len(PendingSheet.objects.get().entries) == 2
        assert max(photo.width, photo.height) == 1600 and gps_of(bytes(photo.image)) == {}
    finally:
        phone.context.close()

    login_by_keyboard(page, live_server.url, director, f"/manage/{short_list.slug}/schafkopf/rounds/1/tables/1/")
    figure = page.locator(f"#sheet-photo-{photo.pk}")
    expect(figure).to_be_visible()
    expect(figure).to_contain_text("Sent by the table at")
    thumbnail = figure.locator("img")
    expect(thumbnail).to_be_visible()
    assert thumbnail.evaluate("img => img.complete && img.naturalWidth") == 320  # the served thumbnail
    tab_to(page, f"#sheet-photo-open-{photo.pk}")
    expect(page.locator(f"#sheet-photo-open-{photo.pk}")).to_be_focused()
    keep_screenshot(page, ARTIFACTS / "sheet-photo-confirm.png", full_page=True)
    assert axe_violations(page) == []
    with page.context.expect_page() as opened:
        page.keyboard.press("Enter")
    full = opened.value
    full.wait_for_load_state()
    response = full.request.get(full.url)
    assert response.headers["content-type"] == "image/jpeg"
    assert Image.open(io.BytesIO(response.body())).size == (photo.width, photo.height)
    full.close()
    expect(page.locator("#confirm-entry")).to_be_visible()
