from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.games import game_choices

from .models import Tournament


class TournamentForm(forms.ModelForm):
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)

    class Meta:
        model = Tournament
        fields = ["name", "game", "date", "venue", "language", "status", "entry_fee", "double_entry",
                  "link_entries_count"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["autofocus"] = True
        if self.instance.pk and self.instance.status != Tournament.Status.PLANNED:
            self.fields["game"].disabled = True
        if not self.instance.pk:
            del self.fields["double_entry"]  # a new tournament starts with single entry; switch it on when editing
            del self.fields["link_entries_count"]
