"""The audit log of one tournament for its directors: who changed what, when, before, after and why.

Shown for a person, not a programmer: the action in words (tournament/audit_labels.py), the time in the
venue's zone (VenueTimeZoneMiddleware) in the language's short format, and before/after as "field: value"
lines; long values shortened, their whole text one keypress away. The stored keys and JSON stay as they are:
the filter and the search work on them (and on the words)."""

import json
import re
from decimal import Decimal

import django_tables2 as tables
from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Case, CharField, F, Q, Value, When
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.formats import date_format, number_format, sanitize_separators
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from ..audit_labels import (
    ValueWords,
    action_label,
    action_labels,
    field_label,
    fields_labelled,
    keys_labelled,
    object_text,
)
from ..models import AuditEntry
from ..permissions import DirectorRequiredMixin

#: characters of a value shown in the table; a longer one opens to its whole text
SHORT = 60
EMPTY = "–"
SAME = mark_safe(' class="same"')  # noqa: S308 - a constant
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
ISO_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
DECIMAL = re.compile(r"-?\d{1,15}\.(\d{1,10})")


def _when(text: str) -> str:
    """A date or time stored as ISO text (DjangoJSONEncoder), in the language's format and the active zone."""
    try:
        if ISO_DATE.fullmatch(text) and (day := parse_date(text)):
            return date_format(day, "SHORT_DATE_FORMAT")
        if ISO_DATETIME.match(text) and (moment := parse_datetime(text)):
            if timezone.is_aware(moment):
                moment = timezone.localtime(moment)
            return date_format(moment, "SHORT_DATETIME_FORMAT")
    except ValueError:  # looks like a date and is none ("2026-13-45", a name from an imported list): as it is
        pass
    return text


def _text(value, path: tuple[str, ...] = (), words=None) -> str:
    """One value as a line of text: lists joined, a dict's fields "name: value", known choices in words, dates
    in the language's format, nothing as a dash. `path`: the field names leading to the value (a seat's or a
    table's number is no field), `words`: the ValueWords of the entry's game."""
    value = (words or ValueWords())(path, value)
    if value is None or value == "":
        return EMPTY
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, dict):
        return ", ".join(f"{field_label(k)}: {_text(v, _inside(path, k), words)}"
                         for k, v in value.items()) if value else EMPTY
    if isinstance(value, list | tuple):
        nested = len(value) > 1  # several dicts or lists in a list: each in brackets
        parts = [f"({_text(v, path, words)})" if nested and isinstance(v, dict | list) and len(v) > 1
                 else _text(v, path, words) for v in value]
        return ", ".join(parts) if parts else EMPTY
    if isinstance(value, str):
        return _number(value) if DECIMAL.fullmatch(value) else _when(value)
    return str(value)


def _number(text: str) -> str:
    """An amount or points stored as a decimal's text ("15.00", DjangoJSONEncoder) in the language's format
    ("15,00" in German and Danish), its decimal places kept."""
    return number_format(Decimal(text), decimal_pos=len(DECIMAL.fullmatch(text).group(1)))


def _inside(path: tuple[str, ...], key) -> tuple[str, ...]:
    return path if str(key).isdigit() else (*path, str(key))


def readable_lines(value, words=None) -> list[tuple[str, str]]:
    """(field, value) lines of a before/after value; the field is "" where the value is not a dict."""
    if value is None:
        return []
    if isinstance(value, dict) and value:
        return [(field_label(k), _text(v, _inside((), k), words)) for k, v in value.items()]
    return [("", _text(value, (), words))]


def _shortened(text: str):
    if len(text) <= SHORT:
        return text
    cut = text[:SHORT].rsplit(" ", 1)[0] if " " in text[:SHORT] else text[:SHORT]
    return format_html('<details class="long"><summary>{}…</summary>{}</details>', cut, text)


