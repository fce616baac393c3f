"""The knockout page: built from the pool standings, with the bracket as it stands."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView

from tournament.draw.pools import pool_name
from tournament.models import Team
from tournament.permissions import DirectorRequiredMixin
from tournament.services.errors import DomainError

from .. import queries
from ..forms import KnockoutForm, semifinal_choices
from ..services.knockout import create_knockout
from ..standings import pool_tables, qualifiers_from
from .common import fail, pool_count, url


class KnockoutView(DirectorRequiredMixin, FormView):
    template_name = "voms/knockout.html"
    form_class = KnockoutForm

    def get_initial(self):
        s = queries.settings_of(self.tournament)
        stage = queries.knockout_stage(self.tournament)
        built = {k: v for k, v in (stage.settings if stage else {}).items() if v is not None}
        return {k: built.get(k, s[k]) for k in ("qualifiers_per_pool", "third_place", "semifinal")}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "built": queries.knockout_stage(self.tournament) is not None,
                "pools": pool_count(self.tournament)}

    def form_valid(self, form):
        d = form.cleaned_data
        tables = pool_tables(self.tournament)
        if not tables:
            form.add_error(None, _("Draw the pools first."))
            return self.form_invalid(form)
        if not all(t.complete for t in tables) and not self.request.POST.get("force"):
            form.add_error(None, _("Not every pool game has a result yet. Tick “build anyway” to continue."))
            return self.form_invalid(form)
        qualifiers = qualifiers_from(tables, d["qualifiers_per_pool"])
        try:
            create_knockout(self.tournament, by=self.request.user, qualifiers=qualifiers,
                                     third_place=d["third_place"], semifinal=d["semifinal"],
                                     qualifiers_per_pool=d["qualifiers_per_pool"],
                                     confirm_rebuild=d.get("confirm_rebuild", False))
        except DomainError as error:
            fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Knockout built."))
        return redirect(url(self.tournament, "knockout"))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        bracket = queries.knockout_rounds(self.tournament)
        stage = queries.knockout_stage(self.tournament)
        origins = team_origins(stage) if stage else {}
        for _name, matches in bracket:
            for m in matches:
                m.origin_a, m.origin_b = origins.get(m.team_a_id, ""), origins.get(m.team_b_id, "")
        tables = pool_tables(self.tournament)
        context.update(bracket=bracket, built=built_with(stage) if stage else None,
                       winner=knockout_winner(self.tournament, bracket),
                       played=queries.knockout_played(self.tournament),
                       # "build anyway" only while a pool game still has no result: else it only makes one wonder
                       pools_incomplete=not tables or not all(t.complete for t in tables))
        return context


def team_origins(stage) -> dict[int, str]:
    """Where each knockout team came from: its pool and place ("A1", "C2")."""
    return {team: f"{pool_name(pool)}{place}" for pool, place, team in stage.settings.get("qualifiers", [])}


def built_with(stage) -> list[tuple[str, str]]:
    """The options the knockout was built with, to show before it is rebuilt."""
    s = stage.settings
    semifinal = dict(semifinal_choices(pool_count(stage.tournament)))
    rows = [(_("Qualified teams"), ", ".join(sorted(team_origins(stage).values())))]
    if s.get("qualifiers_per_pool"):
        rows.insert(0, (_("Teams per pool in the knockout"), str(s["qualifiers_per_pool"])))
    rows += [(_("Semifinal"), str(semifinal.get(s.get("semifinal"), ""))),
             (_("Play a match for third place"), _("yes") if s.get("third_place") else _("no"))]
    return rows


def knockout_winner(tournament, bracket) -> Team | None:
    """The winner of the final, once it is decided."""
    for _name, matches in bracket:
        for m in matches:
            sheet = getattr(m, "sheet", None)
            if m.key == "F" and sheet is not None and sheet.derived.get("finished"):
                return m.team_a if sheet.derived["winner"] == "a" else m.team_b
    return None
