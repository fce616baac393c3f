"""Schafkopf forms: the settings and the score list grid.

The score list is not a Django form: a grid of 30 or 40 rows of one-letter fields is read by
`read_games` / `read_totals`, which turn what was typed into the stored entries, or say per row
and field what cannot be read. Whether a readable row is allowed is for the rules to say.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.results.checks import rule_message
from scoring.rules.base import RuleError
from scoring.rules.schafkopf import (
    COUNT_FIELDS,
    FARBWENZ,
    GAME_TYPES,
    MAX_LAUFENDE,
    RUF,
    SOLO,
    TARIFF_PRESETS,
    WENZ,
    PrizeSpec,
    Tariff,
    prize_list,
)
from tournament.services.text import MAX_REASON

from .config import Settings

# --- settings --------------------------------------------------------------------------------------

AMOUNT_LABELS = {
    "ruf": gettext_lazy("Rufspiel (each player)"),
    "ruf_schneider": gettext_lazy("Rufspiel Schneider (each player)"),
    "ruf_schwarz": gettext_lazy("Rufspiel Schwarz (each player)"),
    "solo": gettext_lazy("Solo/Wenz (each opponent; the soloist 3×)"),
    "solo_schneider": gettext_lazy("Solo/Wenz Schneider (each opponent)"),
    "solo_schwarz": gettext_lazy("Solo/Wenz Schwarz (each opponent)"),
    "tout": gettext_lazy("Tout (each opponent)"),
}


#: no tariff comes near this; 10**30 points would only overflow the sums and the printouts
MAX_AMOUNT = 100_000


def preset_choices():
    return [(key, _(tariff.name)) for key, tariff in TARIFF_PRESETS.items()]


class SettingsForm(forms.Form):
    rounds = forms.IntegerField(label=gettext_lazy("Rounds"), min_value=1, max_value=12)
    games_per_round = forms.IntegerField(label=gettext_lazy("Games per round"), min_value=1, max_value=200)
    games_at_five = forms.IntegerField(
        label=gettext_lazy("Games per round at a 5-player table"), min_value=5, max_value=250,
        help_text=gettext_lazy("A multiple of 5, so that everyone at the table deals equally often (30 → 40)."),
    )
    separate_clubs = forms.BooleanField(
        label=gettext_lazy("Players of the same club at different tables"), required=False,
    )
    tariff_preset = forms.ChoiceField(
        label=gettext_lazy("Tariff preset"), choices=preset_choices,
        help_text=gettext_lazy("Choosing a preset fills in its amounts; you can then change them."),
    )
    tariff_name = forms.CharField(label=gettext_lazy("Tariff name"), max_length=80)
    ruf = forms.IntegerField(label=AMOUNT_LABELS["ruf"], min_value=0, max_value=MAX_AMOUNT)
    ruf_schneider = forms.IntegerField(label=AMOUNT_LABELS["ruf_schneider"], min_value=0, max_value=MAX_AMOUNT)
    ruf_schwarz = forms.IntegerField(label=AMOUNT_LABELS["ruf_schwarz"], min_value=0, max_value=MAX_AMOUNT)
    solo = forms.IntegerField(label=AMOUNT_LABELS["solo"], min_value=0, max_value=MAX_AMOUNT)
    solo_schneider = forms.IntegerField(label=AMOUNT_LABELS["solo_schneider"], min_value=0, max_value=MAX_AMOUNT)
    solo_schwarz = forms.IntegerField(label=AMOUNT_LABELS["solo_schwarz"], min_value=0, max_value=MAX_AMOUNT)
    tout = forms.IntegerField(label=AMOUNT_LABELS["tout"], min_value=0, max_value=MAX_AMOUNT)
    laufende_from = forms.IntegerField(
        label=gettext_lazy("Count Laufende from"), required=False, min_value=1, max_value=MAX_LAUFENDE,
        help_text=gettext_lazy("Empty: Laufende are not counted (as in the tournament rules)."),
    )
    laufende_value = forms.IntegerField(
        label=gettext_lazy("Points per Laufender (each player or opponent)"), min_value=0, max_value=MAX_AMOUNT,
        initial=0,
    )
    entry_fee = forms.DecimalField(label=gettext_lazy("Entry fee"), min_value=0, decimal_places=2, max_digits=8)
    prizes = forms.CharField(
        label=gettext_lazy("Prizes, one line per place"), required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy("An amount (e.g. 150) or a percentage of the takings (e.g. 30%)."),
    )

    phone_totals = forms.BooleanField(
        label=gettext_lazy("Tables may send totals only from their phones"), required=False,
        help_text=gettext_lazy("The table's phone page then also takes each player's total and counts (solo/Wenz "
                               "and tout played and won) instead of every game; the totals must add up to zero. "
                               "The referee table checks them against the paper list as always."),
    )

    FIELDSETS = (
        (gettext_lazy("Rounds and tables"), ("rounds", "games_per_round", "games_at_five", "separate_clubs")),
        (gettext_lazy("Tariff"), ("tariff_preset", "tariff_name", *AMOUNT_LABELS, "laufende_from", "laufende_value")),
        (gettext_lazy("Money"), ("entry_fee", "prizes")),
        (gettext_lazy("Entry from the tables' phones"), ("phone_totals",)),
    )

    @classmethod
    def initial_from(cls, settings: Settings) -> dict:
        tariff = settings.tariff
        return {
            "rounds": settings.rounds,
            "games_per_round": settings.games_per_round,
            "games_at_five": settings.games_at_five,
            "separate_clubs": settings.separate_clubs,
            "tariff_preset": settings.tariff_preset,
            "tariff_name": _(tariff.name),
            **{name: getattr(tariff, name) for name in AMOUNT_LABELS},
            "laufende_from": tariff.laufende_from,
            "laufende_value": tariff.laufende_value,
            "entry_fee": settings.entry_fee,
            "prizes": "\n".join(format_prize(p) for p in settings.prizes),
            "phone_totals": settings.phone_totals,
        }

    #: what can still change once play has started (the settings page says so): the money and the phones' entry
    CHANGEABLE_IN_PLAY = ("entry_fee", "prizes", "phone_totals")

    def fix_play_settings(self) -> None:
        """Once play has started the rounds and tables and the tariff are shown, not editable (the seating is
        final, so keeping clubs apart no longer changes anything); the money and the phones' entry still change."""
        for name, form_field in self.fields.items():
            form_field.disabled = name not in self.CHANGEABLE_IN_PLAY

    def clean_games_at_five(self):
        games = self.cleaned_data["games_at_five"]
        if games % 5:
            raise forms.ValidationError(_("Enter a multiple of 5, so that everyone at a 5-player table deals "
                                          "equally often."))
        return games

    def clean_prizes(self):
        prizes = []
        for place, line in enumerate(self.cleaned_data["prizes"].splitlines(), start=1):
            if line.strip():
                prizes.append(parse_prize(line, place))
        return tuple(prizes)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["tariff"] = Tariff(
                name=self.stored_tariff_name(data),
                **{name: data[name] for name in AMOUNT_LABELS},
                laufende_from=data["laufende_from"],
                laufende_value=data["laufende_value"],
            )
            prize_list(data["entry_fee"], 0, data["prizes"])
        except RuleError as error:
            raise forms.ValidationError(rule_message(error)) from error
        return data

    @staticmethod
    def stored_tariff_name(data) -> str:
        """Keep a preset's English name when it is shown unchanged, so it is translated on every printout."""
        preset = TARIFF_PRESETS[data["tariff_preset"]]
        name = data["tariff_name"].strip()
        return preset.name if name == _(preset.name) else name

    def settings(self, current: Settings) -> Settings:
        data = self.cleaned_data
        return replace(
            current,
            rounds=data["rounds"],
            games_per_round=data["games_per_round"],
            games_at_five=data["games_at_five"],
            separate_clubs=data["separate_clubs"],
            tariff_preset=data["tariff_preset"],
            tariff=data["tariff"],
            entry_fee=data["entry_fee"],
            prizes=data["prizes"],
            phone_totals=data["phone_totals"],
        )


