"""The seated pages' own forms: the seating draw, a substitute on a seat, a player's fixed table.

The games' settings forms and score grids are the games' (`scoring.games.schafkopf.forms`, `tablegames.forms`).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from tournament.models import Participant
from tournament.services.text import MAX_REASON


class FixedTableForm(forms.Form):
    table = forms.IntegerField(
        label=gettext_lazy("Fixed table"), required=False, min_value=1, max_value=9999,
        error_messages={"min_value": gettext_lazy(
            "There is no table %(value)s: the tables are numbered from %(limit_value)s.")},
        help_text=gettext_lazy("The player sits at this table in every round (e.g. for accessibility). "
                               "Empty: drawn like everyone else. Applies at the next draw."),
    )


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=gettext_lazy("Seed"), required=False, min_value=1, max_value=2**62,
        help_text=gettext_lazy("Empty: a new random draw. The seed of an earlier draw reproduces it, "
                               "with the same players and settings."),
    )


class SubstituteForm(forms.Form):
    substitute = forms.ModelChoiceField(
        label=gettext_lazy("Substitute"), queryset=Participant.objects.none(), required=False,
        empty_label=gettext_lazy("— nobody: the seat's player plays —"),
    )
    points_to_substitute = forms.BooleanField(
        label=gettext_lazy("Credit the seat's points to the substitute"), required=False,
        help_text=gettext_lazy("Otherwise they stay with the seat's player."),
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), required=False, max_length=MAX_REASON)

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["substitute"].queryset = candidates


