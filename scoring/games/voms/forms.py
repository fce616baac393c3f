from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from scoring.rules.voms import LIMIT_LUS, MAX_LUS
from tournament.desk_forms import ImportWarningsMixin
from tournament.form_focus import FocusFirstError
from tournament.services.text import MAX_REASON

from .entries import slip_entry

#: the largest round or table number the referee table can type
MAX_NUMBER = 9999


#: an over-long number says the limit (Django fills in limit_value when it shows the message)
AT_MOST = _("Too large: at most %(limit_value)s.")
#: a number below the field's least, in our words rather than Django's "Ensure this value is greater than or equal"
AT_LEAST = _("Too small: at least %(limit_value)s.")
TABLES_FROM = _("There is no table %(value)s: the tables are numbered from %(limit_value)s.")
ROUNDS_FROM = _("There is no round %(value)s: the rounds are numbered from %(limit_value)s.")
NOT_NEGATIVE = _("Cannot be negative.")


class BoundedIntegerField(forms.IntegerField):
    """A whole number with an upper limit that says the limit for any over-long number.

    Django reads a number of thousands of digits as "Enter a whole number" and a merely large one as
    "less than or equal to"; the referee table needs "at most 9999" for both.
    """

    def __init__(self, *, max_value: int, too_small=None, **kwargs):
        super().__init__(max_value=max_value, **kwargs)
        self.set_limit(max_value)
        if self.min_value is not None:
            self.error_messages["min_value"] = too_small or (NOT_NEGATIVE if self.min_value == 0 else AT_LEAST)

    def set_limit(self, max_value: int) -> None:
        self.max_value = max_value
        self.error_messages["max_value"] = AT_MOST
        self.validators = [v for v in self.validators if not isinstance(v, MaxValueValidator)]
        self.validators.append(MaxValueValidator(max_value, message=AT_MOST))

    def to_python(self, value):
        text = str(value).strip() if value is not None else ""
        if text.isdigit() and len(text) > len(str(self.max_value)):
            raise forms.ValidationError(AT_MOST, code="max_value", params={"limit_value": self.max_value})
        return super().to_python(value)


class IndividualForm(forms.Form):
    name = forms.CharField(label=_("Player without a partner"), max_length=160)


