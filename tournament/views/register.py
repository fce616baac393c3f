"""The player register's pages (the club's directors only): the list, one person, the suggestions the desk asks
for. Each shows the register of the club of the address (/c/<club>/…) if the user directs in it, else of the club
the user directs in (`tenancy.organisation_of`), nothing of another."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import AccessMixin
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from ..clubaddress import requested_club
from ..federation_forms import MemberNumberForm
from ..models import Participant, Person
from ..season_forms import MergeForm, PersonForm
from ..services import federation, register
from ..services.errors import DomainError
from ..services.seasons import season_table
from ..tenancy import administered_federation, directs_in, organisation_of


class RegisterKeeperMixin(AccessMixin):
    """The club's directors keep its register (`self.club`, `self.register`); others get 404. The club is the one
    of the address (/c/<club>/…: a desk's suggestions come from its tournament's club), else the club the user
    directs in."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.club = requested_club(request) or organisation_of(request.user)
        if self.club is None or not directs_in(request.user, self.club):
            raise Http404
        self.register = Person.objects.of(self.club)
        return super().dispatch(request, *args, **kwargs)


def _fail(form, error: DomainError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


class RegisterListView(RegisterKeeperMixin, TemplateView):
    template_name = "tournament/register/list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = self.request.GET.get("q", "").strip()[:100]
        people = register.suggest(query, organisation=self.club, limit=500) if query else self.register
        page = Paginator(people, 100).get_page(self.request.GET.get("page"))
        context.update(query=query, page=page, form=kwargs.get("form") or PersonForm(),
                       federation=administered_federation(self.request.user))
        return context

    def post(self, request, *args, **kwargs):
        form = PersonForm(request.POST)
        if form.is_valid():
            try:
                person = register.create_person(by=request.user, organisation=self.club, **form.cleaned_data)
            except DomainError as error:
                _fail(form, error)
            else:
                messages.success(request, _("%(name)s added to the register.") % {"name": person.name})
                return redirect(person)
        return self.render_to_response(self.get_context_data(form=form))


class PersonView(RegisterKeeperMixin, TemplateView):
    template_name = "tournament/register/person.html"

    def person(self):
        return get_object_or_404(self.register, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        person = kwargs.get("current") or self.person()
        participations = (Participant.objects.filter(person=person).select_related("tournament__season__organisation")
                          .order_by("-tournament__date"))
        seasons = {p.tournament.season for p in participations if p.tournament.season_id}
        stats = []
        for season in sorted(seasons, key=lambda s: s.name):
            row = next((r for r in season_table(season).rows if r.person.pk == person.pk), None)
            if row is not None:
                stats.append((season, row))
        context.update(person=person, participations=participations, stats=stats,
                       form=kwargs.get("form") or PersonForm(instance=person),
                       merge_form=kwargs.get("merge_form") or MergeForm(),
                       # a club of a federation links its entries to the federation's members (none on a laptop)
                       federation=self.club.federation,
                       member_form=kwargs.get("member_form") or MemberNumberForm())
        return context

    def federation_action(self, person, action: str):
        """Link the entry to a federation member by number, ask the federation for a number, or unlink it."""
        if action == "member":
            form = MemberNumberForm(self.request.POST)
            if form.is_valid():
                try:
                    member = federation.link_entry(person, form.cleaned_data["number"], by=self.request.user)
                except DomainError as error:
                    form.add_error("number", error.message)
                    form.focus_first_error()
                else:
                    messages.success(self.request, _("Linked to the federation's member %(number)s %(name)s.")
                                     % {"number": member.number, "name": member.name})
                    return redirect(person)
            return self.render_to_response(self.get_context_data(current=person, member_form=form))
        try:
            if action == "request_number":
                federation.request_number(person, by=self.request.user)
                messages.success(self.request, _("The federation is asked for a member number."))
            else:
                federation.unlink_entry(person, by=self.request.user)
                messages.success(self.request, _("Changes saved."))
        except DomainError as error:
            messages.error(self.request, error.message)
        return redirect(person)

    def post(self, request, *args, **kwargs):
        person = self.person()
        if request.POST.get("action") in ("member", "request_number", "unlink_member"):
            return self.federation_action(person, request.POST["action"])
        if request.POST.get("action") == "merge":
            form = MergeForm(request.POST)
            if form.is_valid():
                other = self.register.filter(pk=form.cleaned_data["other"]).first()
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
        form = PersonForm(request.POST, instance=self.register.get(pk=person.pk))
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
        found = register.suggest(request.GET.get("q", ""), organisation=self.club)
        return JsonResponse({"people": [
            {"id": p.pk, "first_name": p.first_name, "last_name": p.last_name, "club": p.club,
             "label": str(p)} for p in found]})
