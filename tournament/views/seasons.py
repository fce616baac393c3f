"""The seasons' pages: the list, a new season, one season (ranking, statistics, evenings, settings), its files."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from documents.html import bind_table
from documents.response import file_response

from ..clubaddress import club_address, requested_club
from ..models import Tournament
from ..permissions import can_create_tournaments
from ..season_documents import ranking_document, render_season, season_chart_html, statistics_document
from ..season_forms import EveningForm, SeasonForm
from ..services import seasons
from ..services.errors import DomainError
from .confirm import confirmation_page, confirmed


def _fail(form, error: DomainError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


def settings_of_form(data: dict) -> dict:
    """The form's values as the service takes them (the points per place parsed)."""
    values = dict(data)
    values["place_points"] = seasons.parse_place_points(values.get("place_points") or "")
    return values


class SeasonListView(LoginRequiredMixin, FormView):
    template_name = "tournament/seasons/list.html"
    form_class = SeasonForm

    def get_initial(self):
        return SeasonForm.new_initial(self.request.LANGUAGE_CODE)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(seasons=seasons.visible_seasons(self.request.user).select_related("organisation")
                       .prefetch_related("tournaments"),
                       can_create=can_create_tournaments(self.request.user))
        return context

    def form_valid(self, form):
        try:
            season = seasons.create_season(by=self.request.user, **settings_of_form(form.cleaned_data))
        except DomainError as error:
            _fail(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("Season “%(name)s” created.") % {"name": season.name})
        return redirect(club_address(season))


class SeasonMixin(LoginRequiredMixin):
    """Loads `self.season`; anyone but its directors gets 404 (other seasons' existence is not revealed)."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.season = seasons.season_of(request.user, kwargs["season"], requested_club(request))
        if self.season is None:
            raise Http404
        return super().dispatch(request, *args, **kwargs)


class SeasonView(SeasonMixin, TemplateView):
    template_name = "tournament/seasons/detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        season = self.season
        table = seasons.season_table(season)
        ranking = ranking_document(table)
        context.update(
            season=season, table=table, ranking=ranking, ranking_table=bind_table(ranking),
            season_chart=season_chart_html(table),
            statistics_table=bind_table(statistics_document(table)),
            evening_form=kwargs.get("evening_form") or EveningForm(
                tournaments=seasons.candidate_evenings(season, self.request.user)),
            settings_form=kwargs.get("settings_form") or SeasonForm(editing=True, initial={
                "name": season.name, "language": season.language, "scoring": season.scoring,
                "place_points": " ".join(season.place_points), "best_of": season.best_of,
                "min_evenings": season.min_evenings}),
        )
        return context

    def post(self, request, *args, **kwargs):
        season, user = self.season, request.user
        action = request.POST.get("action")
        if action == "settings":
            form = SeasonForm(request.POST, editing=True)
            if form.is_valid():
                try:
                    seasons.update_season(season, by=user, **settings_of_form(form.cleaned_data))
                except DomainError as error:
                    _fail(form, error)
                else:
                    messages.success(request, _("Changes saved."))
                    return redirect(season)
            return self.render_to_response(self.get_context_data(settings_form=form))
        if action == "add":
            form = EveningForm(request.POST, tournaments=seasons.candidate_evenings(season, user))
            if form.is_valid():
                tournament = Tournament.objects.of(season.organisation_id).get(pk=form.cleaned_data["tournament"])
                try:
                    seasons.add_evening(season, tournament, by=user)
                except DomainError as error:
                    _fail(form, error)
                else:
                    messages.success(request, _("“%(name)s” is an evening of the season now.")
                                     % {"name": tournament.name})
                    return redirect(season)
            return self.render_to_response(self.get_context_data(evening_form=form))
        try:
            if action == "remove":
                tournament = get_object_or_404(Tournament.objects.of(season.organisation_id),
                                               pk=_int(request.POST.get("tournament")), season=season)
                if not confirmed(request):
                    return confirmation_page(
                        request, question=_("Remove “%(name)s” from the season?") % {"name": tournament.name},
                        explanation=_("Its results no longer count in the season ranking. The tournament itself "
                                      "is kept, and it can be added to the season again."),
                        confirm_label=_("Yes, remove it"), cancel_url=season.get_absolute_url())
                seasons.remove_evening(season, tournament, by=user)
                messages.success(request, _("“%(name)s” removed from the season.") % {"name": tournament.name})
            elif action in ("publish", "unpublish"):
                seasons.set_season_published(season, action == "publish", by=user)
                messages.success(request, _("Changes saved."))
            else:
                raise Http404
        except DomainError as error:
            messages.error(request, error.message)
        return redirect(season)


def _int(text) -> int:
    if not (isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= 18):
        raise Http404
    return int(text)


class SeasonFileView(SeasonMixin, View):
    """The ranking and statistics as PDF (opens in the browser; ?download=1 saves it) or Excel."""

    file_format = "pdf"

    def get(self, request, *args, **kwargs):
        return file_response(request, self.file_format, f"{self.season.slug}-season",
                             lambda: render_season(self.season, self.file_format))