class ImportForm(ImportWarningsMixin, forms.Form):
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
    sure_lus = forms.IntegerField(label=_("Lus above this need a confirmation at entry"), min_value=1,
                                  max_value=MAX_LUS)
    max_lus = forms.IntegerField(label=_("Most lus accepted for a team"), min_value=1, max_value=MAX_LUS)
    max_absences = forms.IntegerField(label=_("Absences allowed before disqualification"), min_value=0,
                                      max_value=20)
    best_of = forms.TypedChoiceField(label=_("Knockout series"), coerce=int,
                                     choices=[(1, _("One game")), (3, _("Best of 3")), (5, _("Best of 5"))])
    start_time = forms.TimeField(label=_("First round starts at"), widget=forms.TimeInput(format="%H:%M"))
    slot_minutes = forms.IntegerField(label=_("Minutes per round"), min_value=5, max_value=240)
    series_minutes = forms.IntegerField(label=_("Minutes per knockout round (a whole series)"), min_value=5,
                                        max_value=480)
    qualifiers_per_pool = forms.IntegerField(label=_("Teams per pool in the knockout"), min_value=1, max_value=16)
    third_place = forms.BooleanField(label=_("Play a match for third place"), required=False)
    semifinal = forms.ChoiceField(label=_("Semifinal"), choices=[
        ("bracket", _("Knockout (A1–B2, B1–A2)")), ("round_robin", _("Round robin of 4 teams"))])

    def __init__(self, *args, pools: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if pools is not None:
            self.fields["semifinal"].choices = semifinal_choices(pools)


def semifinal_choices(pools: int) -> list[tuple[str, str]]:
    """The knockout's forms for `pools` pools (docs/rules/voms.md): from 2 pools the semifinals A1–B2 and B1–A2
    (or a round robin of the 4); with other pool counts a bracket seeded so that teams of one pool meet as late as
    possible, and the round robin only where 4 teams can qualify (1 or 4 pools)."""
    if pools == 2:
        return [("bracket", _("Knockout (A1–B2, B1–A2)")), ("round_robin", _("Round robin of 4 teams"))]
    choices = [("bracket", _("Knockout, seeded so that teams of one pool meet as late as possible"))]
    if 4 % max(pools, 1) == 0:
        choices.append(("round_robin", _("Round robin of 4 teams")))
    return choices


def parse_lus(value: str):
    """A lus box: a whole number, or x for an absent team. Returns int, "x" or the raw text."""
    text = (value or "").strip().lower()
    if text in ("x", "-", "abs"):
        return "x"
    if text.isdigit() and len(text) <= len(str(MAX_LUS)) + 1:
        return int(text)
    return text


#: confirmation boxes: shown only once the entry asks for them
CONFIRM_FIELDS = ("confirm_low_winner", "confirm_high_lus", "confirm_disqualify")


class SlipForm(FocusFirstError, forms.Form):
    round = BoundedIntegerField(label=_("Round"), min_value=1, max_value=MAX_NUMBER, too_small=ROUNDS_FROM,
                                widget=forms.NumberInput(attrs={"class": "short"}))
    table = BoundedIntegerField(label=_("Table"), min_value=1, max_value=MAX_NUMBER, too_small=TABLES_FROM,
                                widget=forms.NumberInput(attrs={"class": "short", "autofocus": True}))
    lus_a = forms.CharField(label=_("Lus team A"), required=False,
                            widget=forms.TextInput(attrs={"class": "short", "inputmode": "numeric"}))
    lus_b = forms.CharField(label=_("Lus team B"), required=False,
                            widget=forms.TextInput(attrs={"class": "short", "inputmode": "numeric"}))
    # A one-letter box rather than a drop-down: typing "a" or "b" is the fastest at the referee table.
    winner = forms.CharField(label=_("Winner (A/B)"), max_length=1, required=False,
                             help_text=_("Only when both teams have 9 or more."),
                             widget=forms.TextInput(attrs={"class": "short", "autocomplete": "off"}))
    confirm_low_winner = forms.BooleanField(label=_("Yes, the winner has fewer lus"), required=False)
    confirm_high_lus = forms.BooleanField(label=_("Yes, the lus are right"), required=False)
    confirm_disqualify = forms.BooleanField(label=_("Yes, disqualify"), required=False)

    def __init__(self, *args, max_lus: int = LIMIT_LUS, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_lus = max_lus

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
        for key, value in (("lus_a", a), ("lus_b", b)):
            if isinstance(value, str) and value.isdigit() or isinstance(value, int) and value > self.max_lus:
                self.add_error(key, _("%(value)s lus is more than any game can reach: at most %(max)s. "
                                      "Check the slip.") % {"value": value if len(str(value)) < 8 else "…",
                                                            "max": self.max_lus})
            elif "x" not in (a, b) and not isinstance(value, int):
                self.add_error(key, _("Type the lus as a whole number, or x for an absent team."))
        data["lus_a"], data["lus_b"] = a, b
        return data

    def entry(self) -> dict:
        d = self.cleaned_data
        if d["lus_a"] == "x":
            return slip_entry(absent="a")
        if d["lus_b"] == "x":
            return slip_entry(absent="b")
        return slip_entry(lus_a=d["lus_a"], lus_b=d["lus_b"], winner=d.get("winner") or None,
                          confirm_low_winner=d.get("confirm_low_winner", False),
                          confirm_high_lus=d.get("confirm_high_lus", False))


class CorrectionForm(SlipForm):
    reason = forms.CharField(label=_("Why is it corrected?"), max_length=MAX_REASON)
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["round"]
        del self.fields["table"]
        self.fields["lus_a"].widget.attrs["autofocus"] = True


class SeriesGameForm(FocusFirstError, forms.Form):
    lus_a = BoundedIntegerField(label=_("Lus team A"), min_value=0, max_value=LIMIT_LUS,
                                widget=forms.NumberInput(attrs={"class": "short", "autofocus": True}))
    lus_b = BoundedIntegerField(label=_("Lus team B"), min_value=0, max_value=LIMIT_LUS,
                                widget=forms.NumberInput(attrs={"class": "short"}))
    winner = SlipForm.base_fields["winner"]
    confirm_low_winner = forms.BooleanField(label=_("Yes, the winner has fewer lus"), required=False)
    #: the version of the series and the number of the game when the form was shown (see SeriesView)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    game = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    confirm_high_lus = SlipForm.base_fields["confirm_high_lus"]

    clean_winner = SlipForm.clean_winner

    def __init__(self, *args, max_lus: int = LIMIT_LUS, **kwargs):
        super().__init__(*args, **kwargs)
        for key in ("lus_a", "lus_b"):
            self.fields[key].set_limit(max_lus)


class KnockoutForm(forms.Form):
    qualifiers_per_pool = forms.IntegerField(label=_("Teams per pool in the knockout"), min_value=1, max_value=16)
    third_place = forms.BooleanField(label=_("Play a match for third place"), required=False)
    semifinal = SettingsForm.base_fields["semifinal"]
    confirm_rebuild = forms.BooleanField(label=_("Yes, rebuild it"), required=False)

    def __init__(self, *args, built: bool = False, pools: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.pools = pools
        if not built:
            del self.fields["confirm_rebuild"]
        if pools is not None:
            self.fields["semifinal"] = forms.ChoiceField(label=_("Semifinal") if pools == 2 else _("Knockout"),
                                                         choices=semifinal_choices(pools))

    def clean(self):
        data = super().clean()
        per_pool = data.get("qualifiers_per_pool")
        if data.get("semifinal") == "round_robin" and self.pools and per_pool and self.pools * per_pool != 4:
            self.add_error("qualifiers_per_pool", _(
                "The round robin is played by 4 teams: with %(pools)s pools, %(per_pool)s per pool make %(count)s.")
                % {"pools": self.pools, "per_pool": per_pool, "count": self.pools * per_pool})
        return data


class SeriesCorrectionForm(SeriesGameForm):
    """A director corrects one game of a series: which game, its lus, why."""

    number = forms.TypedChoiceField(label=_("Game"), coerce=int, choices=())
    reason = forms.CharField(label=_("Why is it corrected?"), max_length=500)
    version = forms.IntegerField(widget=forms.HiddenInput)

    field_order = ["number", "lus_a", "lus_b", "winner", "confirm_low_winner", "confirm_high_lus", "reason"]

    def __init__(self, *args, games: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["number"].choices = [(n, str(n)) for n in range(1, games + 1)]
        self.fields["lus_a"].widget.attrs.pop("autofocus", None)


#: field keys of a slip as `scoring.results.compare` compares them, in the order of the form
SLIP_FIELDS = ("lus_a", "lus_b", "winner", "confirm_low_winner", "confirm_high_lus")


def slip_fields(entries) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """A slip's (or series') games as labelled fields, the way the entry form shows them."""
    labels = {key: SlipForm.base_fields[key].label for key in SLIP_FIELDS}
    rows = []
    for number, entry in enumerate(entries, start=1):
        absent = entry.get("absent")
        lus_a = "x" if absent == "a" else "" if absent else str(entry.get("lus_a", ""))
        lus_b = "x" if absent == "b" else "" if absent else str(entry.get("lus_b", ""))
        texts = {"lus_a": lus_a, "lus_b": lus_b, "winner": (entry.get("winner") or "").upper(),
                 "confirm_low_winner": _("yes") if entry.get("confirm_low_winner") else "",
                 "confirm_high_lus": _("yes") if entry.get("confirm_high_lus") else ""}
        label = _("Game %(number)s") % {"number": number} if len(entries) > 1 else _("Slip")
        rows.append((str(label), [(key, str(labels[key]), texts[key]) for key in SLIP_FIELDS]))
    return rows


class PhoneGameForm(SlipForm):
    """One game as a table's phone sends it: the referee's slip fields and messages, without round and table
    (the link says which game), the winner as two big buttons. A series' game takes no absence (x), as at the
    referee table's series form."""

    winner = forms.ChoiceField(label=_("Winner"), required=False, widget=forms.RadioSelect,
                               choices=[("", _("from the lus")), ("a", "A"), ("b", "B")])

    def __init__(self, *args, series: bool = False, teams: tuple[str, str] = ("A", "B"), **kwargs):
        super().__init__(*args, **kwargs)
        self.series = series
        del self.fields["round"]
        del self.fields["table"]
        self.fields["winner"].choices = [("", _("from the lus")), ("a", teams[0]), ("b", teams[1])]
        for key in ("lus_a", "lus_b"):
            self.fields[key].widget.attrs.update({"class": "ph-lus", "autocomplete": "off"})
        if series:
            del self.fields["confirm_disqualify"]

    def is_empty(self) -> bool:
        """Nothing typed in this game's boxes (a series' game not played)."""
        return not any(str(self.data.get(self.add_prefix(key), "")).strip() for key in ("lus_a", "lus_b", "winner"))

    def clean(self):
        data = super().clean()
        if self.series:
            for key in ("lus_a", "lus_b"):
                if data.get(key) == "x":
                    self.add_error(key, _("Enter a whole number."))
        return data
