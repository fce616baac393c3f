"""The registration desk's forms, the same for every game (the desk's pages are in `views/desk.py`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .form_focus import FocusFirstError
from .models import Participant, Person, Team
from .services.participants import MAX_NUMBER
from .services.text import MAX_REASON

CONFIRM_DUPLICATE_LABEL = _("Yes, register a second entry of the same name")


class PlayerForm(FocusFirstError, forms.ModelForm):
    number = forms.IntegerField(
        label=_("Participant number"), required=False, min_value=1, max_value=MAX_NUMBER,
        help_text=_("Leave empty for the next free number."),
    )
    #: shown only after the desk found the name registered already
    confirm_duplicate = forms.BooleanField(label=CONFIRM_DUPLICATE_LABEL, required=False,
                                           widget=forms.HiddenInput)
    #: the register entry picked from the suggestions (static/tournament/suggest.js); empty: found by name and club
    person = forms.CharField(required=False, max_length=20, widget=forms.HiddenInput)

    class Meta:
        model = Participant
        fields = ["number", "first_name", "last_name", "club", "group"]
        help_texts = {"group": _("Players of one group (a family, say) sit at different tables.")}

    def __init__(self, *args, organisation=None, **kwargs):
        super().__init__(*args, **kwargs)
        #: the tournament's club: a person is picked from its register only
        self.organisation = organisation
        self.fields["first_name"].widget.attrs["autofocus"] = True
        if self.instance.pk:
            self.fields["number"].help_text = _("The start number; a free one.")
            del self.fields["person"]
        else:
            # the desk's suggestions from the player register (static/tournament/suggest.js)
            for name in ("first_name", "last_name"):
                self.fields[name].widget.attrs.update({"data-suggest": "", "autocomplete": "off"})

    def ask_to_confirm(self, message) -> None:
        """The name is registered already: say so on the form and show the confirmation box."""
        ask_to_confirm(self, message)

    def clean_person(self):
        value = self.cleaned_data.get("person") or ""
        if not value:
            return None
        number = value.isascii() and value.isdigit() and len(value) <= 18
        register = Person.objects.of(self.organisation) if self.organisation is not None else Person.objects.none()
        person = register.filter(pk=int(value)).first() if number else None
        if person is None:
            # a hidden field's error would not be seen: said on the form
            self.add_error(None, _("The person picked from the player register is not there (any more): pick "
                                   "again, or type the name."))
        return person


class TeamForm(FocusFirstError, forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=120, required=False,
                           help_text=_("Empty: the players' names."))
    player1 = forms.CharField(label=_("Player 1"), max_length=160)
    player2 = forms.CharField(label=_("Player 2"), max_length=160, required=False,
                              help_text=_("Empty for a team of one."))
    seeded = forms.BooleanField(label=_("Seeded (kept apart in the pool draw)"), required=False)
    confirm_duplicate = forms.BooleanField(label=CONFIRM_DUPLICATE_LABEL, required=False,
                                           widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player1"].widget.attrs["autofocus"] = True


class TeamEditForm(forms.ModelForm):
    confirm_duplicate = forms.BooleanField(label=CONFIRM_DUPLICATE_LABEL, required=False,
                                           widget=forms.HiddenInput)

    class Meta:
        model = Team
        fields = ["name", "seeded"]
        labels = {"seeded": _("Seeded (kept apart in the pool draw)")}


class MemberForm(forms.ModelForm):
    """A team member's name, corrected on the team's page."""

    confirm_duplicate = forms.BooleanField(label=CONFIRM_DUPLICATE_LABEL, required=False,
                                           widget=forms.HiddenInput)

    class Meta:
        model = Participant
        fields = ["first_name", "last_name"]


def ask_to_confirm(form, message) -> None:
    form.add_error(None, message)
    field = form.fields["confirm_duplicate"]
    field.widget = forms.CheckboxInput()
    field.widget.attrs["autofocus"] = True
    # the other fields keep what was typed; the box starts unticked so that the question is answered
    form.data = form.data.copy()
    form.data[form.add_prefix("confirm_duplicate")] = ""
    for name, other in form.fields.items():
        if name != "confirm_duplicate":
            other.widget.attrs.pop("autofocus", None)


class ImportWarningsMixin:
    """An import form that can confirm the import's warnings (a name twice, a team registered already):
    the box is shown with the warnings (`ask_duplicates`), and the file is chosen again with it ticked."""

    def __init__(self, *args, ask_duplicates: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if ask_duplicates:
            self.fields["confirm_duplicates"] = forms.BooleanField(
                required=False, label=_("The names are right: import the list as it is"))

    @property
    def confirmed(self) -> bool:
        return bool(self.cleaned_data.get("confirm_duplicates"))


class ImportForm(ImportWarningsMixin, forms.Form):
    file = forms.FileField(
        label=_("List of players (.xlsx or .csv)"),
        help_text=_("First row: the column names, e.g. Number, First name, Last name, Club, Group."),
    )


class StatusForm(forms.Form):
    status = forms.ChoiceField(label=_("Status"), choices=Participant.Status.choices)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=MAX_REASON,
                             widget=forms.Textarea(attrs={"rows": 2}))


class DeleteForm(forms.Form):
    reason = forms.CharField(label=_("Why (for the log)"), required=False, max_length=200,
                             widget=forms.TextInput(attrs={"autofocus": True}))


class PaymentForm(forms.Form):
    # localized: the check-in row offers the fee as the page's language writes it ("10,00" in German and Danish)
    amount = forms.DecimalField(label=_("Amount"), required=False, min_value=0, max_digits=8, decimal_places=2,
                                localize=True)
