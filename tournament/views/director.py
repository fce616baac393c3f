"""Director pages: list, create, edit, archive tournaments."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponseForbidden
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View
from django_tables2 import SingleTableMixin

from scoring.games import game_of

from ..clubaddress import club_address, several_clubs
from ..forms import TournamentForm
from ..models import Organisation
from ..permissions import (
    DirectorRequiredMixin,
    TournamentRoleRequiredMixin,
    can_create_tournaments,
    is_director,
    menu_for,
    visible_tournaments,
)
from ..services.errors import DomainError
from ..services.federation import join_federation_season, seasons_open_to
from ..services.push import club_server
from ..services.tournaments import create_tournament, set_archived, update_tournament
from ..tables import TournamentTable
from ..tenancy import organisation_of
from .confirm import confirmation_page, confirmed


def _form_error(form, error):
    """Put a service's refusal onto the form, so the page shows it and nothing is saved."""
    if isinstance(error, ValidationError):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(error.field if error.field in form.fields else None, error.message)


class TournamentListView(LoginRequiredMixin, SingleTableMixin, TemplateView):
    template_name = "tournament/list.html"
    table_class = TournamentTable
    table_pagination = {"per_page": 50}

    def show_archived(self) -> bool:
        return self.request.GET.get("archived") == "1"

    def get_table_data(self):
        mine = visible_tournaments(self.request.user).filter(archived=self.show_archived())
        return mine.select_related("organisation")  # each row's link carries its club (clubaddress.club_address)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["show_archived"] = self.show_archived()
        context["can_create"] = can_create_tournaments(self.request.user)
        return context


class TournamentCreateView(LoginRequiredMixin, FormView):
    template_name = "tournament/form.html"
    form_class = TournamentForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            return HttpResponseForbidden(_("You are not allowed to create tournaments."))
        return super().dispatch(request, *args, **kwargs)

    def get_initial(self):
        return {"language": self.request.LANGUAGE_CODE}

    def get_form_kwargs(self):
        """A server's superuser who works for no club chooses the club of the new tournament."""
        user = self.request.user
        if user.is_superuser and organisation_of(user) is None:
            return {**super().get_form_kwargs(), "clubs": Organisation.objects.order_by("name")}
        return super().get_form_kwargs()

    def form_valid(self, form):
        try:
            tournament = create_tournament(by=self.request.user, **form.cleaned_data)
        except (DomainError, ValidationError) as error:
            _form_error(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Tournament “%(name)s” created.") % {"name": tournament.name})
        return redirect(club_address(tournament))


class TournamentEditView(DirectorRequiredMixin, FormView):
    template_name = "tournament/form.html"
    form_class = TournamentForm

    def get_form_kwargs(self):
        kwargs = {**super().get_form_kwargs(), "instance": self.tournament}
        seasons = seasons_open_to(self.tournament)
        if self.tournament.federation_season_id or seasons.exists():  # a club of a federation with such seasons
            kwargs["federation_seasons"] = seasons
        return kwargs

    def form_valid(self, form):
        changes = {f: form.cleaned_data[f] for f in form.changed_data if not form.fields[f].disabled}
        league_changed = "federation_season" in changes
        league = changes.pop("federation_season", None)
        try:
            with transaction.atomic():
                tournament = update_tournament(self.tournament, by=self.request.user, **changes)
                if league_changed:
                    tournament = join_federation_season(tournament, league, by=self.request.user)
        except (DomainError, ValidationError) as error:
            _form_error(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Changes saved."))
        return redirect(tournament)


class TournamentArchiveView(DirectorRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request, slug):
        archive = request.POST.get("archived") == "1"
        if archive and not confirmed(request):
            return confirmation_page(
                request, tournament=self.tournament,
                question=_("Archive “%(name)s”?") % {"name": self.tournament.name},
                explanation=_("It disappears from the list of current tournaments; its public pages and results "
                              "stay. You can restore it from the archived tournaments at any time."),
                confirm_label=_("Yes, archive it"), cancel_url=self.tournament.get_absolute_url(),
            )
        tournament = set_archived(self.tournament, archive, by=request.user)
        if archive:
            messages.success(request, _("Tournament “%(name)s” archived.") % {"name": tournament.name})
        else:
            messages.success(request, _("Tournament “%(name)s” restored from the archive.") % {"name": tournament.name})
        return redirect("tournament:list")


class TournamentDetailView(TournamentRoleRequiredMixin, TemplateView):
    template_name = "tournament/detail.html"
    allowed_roles = ("director", "assistant")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        t = self.tournament
        context["game_menu"] = menu_for(self.request.user, t, game_of(t).menu(t))
        if is_director(self.request.user, t):
            context["club_server"] = club_server(t)
            # a laptop sends its evenings to the club's server; the server of several clubs is that server
            context["offers_club_server"] = context["club_server"] is not None or not several_clubs()
        return context