def format_prize(prize: PrizeSpec) -> str:
    return f"{prize.value.normalize():f}%" if prize.kind == "percent" else f"{prize.value:f}"


def prizes_text(stored) -> str | None:
    """A stored prize list (`Settings.to_json`) as this form shows it, "30%, 20%, 50"; None for anything else."""
    try:
        if any(prize["kind"] not in ("percent", "fixed") for prize in stored):
            return None
        return ", ".join(format_prize(PrizeSpec(prize["kind"], Decimal(str(prize["value"])))) for prize in stored)
    except (TypeError, KeyError, InvalidOperation):
        return None


def parse_prize(line: str, place: int) -> PrizeSpec:
    text = line.strip().replace(",", ".").replace(" ", "")
    kind = "percent" if text.endswith("%") else "fixed"
    try:
        value = Decimal(text.rstrip("%"))
    except InvalidOperation:
        raise forms.ValidationError(
            _("Place %(place)s: “%(text)s” is neither an amount nor a percentage.") % {"place": place,
                                                                                        "text": line.strip()}
        ) from None
    return PrizeSpec(kind, value)


# --- the draw and substitutes ----------------------------------------------------------------------


# --- the score list grid ---------------------------------------------------------------------------

#: the one-letter game types typed at the referee table (the same letters in every language)
TYPE_KEYS = {"R": RUF, "S": SOLO, "W": WENZ, "F": FARBWENZ}
TYPE_LETTERS = {game_type: letter for letter, game_type in TYPE_KEYS.items()}
RESULT_KEYS = {"+": True, "-": False}
#: Schneider / Schwarz; D for "Durch", the source's word for Schwarz
EXTRA_KEYS = {"": (False, False), "S": (True, False), "Z": (True, True), "D": (True, True)}
GRID_FIELDS = ("t", "d", "p", "r", "x", "l", "i")


