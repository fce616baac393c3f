"""The audit log of one tournament for its directors: who changed what, when, before, after and why."""

import json

import django_tables2 as tables
from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from ..models import AuditEntry
from ..permissions import DirectorRequiredMixin


def _as_text(value) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


class JSONColumn(tables.Column):
    """Before/after values as compact JSON, readable and searchable on the page."""

    def render(self, value):
        return format_html('<code class="json">{}</code>', _as_text(value))


class AuditTable(tables.Table):
    when = tables.DateTimeColumn(verbose_name=_("When"), format="Y-m-d H:i:s")
    user = tables.Column(verbose_name=_("Who"), accessor="user__username", order_by="user__username")
    action = tables.Column(verbose_name=_("Action"))
    object_repr = tables.Column(verbose_name=_("Object"))
    before = JSONColumn(verbose_name=_("Before"), orderable=False)
    after = JSONColumn(verbose_name=_("After"), orderable=False)
    reason = tables.Column(verbose_name=_("Why"), orderable=False)

    class Meta:
        model = AuditEntry
        fields = ("when", "user", "action", "object_repr", "before", "after", "reason")
        order_by = ("-when",)
        attrs = {"class": "grid audit"}
        empty_text = _("No entries match.")


class AuditFilterForm(forms.Form):
    action = forms.ChoiceField(label=_("Action"), required=False)
    user = forms.ChoiceField(label=_("Who"), required=False)
    q = forms.CharField(label=_("Search"), required=False, max_length=100)

    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        actions = entries.order_by("action").values_list("action", flat=True).distinct()
        self.fields["action"].choices = [("", _("All actions"))] + [(a, a) for a in actions]
        user_ids = entries.exclude(user=None).values("user")
        users = get_user_model()._default_manager.filter(pk__in=user_ids).order_by("username")
        self.fields["user"].choices = [("", _("Everybody"))] + [(str(u.pk), u.get_username()) for u in users]

    def apply(self, entries):
        if not self.is_bound:
            return entries
        if not self.is_valid():
            return entries.none()  # a filter that cannot apply must not look like "everything matched"
        data = self.cleaned_data
        if data["action"]:
            entries = entries.filter(action=data["action"])
        if data["user"]:
            entries = entries.filter(user_id=data["user"])
        text = data["q"].strip()
        if text:
            entries = entries.filter(
                Q(action__icontains=text) | Q(object_repr__icontains=text) | Q(reason__icontains=text)
                | Q(user__username__icontains=text) | Q(before__icontains=text) | Q(after__icontains=text)
            )
        return entries


class AuditLogView(DirectorRequiredMixin, SingleTableMixin, TemplateView):
    template_name = "tournament/audit.html"
    table_class = AuditTable
    table_pagination = {"per_page": 50}

    def get(self, request, *args, **kwargs):
        # The page size is fixed: django-tables2 would take ?per_page=0 or -1 and its paginator fail (a 500).
        if "per_page" in request.GET:
            request.GET = request.GET.copy()
            del request.GET["per_page"]
        return super().get(request, *args, **kwargs)

    def get_filter_form(self) -> AuditFilterForm:
        if not hasattr(self, "_filter_form"):
            entries = AuditEntry.objects.filter(tournament=self.tournament)
            self._filter_form = AuditFilterForm(self.request.GET or None, entries=entries)
        return self._filter_form

    def get_table_data(self):
        entries = AuditEntry.objects.filter(tournament=self.tournament).select_related("user")
        return self.get_filter_form().apply(entries)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["filter_form"] = self.get_filter_form()
        context["filtered"] = bool(self.request.GET.get("action") or self.request.GET.get("user")
                                   or self.request.GET.get("q"))
        return context
