"""The federation's pages (/manage/federation/, its admins only; anyone else gets 404): its register of members,
the clubs' requests for a number, a member and the merge of another into it, its audit log, its seasons with their
ranking and PDF. A club's contacts never appear here: the federation reads its members' names and home clubs, and
of the clubs' entries their club and name."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import AccessMixin
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from documents.html import bind_table
from documents.response import file_response

from ..audit_labels import action_label
from ..federation_forms import AssignForm, MemberMergeForm
from ..models import AuditEntry, FederationMember
from ..season_documents import ranking_document, render_season, season_chart_html, statistics_document
from ..season_forms import SeasonForm
from ..services import federation
from ..services.errors import DomainError
from ..services.seasons import season_table
from ..tenancy import administered_federation
from .audit import readable_lines
from .seasons import settings_of_form

RECENT_ENTRIES = 100


class FederationAdminMixin(AccessMixin):
    """Loads `self.federation`, the one the user administers; anyone else gets 404."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.federation = administered_federation(request.user)
        if self.federation is None:
            raise Http404
        return super().dispatch(request, *args, **kwargs)


class FederationView(FederationAdminMixin, TemplateView):
    """The register: its members (found by number, name or home club) and the clubs' requests for a number."""

    template_name = "tournament/federation/home.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = self.request.GET.get("q", "").strip()[:100]
        members = federation.members_of(self.federation)
        for word in query.split()[:4]:
            condition = (Q(first_name__icontains=word) | Q(last_name__icontains=word)
                         | Q(home_club__name__icontains=word))
            if word.isdigit() and len(word) < 10:
                condition |= Q(number=int(word))
            members = members.filter(condition)
        context.update(federation=self.federation, query=query,
                       page=Paginator(members, 100).get_page(self.request.GET.get("page")),
                       requests=federation.number_requests(self.federation),
                       clubs=self.federation.clubs.order_by("name"))
        return context

    def post(self, request, *args, **kwargs):
        form = AssignForm(request.POST)
        entry = None
        if form.is_valid():
            entry = federation.number_requests(self.federation).filter(pk=form.cleaned_data["entry"]).first()
        if entry is None:
            raise Http404
        try:
            member = federation.assign_number(entry, by=request.user)
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("%(name)s has the member number %(number)s now.")
                             % {"name": member.name, "number": member.number})
        return redirect("federation:home")


class MemberView(FederationAdminMixin, TemplateView):
    """One member: number, name, home club, the clubs' entries linked to it; another member merged into it."""

    template_name = "tournament/federation/member.html"

    def member(self) -> FederationMember:
        return get_object_or_404(federation.members_of(self.federation), number=self.kwargs["number"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        member = kwargs.get("current") or self.member()
        retired = FederationMember.objects.filter(merged_into=member).order_by("number")
        context.update(federation=self.federation, member=member, entries=federation.entries_of(member),
                       retired=retired, merge_form=kwargs.get("merge_form") or MemberMergeForm())
        return context

    def post(self, request, *args, **kwargs):
        member = self.member()
        form = MemberMergeForm(request.POST)
        if form.is_valid():
            other = FederationMember.objects.filter(federation=self.federation,
                                                    number=form.cleaned_data["other"]).first()
            if other is None:
                form.add_error("other", _("There is no member with this number."))
            else:
                try:
                    federation.merge_members(member, other, by=request.user, reason=form.cleaned_data["reason"])
                except DomainError as error:
                    form.add_error(error.field if error.field in form.fields else None, error.message)
                else:
                    messages.success(request, _("Member %(other)s merged into %(number)s %(name)s; the number "
                                                "%(other)s is retired.")
                                     % {"other": other.number, "number": member.number, "name": member.name})
                    return redirect("federation:member", number=member.number)
        form.focus_first_error()
        return self.render_to_response(self.get_context_data(current=member, merge_form=form))


class FederationAuditView(FederationAdminMixin, TemplateView):
    """The federation's own log: numbers assigned, members merged, clubs joined, its seasons."""

    template_name = "tournament/federation/audit.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        entries = list(AuditEntry.objects.filter(federation=self.federation).select_related("user")
                       [:RECENT_ENTRIES])
        for entry in entries:
            entry.label = action_label(entry.action)
            entry.before_lines = readable_lines(entry.before)
            entry.after_lines = readable_lines(entry.after)
        context.update(federation=self.federation, entries=entries)
        return context


class FederationSeasonListView(FederationAdminMixin, FormView):
    template_name = "tournament/federation/seasons.html"
    form_class = SeasonForm

    def get_initial(self):
        return SeasonForm.new_initial(self.request.LANGUAGE_CODE)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(federation=self.federation,
                       seasons=self.federation.seasons.prefetch_related("tournaments"))
        return context

    def form_valid(self, form):
        try:
            season = federation.create_federation_season(self.federation, by=self.request.user,
                                                         **settings_of_form(form.cleaned_data))
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Season “%(name)s” created.") % {"name": season.name})
        return redirect(season)


class FederationSeasonMixin(FederationAdminMixin):
    """Loads `self.season`, a season of the federation the user administers; anyone else gets 404."""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            self.season = federation.federation_season_of(request.user, kwargs["fseason"])
            if self.season is None:
                raise Http404
        return super().dispatch(request, *args, **kwargs)


class FederationSeasonView(FederationSeasonMixin, TemplateView):
    """A federation season: its ranking (each member once across the clubs), its evenings and their clubs."""

    template_name = "tournament/federation/season.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = season_table(self.season)
        ranking = ranking_document(table)
        context.update(federation=self.federation, season=self.season, table=table, ranking=ranking,
                       ranking_table=bind_table(ranking), season_chart=season_chart_html(table),
                       statistics_table=bind_table(statistics_document(table)))
        return context

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        if action not in ("publish", "unpublish"):
            raise Http404
        federation.set_federation_season_published(self.season, action == "publish", by=request.user)
        messages.success(request, _("Changes saved."))
        return redirect(self.season)


class FederationSeasonFileView(FederationSeasonMixin, View):
    """The federation season's ranking and statistics as PDF (?download=1 saves it) or Excel."""

    file_format = "pdf"

    def get(self, request, *args, **kwargs):
        return file_response(request, self.file_format, f"{self.season.slug}-season",
                             lambda: render_season(self.season, self.file_format))
