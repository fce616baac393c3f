"""The director's prize tick for a player who did not play every round, for any seated game.

A game mounts `PrizeEligibilityView` under its own name and says where to go back to (`back_url`); the page that
lists the players (Schafkopf: the standings) posts a participant's id, the tick and an optional reason.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import View

from tournament.models import Participant
from tournament.permissions import DirectorRequiredMixin
from tournament.services.errors import DomainError
from tournament.services.text import MAX_REASON

from .withdrawals import set_prize_eligible


class PrizeEligibilityForm(forms.Form):
    participant = forms.IntegerField(widget=forms.HiddenInput)
    eligible = forms.BooleanField(label=gettext_lazy("Eligible for a prize"), required=False)
    reason = forms.CharField(label=gettext_lazy("Reason"), required=False, max_length=MAX_REASON)


class PrizeEligibilityView(DirectorRequiredMixin, View):
    """POST only: tick (or untick) one player eligible for a prize, then back to the page that asked."""

    http_method_names = ["post"]

    def back_url(self) -> str:
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        form = PrizeEligibilityForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("The tick was not saved: %(problem)s")
                           % {"problem": " ".join(str(e) for errors in form.errors.values() for e in errors)})
            return redirect(self.back_url())
        player = get_object_or_404(Participant, tournament=self.tournament, pk=form.cleaned_data["participant"])
        eligible = form.cleaned_data["eligible"]
        try:
            set_prize_eligible(player, eligible, by=request.user, reason=form.cleaned_data["reason"])
        except DomainError as error:
            messages.error(request, error.message)
            return redirect(self.back_url())
        message = (_("%(player)s is eligible for a prize.") if eligible
                   else _("%(player)s is not eligible for a prize: the prize goes to the next eligible player."))
        messages.success(request, message % {"player": f"{player.number} {player.name}"})
        return redirect(self.back_url())