def _list_html(value, words, greyed=frozenset(), shorten=True) -> str:
    """A value as an escaped <ul> of "field: value" lines; the fields in `greyed` (unchanged ones) greyed.
    Long values shortened unless `shorten` is false (inside a fold already: no <details> in a <details>)."""
    lines = readable_lines(value, words)
    keys = list(value) if isinstance(value, dict) and value else [None] * len(lines)
    return format_html('<ul class="changes">{}</ul>', format_html_join(
        "", "<li{}>{}{}</li>",
        ((SAME if key in greyed else "",
          format_html('<span class="field">{}:</span> ', field) if field else "",
          _shortened(text) if shorten else text)
         for key, (field, text) in zip(keys, lines, strict=True)),
    ))


class ChangesColumn(tables.Column):
    """Before or after, as short "field: value" lines. Where both sides are dicts, the fields that stayed the
    same are greyed, and folded away under "n unchanged" when there are many, so the change stands out."""

    FOLD = 3  # this many unchanged fields or more are folded away

    def __init__(self, *args, side: str, **kwargs):
        self.side = side
        super().__init__(*args, **kwargs)

    def render(self, value, record, table):
        words = table.value_words
        other = record.after if self.side == "before" else record.before
        if not (isinstance(value, dict) and isinstance(other, dict) and value):
            return _list_html(value, words)
        same = {k for k, v in value.items() if k in other and other[k] == v}
        if len(same) < self.FOLD:
            return _list_html(value, words, greyed=same)
        changed = {k: v for k, v in value.items() if k not in same}
        summary = ngettext("%(count)d unchanged", "%(count)d unchanged", len(same)) % {"count": len(same)}
        return format_html(
            '{}<details class="unchanged"><summary>{}</summary>{}</details>',
            _list_html(changed, words) if changed else "", summary,
            _list_html({k: value[k] for k in value if k in same}, words, shorten=False),
        )


class ActionColumn(tables.Column):
    """The action in words; the key stays in the filter's values, the search and the tooltip."""

    def render(self, value):
        return format_html('<span title="{}">{}</span>', value, action_label(value))

    def order(self, queryset, is_descending):
        by_label = Case(*(When(action=key, then=Value(str(label))) for key, label in action_labels().items()),
                        default=F("action"), output_field=CharField())
        queryset = queryset.annotate(action_label=by_label).order_by(
            ("-" if is_descending else "") + "action_label", ("-" if is_descending else "") + "when")
        return queryset, True


class ObjectColumn(tables.Column):
    """What the entry is about, in the reader's language as it was called then ("Tisch 4" to a German reader of
    an entry an English session wrote); an older entry shows its stored text. No object: the table's dash."""

    def render(self, value, record):
        return object_text(record)


def _cell(name: str) -> dict:
    return {"td": {"class": name}}


class AuditTable(tables.Table):
    # no fixed format: the language's SHORT_DATETIME_FORMAT, in the active (the venue's) time zone
    when = tables.DateTimeColumn(verbose_name=_("When"), attrs=_cell("when"))
    user = tables.Column(verbose_name=_("Who"), accessor="user__username", order_by="user__username",
                         attrs=_cell("user"))
    action = ActionColumn(verbose_name=_("Action"), attrs=_cell("action"))
    object_repr = ObjectColumn(verbose_name=_("Object"), attrs=_cell("object"))
    before = ChangesColumn(verbose_name=_("Before"), orderable=False, side="before", attrs=_cell("before"))
    after = ChangesColumn(verbose_name=_("After"), orderable=False, side="after", attrs=_cell("after"))
    reason = tables.Column(verbose_name=_("Why"), orderable=False, attrs=_cell("reason"))

    class Meta:
        model = AuditEntry
        fields = ("when", "user", "action", "object_repr", "before", "after", "reason")
        order_by = ("-when",)
        attrs = {"class": "grid audit"}
        empty_text = _("No entries match.")

    def __init__(self, *args, value_words: ValueWords | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        #: the stored values' words for this tournament's game, built once per page in the reader's language
        self.value_words = value_words or ValueWords()


class AuditFilterForm(forms.Form):
    action = forms.ChoiceField(label=_("Action"), required=False)
    user = forms.ChoiceField(label=_("Who"), required=False)
    q = forms.CharField(label=_("Search"), required=False, max_length=100)

    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        actions = entries.order_by("action").values_list("action", flat=True).distinct()
        labelled = sorted(((a, action_label(a)) for a in actions), key=lambda choice: choice[1].casefold())
        self.fields["action"].choices = [("", _("All actions"))] + labelled
        user_ids = entries.exclude(user=None).values("user")
        users = get_user_model()._default_manager.filter(pk__in=user_ids).order_by("username")
        self.fields["user"].choices = [("", _("Everybody"))] + [(str(u.pk), u.get_username()) for u in users]

    def apply(self, entries, words: ValueWords):
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
                Q(action__icontains=text) | Q(action__in=keys_labelled(text))
                | Q(object_repr__icontains=text) | _worded(entries, text, words) | Q(reason__icontains=text)
                | Q(user__username__icontains=text) | Q(before__icontains=text) | Q(after__icontains=text)
            )
        return entries


