from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.games import game_choices

from .form_focus import FocusFirstError
from .models import Tournament
from .models.tournament import installation_time_zone, time_zone_choices


class TournamentForm(FocusFirstError, forms.ModelForm):
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    time_zone = forms.ChoiceField(
        label=_("Time zone of the venue"), choices=time_zone_choices, initial=installation_time_zone, required=False,
        help_text=_("Times on every page, printout and export are shown as the clocks at the venue show them."),
    )

    class Meta:
        model = Tournament
        fields = ["name", "game", "date", "venue", "time_zone", "language", "status", "entry_fee", "double_entry",
                  "link_entries_count", "agreeing_reports_count"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, clubs=None, federation_seasons=None, **kwargs):
        """`clubs`: the clubs a server's superuser of no club chooses the new tournament's from; `federation_seasons`:
        the seasons of the club's federation the tournament may count in (neither on a laptop)."""
        super().__init__(*args, **kwargs)
        if clubs is not None:
            self.fields["club"] = forms.ModelChoiceField(label=_("Club"), queryset=clubs,
                                                         empty_label=None)
            self.order_fields(["club"])
        if federation_seasons is not None:
            self.fields["federation_season"] = forms.ModelChoiceField(
                label=_("Federation season"), queryset=federation_seasons, required=False,
                initial=self.instance.federation_season_id,
                empty_label=_("none"), help_text=_("The federation's league this tournament counts in as well."))
        self.fields["name"].widget.attrs["autofocus"] = True
        if self.instance.pk and self.instance.status != Tournament.Status.PLANNED:
            self.fields["game"].disabled = True
        if not self.instance.pk:
            # most tournaments are made on the evening they are played: today, on this computer's clock
            self.fields["date"].initial = timezone.localdate()
            del self.fields["double_entry"]  # a new tournament starts with single entry; switch it on when editing
            del self.fields["link_entries_count"]
            del self.fields["agreeing_reports_count"]

    def clean_time_zone(self) -> str:
        # not sent (a form posted by a script): the zone stays as it is, a new tournament gets the installation's
        return self.cleaned_data["time_zone"] or self.instance.time_zone or installation_time_zone()
