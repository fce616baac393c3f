"""The view side of `tournament.services.replay`: read a form's key, answer a replay as already saved."""

from __future__ import annotations

import hashlib
import json

from django.contrib import messages
from django.shortcuts import redirect

from ..services.replay import FIELD, KEY_PATTERN, AlreadySaved, Sent, was_saved

#: posted fields that say nothing about the content
NOT_CONTENT = frozenset({FIELD, "csrfmiddlewaretoken"})


def sent_of(request) -> Sent | None:
    """The key the form was rendered with and a digest of every field (and file) it sent; None without a key."""
    key = request.POST.get(FIELD, "")
    if not KEY_PATTERN.fullmatch(key):
        return None
    digest = hashlib.sha256()
    for name in sorted(request.POST):
        if name not in NOT_CONTENT:
            digest.update(json.dumps([name, request.POST.getlist(name)]).encode())
    for name in sorted(request.FILES):
        for upload in request.FILES.getlist(name):
            digest.update(json.dumps([name, upload.name, upload.size]).encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    return Sent(key=key, digest=digest.hexdigest())


class ReplayGuard:
    """For views whose forms carry `{% form_key %}`: a form sent again is answered "already saved".

    Put it among the view's bases after the role mixin (which checks who asks first) and before the
    Django view class. On a POST it sets `self.sent` (pass it to the service as `sent=`), refuses a
    submission saved before at once, and answers `AlreadySaved` from the service (two copies at the
    same moment, or entries saved meanwhile by someone else) with an info message and a redirect to
    `replay_url()`, the page that shows the saved state.
    """

    sent: Sent | None = None

    def dispatch(self, request, *args, **kwargs):
        if request.method != "POST":
            return super().dispatch(request, *args, **kwargs)
        self.sent = sent_of(request)
        try:
            was_saved(self.sent)
            return super().dispatch(request, *args, **kwargs)
        except AlreadySaved as replay:
            messages.info(request, replay.message)
            return redirect(self.replay_url())

    def replay_url(self) -> str:
        return self.request.get_full_path()
