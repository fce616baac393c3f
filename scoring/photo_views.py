"""The photo of a paper sheet over HTTP: what a table's phone sends (`scoring.results.photos` checks and keeps
it) and the picture the referee table opens.

A phone's upload is read by `PhotoUploadHandler` alone (`scoring.tablelink_views` installs it): in memory up to
`settings.SHEET_PHOTO_MAX_BYTES`, a larger file dropped while it arrives, never a file on the server's disk; the
list in the same form is read as ever. A photo refused, or sent with a list that was refused, never costs the
list: the list is kept (or refused) on its own, and the phone says what became of the photo.

`SheetPhotoView` serves a stored photo (or its thumbnail) to the tournament's directors and assistants only;
anyone else gets 404, and the public pages never show it.
"""

from __future__ import annotations

import io

from django.conf import settings
from django.contrib import messages
from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, SkipFile, StopFutureHandlers
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views import View

from scoring.models import SheetPhoto
from scoring.phone import taken
from scoring.results.photos import attach_photo, too_large
from tournament.permissions import ScoreEntryMixin
from tournament.services.errors import DomainError

#: the form field of the photo on a table's page
PHOTO_FIELD = "photo"
#: a phone's form that sends the photo alone (after its list)
PHOTO_ACTION = "photo"


class PhotoUploadHandler(FileUploadHandler):
    """Keeps the form's photo in memory up to the limit; a larger one, and a file under any other name, is dropped
    (`request.photo_too_large` says the photo was) and the rest of the form read."""

    def new_file(self, field_name, file_name, content_type, content_length, charset=None, content_type_extra=None):
        super().new_file(field_name, file_name, content_type, content_length, charset, content_type_extra)
        if field_name != PHOTO_FIELD:
            raise SkipFile
        if content_length is not None and content_length > settings.SHEET_PHOTO_MAX_BYTES:
            self._too_large()
        self.buffer = io.BytesIO()
        raise StopFutureHandlers  # no other handler: nothing is written to a temporary file

    def receive_data_chunk(self, raw_data, start):
        if start + len(raw_data) > settings.SHEET_PHOTO_MAX_BYTES:
            self._too_large()
        self.buffer.write(raw_data)
        return None

    def file_complete(self, file_size):
        self.buffer.seek(0)
        return InMemoryUploadedFile(self.buffer, self.field_name, self.file_name, self.content_type, file_size,
                                    self.charset, self.content_type_extra)

    def _too_large(self):
        self.request.photo_too_large = True
        raise SkipFile


def photo_sent(request) -> bool:
    """The form carried a photo (kept in memory, or dropped as too large)."""
    return bool(getattr(request, "photo_too_large", False) or request.FILES.get(PHOTO_FIELD))


def keep_photo(request, link, *, with_send: bool) -> bool:
    """Keep the posted photo, saying so on the phone's next page (its refusal likewise); True when it was kept."""
    upload = request.FILES.get(PHOTO_FIELD)
    try:
        if getattr(request, "photo_too_large", False):
            raise too_large()
        attach_photo(link, upload.read(), with_send=with_send)
    except DomainError as error:
        kept = _("Your list was sent and is kept.") if with_send else ""
        messages.error(request, f"{error.message} {kept}".strip())
        return False
    messages.success(request, _("The photo of the paper list has been sent to the referee table."))
    return True


def photo_response(request, link):
    """The phone's form that sends a photo alone, while the table's list awaits confirmation."""
    if not photo_sent(request):
        messages.error(request, _("Choose the photo of the paper list first."))
        return redirect(request.path)
    kept = keep_photo(request, link, with_send=False)
    response = redirect(request.path)
    return taken(response) if kept else response


class SheetPhotoView(ScoreEntryMixin, View):
    """A place's photo for the tournament's directors and assistants: `?size=thumb` its thumbnail."""

    def get(self, request, *args, **kwargs):
        thumb = request.GET.get("size") == "thumb"
        field = "thumbnail" if thumb else "image"
        photo = get_object_or_404(SheetPhoto.objects.only(field, "uploaded_at"), tournament=self.tournament,
                                  pk=kwargs["photo"])
        response = HttpResponse(bytes(getattr(photo, field)), content_type="image/jpeg")
        response["Content-Disposition"] = f'inline; filename="sheet-photo-{photo.pk}.jpg"'
        # the address carries the upload's time (a replaced photo has a new one): cached, in this browser only
        patch_cache_control(response, private=True, max_age=24 * 3600)
        return response
