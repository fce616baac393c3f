"""Players without a partner, partners by lot, and the import of a registration list."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.generic import TemplateView

from tournament.permissions import DirectorRequiredMixin
from tournament.services.errors import DomainError
from tournament.views.replay import ReplayGuard

from .. import queries
from ..forms import ImportForm, IndividualForm
from ..services.teams import draw_partners, import_teams, register_individual
from .common import url


class TeamsView(DirectorRequiredMixin, ReplayGuard, TemplateView):
    """Players without a partner (paired by lot) and the import of a registration list.

    Teams are registered, corrected and checked in at the registration desk (`tournament/views/desk.py`).
    """

    template_name = "voms/teams.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        context.setdefault("individual_form", IndividualForm(prefix="single"))
        context.setdefault("import_form", ImportForm(prefix="import"))
        context.update(
            singles=queries.players_without_team(t),
            drawn=queries.pools_stage(t) is not None,
        )
        return context

    def post(self, request, slug):
        action = request.POST.get("action")
        t = self.tournament
        try:
            if action == "single":
                form = IndividualForm(request.POST, prefix="single")
                if not form.is_valid():
                    return self.render_to_response(self.get_context_data(individual_form=form))
                player = register_individual(t, by=request.user, name=form.cleaned_data["name"],
                                                      sent=self.sent)
                messages.success(request, _("%(name)s registered without a partner.") % {"name": player.name})
            elif action == "partners":
                teams = draw_partners(t, by=request.user, sent=self.sent)
                messages.success(request, _("Partners drawn: %(count)s teams.") % {"count": len(teams)})
                return redirect(reverse("tournament:desk", args=[t.slug]))
            elif action == "import":
                form = ImportForm(request.POST, request.FILES, prefix="import", ask_duplicates=True)
                if not form.is_valid():
                    return self.render_to_response(self.get_context_data(import_form=form))
                upload = form.cleaned_data["file"]
                report = import_teams(t, upload.name, upload.read(), by=request.user, sent=self.sent,
                                               confirm_duplicates=form.confirmed)
                if report.held:  # the file is chosen again, with the box ticked
                    return self.render_to_response(self.get_context_data(
                        import_form=ImportForm(prefix="import", ask_duplicates=True), warnings=report.warnings))
                if not report.ok:
                    return self.render_to_response(self.get_context_data(import_form=form, rejected=report.rejected))
                messages.success(request, imported_message(report))
                return redirect(reverse("tournament:desk", args=[t.slug]))
        except DomainError as error:
            messages.error(request, error.message)
        return redirect(url(t, "teams"))


def imported_message(report) -> str:
    """What an import registered: teams with their players, or players without a partner."""
    players = len(report.created)
    if report.teams:
        return ngettext("%(teams)s team with %(players)s players imported.",
                        "%(teams)s teams with %(players)s players imported.",
                        report.teams) % {"teams": report.teams, "players": players}
    return _("%(count)s players imported.") % {"count": players}
