"""The page where the director withdraws a Voms team that leaves early from a pool round on (or undoes it);
linked from the team's page at the registration desk. Each change is confirmed on a page that says what happens
(`tournament.views.confirm`)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.generic import TemplateView

from tournament.models import Team
from tournament.permissions import DirectorRequiredMixin
from tournament.services.errors import DomainError
from tournament.views.confirm import confirmation_page, confirmed

from .. import queries
from ..services import withdrawal
from ..text import withdrawn_note


class WithdrawForm(forms.Form):
    from_round = forms.TypedChoiceField(label=gettext_lazy("Withdrawn from round"), coerce=int, choices=(),
                                        widget=forms.Select(attrs={"autofocus": True}))

    def __init__(self, *args, rounds: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["from_round"].choices = [(n, str(n)) for n in rounds]


def effect_text(effect: withdrawal.WithdrawalEffect) -> str:
    """What a withdrawal does, in words, for its confirmation."""
    parts = []
    if effect.standing_rounds:
        parts.append(ngettext("Its result of round %(last)s stands.", "Its results of rounds 1 to %(last)s stand.",
                              effect.standing_rounds) % {"last": effect.standing_rounds})
    games = ", ".join(_("%(team)s (round %(round)s)") % {"team": f.opponent, "round": f.round}
                      for f in effect.forfeits)
    if effect.forfeits:
        parts.append(ngettext(
            "From round %(round)s on, its %(count)s game counts 9:0 for the opponent, without a slip: %(games)s.",
            "From round %(round)s on, its %(count)s games count 9:0 for the opponents, without a slip: %(games)s.",
            len(effect.forfeits)) % {"round": effect.from_round, "count": len(effect.forfeits), "games": games})
    typed = sum(f.typed for f in effect.forfeits)
    if typed:
        parts.append(ngettext(
            "%(count)s slip typed for these games no longer counts (it stays in the history; undoing the "
            "withdrawal restores it).",
            "%(count)s slips typed for these games no longer count (they stay in the history; undoing the "
            "withdrawal restores them).", typed) % {"count": typed})
    parts.append(_("The team is shown as “%(mark)s” on every list, printout and public page.")
                 % {"mark": withdrawn_note(effect.from_round)})
    return " ".join(parts)


class WithdrawView(DirectorRequiredMixin, TemplateView):
    template_name = "voms/withdraw.html"

    def team(self) -> Team:
        return get_object_or_404(Team, tournament=self.tournament, pk=self.kwargs["team"])

    def back_url(self, team) -> str:
        return reverse("tournament:desk_entry", args=[self.tournament.slug, team.pk])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        team = kwargs.get("current") or self.team()
        rounds = withdrawal.pool_round_numbers(self.tournament)
        stage = queries.pools_stage(self.tournament)
        current = queries.current_round(stage) if stage else None
        initial = team.withdrawn_from_round or (current.number if current else None)
        state = queries.pool_state(self.tournament, stage)
        context.update(
            team=team, rounds=rounds, mark=state.marks.get(team.pk, ""),
            form=kwargs.get("form") or WithdrawForm(rounds=rounds, initial={"from_round": initial}),
            back_url=self.back_url(team),
            title=_("%(team)s leaves early") % {"team": team.name},
        )
        return context

    def post(self, request, *args, **kwargs):
        team = self.team()
        if request.POST.get("action") == "undo":
            return self.undo(team)
        rounds = withdrawal.pool_round_numbers(self.tournament)
        form = WithdrawForm(request.POST, rounds=rounds)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(current=team, form=form))
        from_round = form.cleaned_data["from_round"]
        try:
            if not confirmed(request):
                withdrawal.check_withdrawal(team, from_round, by=request.user)  # refused before it is asked
                return confirmation_page(
                    request, tournament=self.tournament, cancel_url=request.path,
                    question=_("Withdraw %(team)s from round %(round)s on?") % {"team": team.name,
                                                                               "round": from_round},
                    explanation=effect_text(withdrawal.withdrawal_effect(team, from_round)),
                    confirm_label=_("Yes, withdraw the team"))
            withdrawal.withdraw_team(team, by=request.user, from_round=from_round)
        except DomainError as error:
            form.add_error("from_round" if error.field == "from_round" else None, error.message)
            return self.render_to_response(self.get_context_data(current=team, form=form))
        messages.success(request, _("%(team)s is withdrawn from round %(round)s on: its games from then on count 9:0 "
                                    "for the opponents.") % {"team": team.name, "round": from_round})
        return redirect(self.back_url(team))

    def undo(self, team):
        request = self.request
        try:
            if team.withdrawn_from_round is None:
                return redirect(request.path)
            if not confirmed(request):
                withdrawal.check_withdrawal(team, None, by=request.user)
                return confirmation_page(
                    request, tournament=self.tournament, cancel_url=request.path,
                    question=_("Undo the withdrawal of %(team)s?") % {"team": team.name},
                    explanation=_("The team plays on from round %(round)s: the slips typed for its games from then "
                                  "on count again, and its games without a slip wait for one again.")
                    % {"round": team.withdrawn_from_round},
                    confirm_label=_("Yes, undo the withdrawal"))
            withdrawal.undo_withdrawal(team, by=request.user)
        except DomainError as error:
            messages.error(request, error.message)
            return redirect(request.path)
        messages.success(request, _("%(team)s plays on: the withdrawal is undone.") % {"team": team.name})
        return redirect(self.back_url(team))
