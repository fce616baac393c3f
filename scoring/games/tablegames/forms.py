"""Table-game forms: settings, the draw, and reading the hand grid of a score sheet.

The settings form is built from the variant's settings dataclass, so every number of the game's rules
(docs/rules/) is a tournament setting without a form per game. The hand grid is not a Django form: `read_hand` and
`read_result` turn what was typed into the stored rows (see `sheets`), or say per row what cannot be
read. Whether a readable row is allowed is for the rules to say. A number field whose rules give it a
notation (Quad-Ominos' points from turns, `NotationField`) also takes that notation, read with the
tournament's settings into the number that is stored.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.results.checks import rule_message
from scoring.rules.base import RuleError
from scoring.rules.tablegames import (
    FIELD_BOOL,
    FIELD_INT,
    FIELD_INT_OR_CARDS,
    FIELD_PLAYER,
    FIELD_SIGNED_INT,
    GameSpec,
)

from .config import BOOL, INT, MAPPING, OPTIONAL_INT, TableSettings, defaults_for, field_kinds
from .sheets import FINISH_TIME, TILES_LEFT, shown_fields

# --- the draw ------------------------------------------------------------------------------------------


# --- settings ------------------------------------------------------------------------------------------

#: labels of the numbers in the games' settings dataclasses (`scoring/rules/domino.py`, `rummi.py`, ...)
RULE_LABELS = {
    "target": gettext_lazy("Points that win the game (target)"),
    "limit": gettext_lazy("Penalty total that ends the game"),
    "max_hands": gettext_lazy("Fixed number of hands (empty: play to the target)"),
    "max_rounds": gettext_lazy("Fixed number of hands (empty: play to the limit)"),
    "tiles_each": gettext_lazy("Tiles dealt per player count (players: tiles)"),
    "max_pips_per_tile": gettext_lazy("Most pips on one tile (double-six: 12)"),
    "draw_from_boneyard": gettext_lazy("Players draw from the boneyard"),
    "tiles_in_set": gettext_lazy("Tiles in the set"),
    "joker_points": gettext_lazy("Joker left in hand"),
    "joker_in_hand_points": gettext_lazy("Joker left in hand, variant"),
    "joker_in_hand_variant": gettext_lazy("Play the variant value for jokers left in hand"),
    "face_card_points": gettext_lazy("Jack, queen, king"),
    "ace_points": gettext_lazy("Ace"),
    "cards_each": gettext_lazy("Cards dealt to each player"),
    "count_down": gettext_lazy("Show penalty totals counting down from 0 (same ranking)"),
    "start_bonus": gettext_lazy("Bonus for the starting tile"),
    "bonus": gettext_lazy("Bonus per bonus placement"),
    "draw_penalty": gettext_lazy("Points per tile drawn from the well"),
    "pass_penalty": gettext_lazy("Points for passing with the well empty"),
    "max_per_tile": gettext_lazy("Most points on one tile"),
}
#: numbers that may be negative (penalties)
SIGNED_RULES = ("draw_penalty", "pass_penalty")
_PAIR = re.compile(r"^\s*(\d+)\s*[:=]\s*(\d+)\s*$")


def mapping_text(mapping: Mapping[int, int]) -> str:
    return ", ".join(f"{key}: {value}" for key, value in sorted(mapping.items()))


def parse_mapping(text: str) -> dict[int, int]:
    pairs = [part for part in re.split(r"[,;]", text) if part.strip()]
    result = {}
    for part in pairs:
        match = _PAIR.match(part)
        if not match:
            raise forms.ValidationError(
                _("Write player counts and tiles as pairs, e.g. 2: 7, 3: 5, 4: 5 (“%(part)s” cannot be read).")
                % {"part": part.strip()}
            )
        result[int(match.group(1))] = int(match.group(2))
    if not result:
        raise forms.ValidationError(_("Name at least one player count."))
    return result


def parse_sizes(text: str) -> tuple[int, ...]:
    parts = [part for part in re.split(r"[\s,;/]+", text) if part]
    if not parts or not all(part.isdigit() for part in parts):
        raise forms.ValidationError(_("Write the table sizes as numbers, preferred first, e.g. 4, 3."))
    sizes = tuple(int(part) for part in parts)
    if len(set(sizes)) != len(sizes):
        raise forms.ValidationError(_("Name each table size once."))
    return sizes


class SettingsForm(forms.Form):
    """Variant, rounds, table sizes and every number of the variant's rules (`rule_<name>` fields)."""

    variant = forms.ChoiceField(label=gettext_lazy("Game"))
    rounds = forms.IntegerField(label=gettext_lazy("Rounds"), min_value=1, max_value=20)
    table_sizes = forms.CharField(
        label=gettext_lazy("Table sizes, preferred first"), max_length=40,
        help_text=gettext_lazy("E.g. 4, 3: tables of 4, and as few tables of 3 as the number of players needs. "
                               "Other sizes the game allows are added only when these cannot seat everyone."),
    )
    finish_time = forms.BooleanField(
        label=gettext_lazy("Record finish times (the tiebreak after tiles left)"), required=False,
    )

    def __init__(self, current: TableSettings, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.current = current
        game = current.game
        self.fields["variant"].choices = [(key, _(spec.name)) for key, spec in game.variants.items()]
        self.fields["variant"].help_text = _("Choosing another game resets the numbers below to its defaults.")
        self.fields["rounds"].label = _("Patience deals (rounds)") if game.patience else _("Rounds")
        if game.patience:
            del self.fields["table_sizes"]
        else:
            del self.fields["finish_time"]
        if len(game.variants) == 1:
            del self.fields["variant"]
        for name, kind in field_kinds(current.rules).items():
            self.fields[f"rule_{name}"] = rule_field(name, kind)
        self.initial = {**initial_from(current), **self.initial}

    def rule_names(self) -> list[str]:
        return [name for name in self.fields if name.startswith("rule_")]

    def clean_table_sizes(self):
        return parse_sizes(self.cleaned_data["table_sizes"])

    def variant_changed(self) -> bool:
        return self.cleaned_data.get("variant", self.current.variant) != self.current.variant

    def settings(self) -> TableSettings:
        """The settings the form describes; a new variant starts from its own defaults."""
        data = self.cleaned_data
        variant = data.get("variant", self.current.variant)
        if self.variant_changed():
            base = defaults_for(self.current.game, variant)
            rules = base.rules
        else:
            rules = dataclasses.replace(
                self.current.rules, **{name[len("rule_"):]: data[name] for name in self.rule_names()}
            )
        return dataclasses.replace(
            self.current, variant=variant, rules=rules, rounds=data["rounds"],
            table_sizes=data.get("table_sizes", self.current.table_sizes),
            finish_time=data.get("finish_time", False),
        )

    def fix_all(self) -> None:
        """Play has started: every setting shapes play, so all are shown but cannot be changed."""
        for form_field in self.fields.values():
            form_field.disabled = True


class MappingField(forms.CharField):
    def to_python(self, value):
        return parse_mapping(super().to_python(value) or "")


def rule_field(name: str, kind: str) -> forms.Field:
    label = RULE_LABELS.get(name, name.replace("_", " "))
    if kind == BOOL:
        return forms.BooleanField(label=label, required=False)
    if kind == MAPPING:
        return MappingField(label=label, max_length=120)
    minimum = None if name in SIGNED_RULES else (1 if kind == OPTIONAL_INT else 0)
    return forms.IntegerField(label=label, required=kind == INT, min_value=minimum, max_value=100_000)


def initial_from(current: TableSettings) -> dict:
    initial = {"variant": current.variant, "rounds": current.rounds,
               "table_sizes": ", ".join(map(str, current.table_sizes)), "finish_time": current.finish_time}
    for name, kind in field_kinds(current.rules).items():
        value = getattr(current.rules, name)
        initial[f"rule_{name}"] = mapping_text(value) if kind == MAPPING else value
    return initial


# --- the hand grid -------------------------------------------------------------------------------------


def input_name(number: int, key: str, seat: int | None = None) -> str:
    """The name of one input of the grid: hand 3, field "pips", seat 2 -> "h3-pips-2"."""
    return f"h{number}-{key}" if seat is None else f"h{number}-{key}-{seat}"


@dataclass
class GridRow:
    """One hand as typed: the texts to show again, the stored row (None: nothing typed) and what cannot be read."""

    number: int
    values: dict[str, str] = field(default_factory=dict)
    row: dict | None = None
    errors: list[str] = field(default_factory=list)
    #: the inputs that cannot be read, in the grid's order: the first gets the focus again
    invalid: list[str] = field(default_factory=list)


def row_texts(spec: GameSpec, seats, row: Mapping | None, number: int) -> dict[str, str]:
    """The input texts that show a stored hand row (the inverse of `read_hand`)."""
    row = row or {}
    row_fields, player_fields = shown_fields(spec)
    texts = {}
    for entry_field in row_fields:
        value = row.get(entry_field.key)
        if entry_field.kind == FIELD_BOOL:
            texts[input_name(number, entry_field.key)] = "on" if value else ""
        else:
            texts[input_name(number, entry_field.key)] = "" if value is None else str(value)
    for entry_field in player_fields:
        values = row.get(entry_field.key) or {}
        for seat in seats:
            value = values.get(str(seat)) if isinstance(values, Mapping) else None
            texts[input_name(number, entry_field.key, seat)] = "" if value is None else str(value)
    return texts


def read_hand(data: Mapping, spec: GameSpec, seats, number: int, rules=None) -> GridRow:
    """Hand `number` of the posted grid as a stored row; `rules` (the tournament's numbers, default the
    spec's) value a notation typed instead of a number."""
    rules = spec.default_settings if rules is None else rules
    row_fields, player_fields = shown_fields(spec)
    names = [input_name(number, f.key) for f in row_fields] + [
        input_name(number, f.key, seat) for f in player_fields for seat in seats
    ]
    texts = {name: typed(data.get(name, "")) for name in names}
    grid = GridRow(number, texts)
    if not any(texts.values()):
        return grid
    row: dict = {}
    for entry_field in row_fields:
        text = texts[input_name(number, entry_field.key)]
        row[entry_field.key] = _read_value(entry_field, text, seats, grid, rules)
    for entry_field in player_fields:
        values = {}
        for seat in seats:
            text = texts[input_name(number, entry_field.key, seat)]
            if text:
                values[str(seat)] = _read_value(entry_field, text, seats, grid, rules, seat)
        row[entry_field.key] = values
    grid.row = row
    return grid


def typed(text) -> str:
    """What was typed, spaces collapsed, without control and format characters (PostgreSQL stores no NUL)."""
    return " ".join("".join(ch for ch in str(text) if not unicodedata.category(ch).startswith("C")).split())


#: the largest number a sheet's field takes (seven digits)
MOST_NUMBER = 9_999_999


def _digits(text: str) -> bool:
    """Plain 0-9 digits, not too many: "²" or "١" pass str.isdigit() but are no numbers a table writes."""
    return text.isascii() and text.isdigit() and len(text) <= 7


def _read_value(entry_field, text: str, seats, grid: GridRow, rules=None, seat: int | None = None):
    errors = len(grid.errors)
    value = _read_typed(entry_field, text, seats, grid, rules, seat)
    if len(grid.errors) > errors:
        grid.invalid.append(input_name(grid.number, entry_field.key, seat))
    return value


def _read_typed(entry_field, text: str, seats, grid: GridRow, rules=None, seat: int | None = None):
    kind = entry_field.kind
    if kind == FIELD_BOOL:
        return bool(text)
    if not text:
        return None
    if kind == FIELD_PLAYER:
        if _digits(text) and int(text) in seats:
            return int(text)
        grid.errors.append(_("“%(field)s”: type the seat number of a player of this table (%(seats)s), not “%(text)s”.")
                           % {"field": _(entry_field.name), "seats": ", ".join(map(str, seats)), "text": text})
        return None
    if kind in (FIELD_INT, FIELD_SIGNED_INT):
        if re.fullmatch(r"[-−]?[0-9]{1,7}", text):
            return int(text.replace("−", "-"))
        parse = getattr(entry_field, "parse", None)
        if parse is not None:
            return _read_notation(entry_field, parse, text, grid, rules, seat)
        if re.fullmatch(r"[-−]?[0-9]+", text):  # a whole number, only too long: say the limit
            grid.errors.append(_("“%(field)s”: at most %(limit)s, not “%(text)s”.")
                               % {"field": _(entry_field.name), "limit": MOST_NUMBER, "text": text})
        else:
            grid.errors.append(_("“%(field)s”: “%(text)s” is not a whole number.")
                               % {"field": _(entry_field.name), "text": text})
        return None
    if kind == FIELD_INT_OR_CARDS:
        return text  # the rules read numbers and cards alike, and say what is wrong
    return text


def _read_notation(entry_field, parse, text: str, grid: GridRow, rules, seat: int | None):
    """The number a notation stands for (`NotationField.parse` with the tournament's numbers), or the rules'
    message on the row."""
    try:
        return parse(text, rules)
    except RuleError as error:
        if seat is None:
            grid.errors.append(_("“%(field)s”: %(message)s") % {"field": _(entry_field.name),
                                                                 "message": rule_message(error)})
        else:
            grid.errors.append(_("“%(field)s” of seat %(seat)s: %(message)s")
                               % {"field": _(entry_field.name), "seat": seat, "message": rule_message(error)})
        return None


def same_hand(spec: GameSpec, seats, stored: Mapping, typed: Mapping | None, number: int) -> bool:
    """True when a hand shown again and posted back reads the same as stored (so it is no correction)."""
    return typed is not None and row_texts(spec, seats, stored, number) == row_texts(spec, seats, typed, number)


# --- patience results ----------------------------------------------------------------------------------


def result_name(seat: int, key: str) -> str:
    return f"r{seat}-{key}"


def result_texts(row: Mapping | None) -> dict[str, str]:
    row = row or {}
    tiles, time = row.get(TILES_LEFT), row.get(FINISH_TIME)
    return {TILES_LEFT: "" if tiles is None else str(tiles), FINISH_TIME: "" if time is None else str(time)}


def read_result(data: Mapping, seat: int, with_time: bool) -> GridRow:
    """One player's patience result from the posted list: tiles left and (when recorded) finish time."""
    tiles = typed(data.get(result_name(seat, TILES_LEFT), ""))
    time = typed(data.get(result_name(seat, FINISH_TIME), "")) if with_time else ""
    grid = GridRow(seat, {TILES_LEFT: tiles, FINISH_TIME: time})
    if not tiles and not time:
        return grid
    row: dict = {"seat": seat, TILES_LEFT: None}
    if _digits(tiles):
        row[TILES_LEFT] = int(tiles)
    else:
        if tiles.isascii() and tiles.isdigit():
            grid.errors.append(_("Tiles left: at most %(limit)s, not “%(text)s”.")
                               % {"limit": MOST_NUMBER, "text": tiles})
        elif re.fullmatch(r"[-−][0-9]+", tiles):
            grid.errors.append(_("Tiles left cannot be negative (“%(text)s”): 0 when the patience came out.")
                               % {"text": tiles})
        else:
            grid.errors.append(_("Tiles left: “%(text)s” is not a whole number.") % {"text": tiles} if tiles
                               else _("Enter the tiles left (0 when the patience came out)."))
    if with_time:
        row[FINISH_TIME] = time
    grid.row = row
    return grid


def rules_summary(settings) -> list[tuple[str, str]]:
    """Every number of the rules as (label, value), for the overview."""
    form = SettingsForm(settings)
    return [(form.fields[name].label, format_setting(form.initial[name])) for name in form.rule_names()]


def format_setting(value) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)
