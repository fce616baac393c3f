"""The player register's pages (directors only): the list, one person, the suggestions the desk asks for."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import AccessMixin
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from ..models import Participant, Person
from ..permissions import can_create_tournaments
from ..season_forms import MergeForm, PersonForm
from ..services import register
from ..services.errors import DomainError
from ..services.seasons import season_table


class RegisterKeeperMixin(AccessMixin):
    """Directors (anyone who may create tournaments) keep the register; others get 404."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not can_create_tournaments(request.user):
            raise Http404
        return super().dispatch(request, *args, **kwargs)


def _fail(form, error: DomainError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


class RegisterListView(RegisterKeeperMixin, TemplateView):
    template_name = "tournament/register/list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = self.request.GET.get("q", "").strip()[:100]
        people = register.suggest(query, limit=500) if query else Person.objects.all()
        page = Paginator(people, 100).get_page(self.request.GET.get("page"))
        context.update(query=query, page=page, form=kwargs.get("form") or PersonForm())
        return context

    def post(self, request, *args, **kwargs):
        form = PersonForm(request.POST)
        if form.is_valid():
            try:
                person = register.create_person(by=request.user, **form.cleaned_data)
            except DomainError as error:
                _fail(form, error)
            else:
                messages.success(request, _("%(name)s added to the register.") % {"name": person.name})
                return redirect(person)
        return self.render_to_response(self.get_context_data(form=form))


class PersonView(RegisterKeeperMixin, TemplateView):
    template_name = "tournament/register/person.html"

    def person(self):
        return get_object_or_404(Person, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        person = kwargs.get("current") or self.person()
        participations = (Participant.objects.filter(person=person).select_related("tournament__season")
                          .order_by("-tournament__date"))
        seasons = {p.tournament.season for p in participations if p.tournament.season_id}
        stats = []
        for season in sorted(seasons, key=lambda s: s.name):
            row = next((r for r in season_table(season).rows if r.person.pk == person.pk), None)
            if row is not None:
                stats.append((season, row))
        context.update(person=person, participations=participations, stats=stats,
                       form=kwargs.get("form") or PersonForm(instance=person),
                       merge_form=kwargs.get("merge_form") or MergeForm())
        return context

    def post(self, request, *args, **kwargs):
        person = self.person()
        if request.POST.get("action") == "merge":
            form = MergeForm(request.POST)
            if form.is_valid():
                other = Person.objects.filter(pk=form.cleaned_data["other"]).first()
                if other is None:
                    form.add_error("other", _("There is no register entry with this number."))
                else:
                    try:
                        register.merge_persons(person, other, by=request.user, reason=form.cleaned_data["reason"])
                    except DomainError as error:
                        _fail(form, error)
                    else:
                        messages.success(request, _("%(other)s merged into %(name)s.")
                                         % {"other": other.name, "name": person.name})
                        return redirect(person)
            return self.render_to_response(self.get_context_data(current=person, merge_form=form))
        form = PersonForm(request.POST, instance=Person.objects.get(pk=person.pk))
        if form.is_valid():
            try:
                register.update_person(person, by=request.user, **form.cleaned_data)
            except DomainError as error:
                _fail(form, error)
            else:
                messages.success(request, _("Changes saved."))
                return redirect(person)
        return self.render_to_response(self.get_context_data(current=person, form=form))


class SuggestView(RegisterKeeperMixin, View):
    """The register's entries matching what the desk typed, as JSON for static/tournament/suggest.js."""

    def get(self, request, *args, **kwargs):
        found = register.suggest(request.GET.get("q", ""))
        return JsonResponse({"people": [
            {"id": p.pk, "first_name": p.first_name, "last_name": p.last_name, "club": p.club,
             "label": str(p)} for p in found]})
