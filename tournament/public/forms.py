"""The director's form for the public pages: what is published, and the beamer's interval."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.services.publishing import KIND_NAMES, MAX_BEAMER_SECONDS, MIN_BEAMER_SECONDS, flag


class PublicationForm(forms.Form):
    beamer_seconds = forms.IntegerField(
        label=_("Seconds per beamer page"), min_value=MIN_BEAMER_SECONDS, max_value=MAX_BEAMER_SECONDS,
        help_text=_("How long the beamer shows each page before the next."),
    )

    def __init__(self, *args, kinds: tuple[str, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self.kinds = kinds
        checkboxes = {flag(kind): forms.BooleanField(label=KIND_NAMES[kind], required=False) for kind in kinds}
        # The checkboxes first: they are what a director comes here for.
        self.fields = {**checkboxes, "beamer_seconds": self.fields["beamer_seconds"]}

    def checkboxes(self):
        return [self[flag(kind)] for kind in self.kinds]

    def published(self) -> list[str]:
        return [kind for kind in self.kinds if self.cleaned_data.get(flag(kind))]


class SlotForm(forms.Form):
    minutes = forms.IntegerField(label=_("Minutes"), min_value=1, max_value=600)
