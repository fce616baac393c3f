"""The hall page: whether phones and other laptops can reach this computer, the switch, the addresses, the poster.

The switch is the installation's director's (a superuser's), on the computer that runs the app: it stores the
choice and restarts the server (config.serving), which then listens on every address of this computer or on
loopback only. Meanwhile the browser shows a page that asks the server (hall:state) until it answers with the
new choice, then opens the hall page again.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin, UserPassesTestMixin
from django.http import HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from config import serving
from documents.qr import qr_svg
from documents.response import document_response

from ..hall import phone_addresses, poster_document, poster_frame
from .setup import from_this_computer


class InstallationDirectorMixin(LoginRequiredMixin, UserPassesTestMixin):
    """The installation's director: the superuser the set-up made (a tournament's director may not restart the
    server that all tournaments share). Others logged in get 403."""

    def test_func(self):
        return self.request.user.is_superuser


class HallView(InstallationDirectorMixin, View):
    template_name = "tournament/hall.html"

    def get(self, request):
        addresses = phone_addresses(request) if settings.HALL else []
        context = {"hall": settings.HALL, "addresses": addresses, "here": from_this_computer(request),
                   "qr": qr_svg(addresses[0], title=addresses[0]) if addresses else None}
        return render(request, self.template_name, context)

    def post(self, request):
        wanted = request.POST.get("hall") == "on"
        if not from_this_computer(request):
            # from another laptop, "only this computer" would shut the sender out in the middle of the switch
            return HttpResponseForbidden(_("The hall is switched on the computer that runs the tournament manager."))
        if wanted == settings.HALL:
            return redirect("hall:page")
        try:
            serving.set_hall(wanted)
            restarting = serving.request_restart()
        except OSError as error:  # the data folder cannot be written
            messages.error(request, _("The switch could not be made here (%(error)s). Start the program with "
                                      "“tournament-manager serve --hall” instead.") % {"error": error})
            return redirect("hall:page")
        if not restarting:
            # not served by `tournament-manager`/`manage.py serve` (e.g. gunicorn on a server): nothing restarts it
            messages.warning(request, _("The choice is saved for the next start, but this server cannot restart "
                                        "itself: stop the program and start it again."))
            return redirect("hall:page")
        return render(request, "tournament/hall_restart.html", {"wanted": wanted})


class HallStateView(View):
    """What the waiting page asks until the restarted server answers: whether it lets the hall in. Open to all:
    it tells nothing but that, and a session may be gone across the restart."""

    def get(self, request):
        return JsonResponse({"hall": settings.HALL}, headers={"Cache-Control": "no-store"})


class HallPosterView(InstallationDirectorMixin, View):
    """The hall poster (A4 PDF): the address phones open, its QR code, one line in three languages."""

    def get(self, request):
        addresses = phone_addresses(request) if settings.HALL else []
        if not addresses:
            messages.error(request, _("There is no hall poster while only this computer can open the app."))
            return redirect("hall:page")
        return document_response(request, poster_document(addresses[0]), "pdf", tournament=poster_frame())
