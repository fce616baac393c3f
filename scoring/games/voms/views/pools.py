"""The pool draw and the schedule it makes."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from tournament.models import Match
from tournament.permissions import DirectorRequiredMixin, ScoreEntryMixin
from tournament.services.errors import DomainError

from .. import queries
from ..forms import DrawForm
from ..services.pools import draw_pools
from ..standings import pool_tables
from ..text import with_note
from .common import fail, url


class DrawView(DirectorRequiredMixin, FormView):
    template_name = "voms/draw.html"
    form_class = DrawForm

    def get_initial(self):
        return {"pools": queries.settings_of(self.tournament)["pools"]}

    def form_valid(self, form):
        try:
            draw_pools(self.tournament, by=self.request.user, **form.cleaned_data)
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Pools drawn."))
        return redirect(url(self.tournament, "draw"))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            tables=pool_tables(self.tournament),
            seed=queries.lot_seed(self.tournament),
            locked=queries.play_started(self.tournament),
            without_pool=queries.teams_without_pool(self.tournament),
        )
        return context


class ScheduleView(ScoreEntryMixin, TemplateView):
    template_name = "voms/schedule.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        stage = queries.pools_stage(self.tournament)
        rounds = []
        if stage:
            matches = Match.objects.filter(stage=stage).select_related("round", "pool", "team_a", "team_b", "sheet")
            state = queries.pool_state(self.tournament, stage)
            by_round = {}
            for m in matches:
                result = state.result(m.pk)
                m.name_a = with_note(str(m.team_a), state.marks, m.team_a_id)
                m.name_b = with_note(str(m.team_b), state.marks, m.team_b_id) if m.team_b else ""
                m.decided = ""
                if result is not None and result.disqualified:
                    m.decided = (_("void") if result.outcome == "void" else
                                 f"{result.game.lus_a} : {result.game.lus_b} ({_('forfeit')})")
                by_round.setdefault(m.round, []).append(m)
            rounds = sorted(by_round.items(), key=lambda item: item[0].number)
        context.update(rounds=rounds, seed=queries.lot_seed(self.tournament))
        return context
