"""/t/<token>/: the page a table's private link opens. Finds the link and hands over to the game's page.

A refusal (unknown token, withdrawn link, a game without table entry) is a plain translated page that
changes nothing. Django's request log would name the full address of a refused request: these responses
are logged here instead, with the token's hint only.

The brakes (`scoring.results.brakes`) act here, for every game alike: an address that opened too many
unknown tokens is answered 429; a send (any POST) counts as taken when the page says so (`send_taken` on its
response, set by `scoring.phone`), else as refused against its address, a send that failed while it was read too.

A send may carry a photo of the paper list (`scoring.photo_views`): read by its own upload handler (installed
before anything reads the form, so the CSRF check comes after it here), kept once the game's page took the list,
or sent alone while the list awaits confirmation.
"""

from __future__ import annotations

import logging

from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from scoring.games import get_game
from scoring.photo_views import PHOTO_ACTION, PhotoUploadHandler, keep_photo, photo_response, photo_sent
from scoring.results import brakes as linkbrakes
from scoring.results.links import LinkRefused, closed_reason, hint_of, open_link
from tournament.views.auth import client_address

logger = logging.getLogger("scoring.tablelinks")

def refusal(request, message: str, *, token: str, status: int = 403):
    response = render(request, "scoring/link_refused.html", {"message": message}, status=status)
    response._has_been_logged = True  # Django's log line would carry the whole token
    logger.warning("table link refused (%s): %s", hint_of(token), message)
    return response


def braked(request, error: linkbrakes.Braked, *, token: str):
    response = refusal(request, error.message, token=token, status=429)
    response["Retry-After"] = str(error.retry_after)
    return response


def _language(request, tournament) -> None:
    """The tournament's language, unless the phone chose another with the language switch."""
    from django.conf import settings

    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) is None:
        translation.activate(tournament.language)
        request.LANGUAGE_CODE = tournament.language


@never_cache
@csrf_exempt  # checked by `_table_entry`, once the photo's upload handler is in place
def table_entry(request, token: str):
    request.upload_handlers = [PhotoUploadHandler(request)]
    return _table_entry(request, token)


@csrf_protect
def _table_entry(request, token: str):
    if request.method not in ("GET", "POST"):
        return refusal(request, _("This page only shows and sends the table's list."), token=token, status=405)
    address = client_address(request)
    sending = request.method == "POST"
    try:
        linkbrakes.check_address(address, token, sending=sending)
        link = open_link(token, unknown=lambda: linkbrakes.note_unknown(address))
    except linkbrakes.Braked as error:
        return braked(request, error, token=token)
    except LinkRefused as error:
        return refusal(request, error.message, token=token)
    _language(request, link.tournament)
    game = get_game(link.tournament.game)
    phone = game.offers("table_page")
    if phone and request.method == "POST" and closed_reason(link.tournament):
        # a finished or archived tournament: nothing sent is read or counted; the page says why
        logger.info("table link closed (%s): nothing recorded", hint_of(token))
        return redirect(request.path)
    if phone:
        if sending:
            try:
                linkbrakes.check_taken(link)
            except linkbrakes.Braked as error:
                return braked(request, error, token=token)
            response = _send(request, link, game, token=token, address=address)
        else:
            response = game.table_page(request, link, token=token)
        if response.status_code >= 400:  # a refused list: logged here with the hint, not by Django in full
            response._has_been_logged = True
            logger.info("table list refused (%s): status %s", hint_of(token), response.status_code)
        return response
    return refusal(request, _("Tables cannot send their results from a phone in this game yet: bring the paper "
                              "sheet to the referee table."), token=token, status=404)


def _send(request, link, game, *, token: str, address: str):
    """A send read by the game's page (or a photo alone): taken, it counts on the link's quota; else it counts as
    refused against its address, a send that failed while it was read too."""
    try:
        action = request.POST.get("action")
        if action == PHOTO_ACTION:
            response = photo_response(request, link)
        else:
            response = game.table_page(request, link, token=token)
    except BaseException:
        linkbrakes.note_refused(link, address)
        raise
    if getattr(response, "send_taken", False):
        linkbrakes.accept_send(link)
        if action not in (PHOTO_ACTION, "problem") and photo_sent(request):
            keep_photo(request, link, with_send=True)  # the list is kept first, whatever becomes of the photo
    else:
        linkbrakes.note_refused(link, address)
    return response
