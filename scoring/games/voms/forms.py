from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules.voms import MAX_LUS
from tournament.services.text import MAX_REASON


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=120, required=False,
                           help_text=_("Empty: the players' names."))
    player1 = forms.CharField(label=_("Player 1"), max_length=160)
    player2 = forms.CharField(label=_("Player 2"), max_length=160, required=False,
                              help_text=_("Empty for a team of one."))
    seeded = forms.BooleanField(label=_("Seeded (kept apart in the pool draw)"), required=False)


class IndividualForm(forms.Form):
    name = forms.CharField(label=_("Player without a partner"), max_length=160)


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Registration list (.xlsx or .csv)"))


class DrawForm(forms.Form):
    pools = forms.IntegerField(label=_("Number of pools"), min_value=1, max_value=26)
    seed = forms.IntegerField(label=_("Seed (empty: a new random draw)"), required=False, min_value=0,
                              max_value=10**12)


class SettingsForm(forms.Form):
    win_points = forms.DecimalField(label=_("Points for a normal win (9 against 1 or more)"), min_value=0,
                                    max_digits=4, decimal_places=1)
    kam_points = forms.DecimalField(label=_("Points for a win against a kam (9:0)"), min_value=0, max_digits=4,
                                    decimal_places=1)
    over_points = forms.DecimalField(label=_("Points for a win with more than 9 lus"), min_value=0, max_digits=4,
                                     decimal_places=1)
    target = forms.IntegerField(label=_("Lus needed to win a game"), min_value=1, max_value=MAX_LUS)
    max_absences = forms.IntegerField(label=_("Absences allowed before disqualification"), min_value=0,
                                      max_value=20)
    best_of = forms.TypedChoiceField(label=_("Knockout series"), coerce=int,
                                     choices=[(1, _("One game")), (3, _("Best of 3")), (5, _("Best of 5"))])
    start_time = forms.TimeField(label=_("First round starts at"), widget=forms.TimeInput(format="%H:%M"))
    slot_minutes = forms.IntegerField(label=_("Minutes per round"), min_value=5, max_value=240)
    qualifiers_per_pool = forms.IntegerField(label=_("Teams per pool in the knockout"), min_value=1, max_value=16)
    third_place = forms.BooleanField(label=_("Play a match for third place"), required=False)
    semifinal = forms.ChoiceField(label=_("Semifinal"), choices=[
        ("bracket", _("Knockout (A1–B2, B1–A2)")), ("round_robin", _("Round robin of 4 teams"))])


def parse_lus(value: str):
    """A lus box: a whole number, or x for an absent team. Returns int, "x" or the raw text."""
    text = (value or "").strip().lower()
    if text in ("x", "-", "abs"):
        return "x"
    if text.isdigit():
        return int(text)
    return text


class SlipForm(forms.Form):
    round = forms.IntegerField(label=_("Round"), min_value=1, widget=forms.NumberInput(attrs={"class": "short"}))
    table = forms.IntegerField(label=_("Table"), min_value=1,
                               widget=forms.NumberInput(attrs={"class": "short", "autofocus": True}))
    lus_a = forms.CharField(label=_("Lus team A"), max_length=4, required=False,
                            widget=forms.TextInput(attrs={"class": "short", "inputmode": "numeric"}))
    lus_b = forms.CharField(label=_("Lus team B"), max_length=4, required=False,
                            widget=forms.TextInput(attrs={"class": "short", "inputmode": "numeric"}))
    # A one-letter box rather than a drop-down: typing "a" or "b" is the fastest at the referee table.
    winner = forms.CharField(label=_("Winner (A/B)"), max_length=1, required=False,
                             help_text=_("Only when both teams have 9 or more."),
                             widget=forms.TextInput(attrs={"class": "short", "autocomplete": "off"}))
    confirm_low_winner = forms.BooleanField(label=_("Yes, the winner has fewer lus"), required=False)

    def clean_winner(self):
        winner = self.cleaned_data.get("winner", "").strip().lower()
        if winner not in ("", "a", "b"):
            raise forms.ValidationError(_("Type A or B, or leave it empty."))
        return winner

    def clean(self):
        data = super().clean()
        a, b = parse_lus(data.get("lus_a", "")), parse_lus(data.get("lus_b", ""))
        if a == "x" and b == "x":
            raise forms.ValidationError(_("Only one team can be marked absent (x)."))
        if "x" not in (a, b):
            for key, value in (("lus_a", a), ("lus_b", b)):
                if not isinstance(value, int):
                    self.add_error(key, _("Type the lus as a whole number, or x for an absent team."))
        data["lus_a"], data["lus_b"] = a, b
        return data

    def entry(self) -> dict:
        from .services import slip_entry

        d = self.cleaned_data
        if d["lus_a"] == "x":
            return slip_entry(absent="a")
        if d["lus_b"] == "x":
            return slip_entry(absent="b")
        return slip_entry(lus_a=d["lus_a"], lus_b=d["lus_b"], winner=d.get("winner") or None,
                          confirm_low_winner=d.get("confirm_low_winner", False))


class CorrectionForm(SlipForm):
    reason = forms.CharField(label=_("Why is it corrected?"), max_length=MAX_REASON)
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["round"]
        del self.fields["table"]
        self.fields["lus_a"].widget.attrs["autofocus"] = True


class SeriesGameForm(forms.Form):
    lus_a = forms.IntegerField(label=_("Lus team A"), min_value=0, max_value=MAX_LUS,
                               widget=forms.NumberInput(attrs={"class": "short", "autofocus": True}))
    lus_b = forms.IntegerField(label=_("Lus team B"), min_value=0, max_value=MAX_LUS,
                               widget=forms.NumberInput(attrs={"class": "short"}))
    winner = SlipForm.base_fields["winner"]
    confirm_low_winner = forms.BooleanField(label=_("Yes, the winner has fewer lus"), required=False)

    clean_winner = SlipForm.clean_winner


class KnockoutForm(forms.Form):
    qualifiers_per_pool = forms.IntegerField(label=_("Teams per pool in the knockout"), min_value=1, max_value=16)
    third_place = forms.BooleanField(label=_("Play a match for third place"), required=False)
    semifinal = SettingsForm.base_fields["semifinal"]


#: field keys of a slip as `scoring.services.compare` compares them, in the order of the form
SLIP_FIELDS = ("lus_a", "lus_b", "winner", "confirm_low_winner")


def slip_fields(entries) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """A slip's (or series') games as labelled fields, the way the entry form shows them."""
    labels = {key: SlipForm.base_fields[key].label for key in SLIP_FIELDS}
    rows = []
    for number, entry in enumerate(entries, start=1):
        absent = entry.get("absent")
        lus_a = "x" if absent == "a" else "" if absent else str(entry.get("lus_a", ""))
        lus_b = "x" if absent == "b" else "" if absent else str(entry.get("lus_b", ""))
        texts = {"lus_a": lus_a, "lus_b": lus_b, "winner": (entry.get("winner") or "").upper(),
                 "confirm_low_winner": _("yes") if entry.get("confirm_low_winner") else ""}
        label = _("Game %(number)s") % {"number": number} if len(entries) > 1 else _("Slip")
        rows.append((str(label), [(key, str(labels[key]), texts[key]) for key in SLIP_FIELDS]))
    return rows
