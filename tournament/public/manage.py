"""Director pages for the public side: what is published (with the address and its QR code), the players' personal
links (replacing them all), and the round clock."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from documents.qr import qr_svg
from tournament.addresses import public_url
from tournament.models import Round
from tournament.permissions import DirectorRequiredMixin
from tournament.services import clock
from tournament.services.errors import DomainError
from tournament.services.publishing import flag, published_kinds, set_publication
from tournament.views.confirm import confirmation_page, confirmed

from .evening_links import reissue_evening_links
from .forms import PublicationForm, SlotForm
from .views import PAGE_NAMES, content_of


def game_kinds(tournament) -> tuple[str, ...]:
    """The kinds of public page the tournament's game has (none for a game without public pages)."""
    try:
        return content_of(tournament).kinds
    except Http404:
        return ()


class PublicSettingsView(DirectorRequiredMixin, FormView):
    template_name = "public/manage/settings.html"
    form_class = PublicationForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "kinds": game_kinds(self.tournament)}

    def get_initial(self):
        t = self.tournament
        return {"beamer_seconds": t.beamer_seconds, **{flag(kind): getattr(t, flag(kind)) for kind in game_kinds(t)}}

    def form_valid(self, form):
        try:
            set_publication(self.tournament, by=self.request.user, kinds=form.published(),
                            beamer_seconds=form.cleaned_data["beamer_seconds"])
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Public pages saved."))
        return redirect("tournament:public", slug=self.tournament.slug)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        published = published_kinds(t)
        url = public_url(t, "index", self.request)
        pages = [("index", url)] + [(kind, public_url(t, kind, self.request)) for kind in published
                                    if kind in game_kinds(t)]
        if "schedule" in published:
            pages.insert(1, ("seat", public_url(t, "seat", self.request)))
        context.update(
            has_public=bool(game_kinds(t)),
            public_url=url,
            # a loopback address reaches this computer only: no phone can open it or its QR code
            local_only=urlsplit(url).hostname in ("127.0.0.1", "localhost", "::1"),
            qr=qr_svg(url, title=url),
            live_pages=[(PAGE_NAMES.get(page, t.name), link) for page, link in pages] if published else [],
            beamer_url=public_url(t, "beamer", self.request) if published else "",
        )
        return context


class EveningLinksView(DirectorRequiredMixin, View):
    """Replace every player's personal link at once (after confirming): the old links open nothing any more. The
    button is on the public pages' settings, where a GET goes back to."""

    def back(self) -> str:
        return reverse("tournament:public", args=[self.tournament.slug]) + "#evening-links"

    def get(self, request, slug):
        return redirect(self.back())

    def post(self, request, slug):
        back = self.back()
        if not confirmed(request):
            return confirmation_page(
                request, tournament=self.tournament,
                question=_("Replace every player's personal link?"),
                explanation=_("The links and QR codes printed or shown so far open nothing any more. Find my seat "
                              "shows the new ones at once; print the participant cards again to hand them out."),
                confirm_label=_("Yes, replace all personal links"), cancel_url=back)
        try:
            reissue_evening_links(self.tournament, by=request.user)
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Every personal link was replaced."))
        return redirect(back)


class ClockView(DirectorRequiredMixin, TemplateView):
    """Start, pause, resume and reset each round's clock; set a round's slot length."""

    template_name = "public/manage/clock.html"
    ACTIONS = {"start": clock.start_clock, "pause": clock.pause_clock, "resume": clock.resume_clock,
               "reset": clock.reset_clock}

    def rounds(self):
        return Round.objects.filter(stage__tournament=self.tournament).select_related("stage").order_by(
            "stage__order", "stage__pk", "number")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        try:
            content = content_of(self.tournament)
        except Http404:
            content = None
        now = timezone.now()
        rows = []
        for round_ in self.rounds():
            slot = content.slot_minutes(round_) if content else round_.slot_minutes
            state = clock.state_of(round_, slot, now=now)
            shown = state.remaining if state.remaining is not None else state.elapsed
            rows.append({"round": round_, "slot": slot, "state": state, "text": clock.format_seconds(shown)})
        current = clock.clock_round(self.tournament)
        context.update(rows=rows, current=current)
        return context

    def post(self, request, slug):
        round_pk = request.POST.get("round", "")
        if not (round_pk.isascii() and round_pk.isdigit() and len(round_pk) < 19):  # a tampered form
            raise Http404
        round_ = get_object_or_404(Round.objects.select_related("stage__tournament"), pk=int(round_pk),
                                   stage__tournament=self.tournament)
        action = request.POST.get("action")
        try:
            if action == "slot":
                form = SlotForm(request.POST)
                if not form.is_valid():
                    raise DomainError(_("A slot lasts between 1 and 600 minutes."))
                clock.set_slot_minutes(round_, form.cleaned_data["minutes"], by=request.user)
            elif action == "reset" and not confirmed(request):
                return confirmation_page(
                    request, tournament=self.tournament,
                    question=_("Reset the clock of round %(round)s?") % {"round": round_.number},
                    explanation=_("The time played so far in this round is forgotten; the clock shows the round "
                                  "as not started until it is started again."),
                    confirm_label=_("Yes, reset the clock"),
                    cancel_url=reverse("tournament:clock", args=[self.tournament.slug]) + f"#round-{round_.pk}",
                )
            elif action in self.ACTIONS:
                self.ACTIONS[action](round_, by=request.user)
            else:
                raise Http404
        except DomainError as error:
            messages.error(request, error.message)
        return redirect(reverse("tournament:clock", args=[self.tournament.slug]) + f"#round-{round_.pk}")