def _worded(entries, text: str, words: ValueWords) -> Q:
    """The entries whose object or stored values, as the page shows them in the reader's words, contain `text`:
    a German reader's "Tisch 4" finds an English session's "Table 4", "Rufspiel" a stored "ruf", "Spielart:
    Rufspiel" the entries holding that field with that value, "15,00" a stored 15.00. The values are found by the
    stored keys whose words match (a query, not a rendering of every entry: a search over 3,000 entries of a long
    evening took 8 s that way); words made by a function (prizes) are not searched. (Not the fields' names alone:
    "table" would find every tournament change by its "Table entries count at once".)"""
    needle = text.casefold()
    objects = entries.filter(object_ref__isnull=False).values_list("pk", "object_ref", "object_repr")
    found = Q(pk__in=[pk for pk, ref, stored in objects
                      if needle in object_text(AuditEntry(object_ref=ref, object_repr=stored)).casefold()])
    field_words, colon, value_words = needle.rpartition(":")
    fields = fields_labelled(field_words.strip()) if colon and field_words.strip() else [None]
    for value in words.stored_worded(value_words.strip()):
        for field in fields:
            for stored in _as_stored(value, field):
                found |= Q(before__icontains=stored) | Q(after__icontains=stored)
    number = sanitize_separators(text)
    if number != text and DECIMAL.fullmatch(number):
        found |= Q(before__icontains=number) | Q(after__icontains=number)
    return found


def _as_stored(value: str, field: str | None) -> list[str]:
    """How `value` stands in a before/after's JSON text (as both databases give it) as the value of `field`, or
    of any field or in a list (not as a field's name: the tariff's "ruf" points are no Rufspiel)."""
    if field:
        return [json.dumps({field: value})[1:-1]]
    text = json.dumps(value)
    return [f": {text}", f"[{text}", f", {text},", f", {text}]"]


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

    @property
    def value_words(self) -> ValueWords:
        """The stored values' words for this tournament's game in the reader's language, built once a page."""
        if not hasattr(self, "_value_words"):
            self._value_words = ValueWords(self.tournament.game)
        return self._value_words

    def get_table_kwargs(self):
        return {**super().get_table_kwargs(), "value_words": self.value_words}

    def get_filter_form(self) -> AuditFilterForm:
        if not hasattr(self, "_filter_form"):
            entries = AuditEntry.objects.filter(tournament=self.tournament)
            self._filter_form = AuditFilterForm(self.request.GET or None, entries=entries)
        return self._filter_form

    def get_table_data(self):
        entries = AuditEntry.objects.filter(tournament=self.tournament).select_related("user")
        return self.get_filter_form().apply(entries, self.value_words)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["filter_form"] = self.get_filter_form()
        context["filtered"] = bool(self.request.GET.get("action") or self.request.GET.get("user")
                                   or self.request.GET.get("q"))
        return context