@dataclass
class GridRow:
    """One row of the grid as typed (`values`), what it means (`entry`), and what is wrong with it."""

    number: int
    values: dict[str, str]
    entry: dict | None = None
    errors: dict[str, str] = field(default_factory=dict)
    rule_error: str = ""

    @property
    def blank(self) -> bool:
        return not any(self.values.values())


def typed(text: str) -> str:
    """What was typed, without control and format characters: a NUL cannot be stored in PostgreSQL."""
    return "".join(ch for ch in str(text) if not unicodedata.category(ch).startswith("C")).strip()


#: the longest number a field takes (digits): 9,999,999 points is more than any list reaches
MOST_DIGITS = 7


def number_error(text: str) -> str:
    """Why `text` is no number a field takes: too long (saying the limit), or no whole number at all."""
    digits = text[1:] if text[:1] in "-−" else text
    if digits.isascii() and digits.isdigit() and len(digits) > MOST_DIGITS:
        return _("Enter a number of at most %(limit)s.") % {"limit": 10**MOST_DIGITS - 1}
    return _("Enter a whole number.")


def _digits(text: str, most: int = MOST_DIGITS) -> bool:
    """Plain 0-9 digits, not too many: "²" or "١" pass str.isdigit() but are no numbers a table writes."""
    return text.isascii() and text.isdigit() and len(text) <= most


def _seat(text: str, table_size: int, errors: dict, key: str) -> int | None:
    if _digits(text) and 1 <= int(text) <= table_size:
        return int(text)
    errors[key] = _("Enter a seat from 1 to %(size)s.") % {"size": table_size}
    return None


def _read_game(row: GridRow, *, table_size: int) -> None:
    """Fill in `row.entry`, or `row.errors` for the fields that cannot be read."""
    values, errors = row.values, row.errors
    game_type = TYPE_KEYS.get(values["t"].upper())
    if game_type is None:
        errors["t"] = _("Type R, S, W or F.")
    declarer = _seat(values["d"], table_size, errors, "d")
    # A partner typed for a solo is passed on, for the rules to refuse with their own message.
    partner = _seat(values["p"], table_size, errors, "p") if game_type == RUF or values["p"] else None
    won = RESULT_KEYS.get(values["r"])
    if won is None:
        errors["r"] = _("Type + (won) or - (lost).")
    extra = EXTRA_KEYS.get(values["x"].upper())
    if extra is None:
        errors["x"] = _("Leave empty, or type S (Schneider) or Z (Schwarz).")
    laufende = 0
    if values["l"]:
        if _digits(values["l"], most=2):
            laufende = int(values["l"])
        elif values["l"].isascii() and values["l"].isdigit():
            errors["l"] = _("Enter a number of at most %(limit)s.") % {"limit": 99}
        else:
            errors["l"] = _("Enter the number of Laufende.")
    if errors:
        return
    initials = values["i"].strip()
    row.entry = {
        "game_type": game_type, "declarer": declarer, "partner": partner, "won": won,
        "schneider": extra[0], "schwarz": extra[1], "tout": bool(initials), "laufende": laufende,
        "tout_initials": initials,
    }


