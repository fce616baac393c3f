"""Forms of the player register and the seasons (their pages are in `views/register.py` and `views/seasons.py`)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from scoring.games import all_games

from .form_focus import FocusFirstError
from .models import Person, Season


class PersonForm(forms.ModelForm):
    class Meta:
        model = Person
        fields = ["first_name", "last_name", "club", "contact"]


class MergeForm(forms.Form):
    other = forms.IntegerField(label=_("Number of the other entry (shown on its page)"), min_value=1,
                               max_value=2**31 - 1)
    reason = forms.CharField(label=_("Why (for the log)"), required=False, max_length=200)


def season_game_choices():
    return [(g.key, g.name) for g in all_games() if g.offers("season_evening")]


class SeasonForm(FocusFirstError, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=season_game_choices)
    language = forms.ChoiceField(label=_("Language of printouts"), choices=settings.LANGUAGES)
    scoring = forms.ChoiceField(label=_("Ranking by"), choices=Season.Scoring.choices)
    place_points = forms.CharField(
        label=_("Points per place"), required=False, max_length=800,
        help_text=_("1st place first, separated by spaces, e.g. 25 20 16 13 11 10 9 8 7 6 5 4 3 2 1."))
    best_of = forms.IntegerField(label=_("Best evenings counting"), required=False, min_value=1, max_value=999,
                                 help_text=_("Empty: every evening counts."))
    min_evenings = forms.IntegerField(label=_("Evenings needed to be ranked"), min_value=1, max_value=999,
                                      initial=1)

    @staticmethod
    def new_initial(language: str) -> dict:
        """What the form of a new season (a club's or a federation's) shows first."""
        return {"language": language, "min_evenings": 1, "place_points": "25 20 16 13 11 10 9 8 7 6 5 4 3 2 1"}

    def __init__(self, *args, editing: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if editing:
            del self.fields["game"]
        else:
            self.fields["name"].widget.attrs["autofocus"] = True


def dated(tournament) -> str:
    """A tournament in a choice: its date as the screen's language writes it (01.04.2026, 1 Apr 2026), its name."""
    return f"{date_format(tournament.date, 'SHORT_DATE_FORMAT')} {tournament.name}"


class EveningForm(forms.Form):
    tournament = forms.TypedChoiceField(label=_("Tournament"), coerce=int, choices=())

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = [(t.pk, dated(t)) for t in tournaments]


class TakeOverForm(forms.Form):
    source = forms.TypedChoiceField(label=_("Earlier tournament"), coerce=int, choices=())

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["source"].choices = [(t.pk, dated(t)) for t in tournaments]