def read_games(data, *, rows: int, table_size: int) -> list[GridRow]:
    """The grid's rows as typed; trailing blank rows stand for games not entered."""
    grid = [
        GridRow(number, {name: typed(data.get(f"{name}{number}", ""))[:12] for name in GRID_FIELDS})
        for number in range(1, rows + 1)
    ]
    last = max((row.number for row in grid if not row.blank), default=0)
    for row in grid[:last]:
        if row.blank:
            row.errors["t"] = _("Game %(number)s is empty while later games are filled in: enter it.") % {
                "number": row.number}
        else:
            _read_game(row, table_size=table_size)
    return grid


def stored_grid(entries: list[dict], games: int = 0) -> list[GridRow]:
    """The grid of a stored list: its games as typed, blank rows up to `games`."""
    grid = [GridRow(n, grid_values(entry)) for n, entry in enumerate(entries, start=1)]
    return grid + [GridRow(n, dict.fromkeys(GRID_FIELDS, "")) for n in range(len(grid) + 1, games + 1)]


def type_legend() -> list[tuple[str, str]]:
    """The grid's game-type letters with the game types' names, translated."""
    return [(letter, _(GAME_TYPES[key].name)) for letter, key in TYPE_KEYS.items()]


def type_config() -> dict[str, dict]:
    """The game-type letters for the grid's script (static/schafkopf/entry.js): each type's key and solo class."""
    return {letter: {"key": key, "solo": GAME_TYPES[key].solo_class} for letter, key in TYPE_KEYS.items()}


def grid_values(entry: dict) -> dict[str, str]:
    """A stored game as the grid shows it (the inverse of `read_game_row`)."""
    extra = "Z" if entry["schwarz"] else "S" if entry["schneider"] else ""
    return {
        "t": TYPE_LETTERS.get(entry["game_type"], "?"),
        "d": str(entry["declarer"]),
        "p": "" if entry["partner"] is None else str(entry["partner"]),
        "r": "+" if entry["won"] else "-",
        "x": extra,
        "l": str(entry["laufende"]) if entry.get("laufende") else "",
        "i": entry.get("tout_initials", ""),
    }


TOTALS_FIELDS = ("total", *COUNT_FIELDS)


@dataclass
class TotalsRow:
    seat: int
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)


def read_totals(data, *, table_size: int) -> tuple[list[TotalsRow], list[dict] | None]:
    """Per-seat totals and counts as typed; the entries, or None while a field cannot be read."""
    rows, entries = [], []
    for seat in range(1, table_size + 1):
        row = TotalsRow(seat, {name: typed(data.get(f"{name}{seat}", "")) for name in TOTALS_FIELDS})
        entry = {"seat": seat}
        for name, text in row.values.items():
            number = _whole_number(text, allow_negative=name == "total", empty=None if name == "total" else 0)
            if number is None:
                row.errors[name] = number_error(text)
            entry[name] = number
        rows.append(row)
        entries.append(entry)
    return rows, None if any(row.errors for row in rows) else entries


def _whole_number(text: str, *, allow_negative: bool, empty):
    if not text:
        return empty
    digits = text[1:] if allow_negative and text[:1] in "-−" else text
    if not _digits(digits):
        return None
    return -int(digits) if digits != text else int(digits)


def totals_values(entry: dict) -> dict[str, str]:
    return {name: str(entry.get(name, 0)) for name in TOTALS_FIELDS}


def stored_totals(entries: list[dict], table_size: int) -> list[TotalsRow]:
    """The totals form of a table: each seat's stored total and counts, blank for a seat without them."""
    by_seat = {row["seat"]: row for row in entries}
    return [TotalsRow(seat, totals_values(by_seat[seat]) if seat in by_seat else dict.fromkeys(TOTALS_FIELDS, ""))
            for seat in range(1, table_size + 1)]


class CorrectionForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why is the list corrected?"), max_length=MAX_REASON)
