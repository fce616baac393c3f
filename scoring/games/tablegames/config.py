"""A table-game tournament's settings: what `Tournament.settings` holds, read into one typed object.

The stored JSON is
    {"variant": "femmer", "rounds": 3, "table_sizes": [4, 3], "finish_time": false, "rules": {...}}
where `rules` holds every number of the variant's settings dataclass (the spec's `default_settings`,
the defaults of docs/rules/ until the director changes them). `settings_of` fills in anything missing, so a
tournament created before a setting existed still reads cleanly.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scoring.rules.tablegames import GameSpec
from scoring.seated.game import seated_game
from tournament.services.errors import DomainError

from .family import TableGame

#: how a rules field is stored and edited, from its type annotation
INT, OPTIONAL_INT, BOOL, MAPPING = "int", "optional_int", "bool", "mapping"


@dataclass(frozen=True)
class TableSettings:
    game: TableGame
    variant: str
    #: the spec's settings dataclass with the tournament's numbers
    rules: Any
    rounds: int
    table_sizes: tuple[int, ...]
    #: patiences: the director records every player's finish time (the tiebreak after tiles left)
    finish_time: bool = False

    @property
    def spec(self) -> GameSpec:
        return self.game.spec(self.variant)

    @property
    def patience(self) -> bool:
        return self.game.patience

    @property
    def lower_is_better(self) -> bool:
        return self.spec.lower_is_better

    @property
    def min_players(self) -> int:
        # Domino deals per player count: the director's deal table decides which counts can play.
        return getattr(self.rules, "min_players", self.spec.min_players)

    @property
    def max_players(self) -> int | None:
        return getattr(self.rules, "max_players", self.spec.max_players)

    @property
    def allowed_sizes(self) -> tuple[int, ...]:
        """Every table size the game can be played at (capped at 8 for games without an upper bound)."""
        top = self.max_players if self.max_players is not None else 8
        return tuple(range(max(self.min_players, 2), top + 1))

    @property
    def fixed_hands(self) -> int | None:
        """The fixed number of hands of a time-boxed game, when the director set one."""
        return getattr(self.rules, "max_hands", None) or getattr(self.rules, "max_rounds", None)

    @property
    def count_down(self) -> bool:
        """Rummi's display option: penalty totals shown counting down from 0 (same ranking)."""
        return bool(getattr(self.rules, "count_down", False))

    def shown(self, total):
        """A game total as shown on pages and printouts."""
        return -total if self.count_down and total else total

    def to_json(self) -> dict:
        return {
            "variant": self.variant,
            "rounds": self.rounds,
            "table_sizes": list(self.table_sizes),
            "finish_time": self.finish_time,
            "rules": rules_to_json(self.rules),
        }


def field_kinds(rules) -> dict[str, str]:
    """Each field of a rules dataclass with how it is stored: int, optional int, bool or {int: int}."""
    hints = typing.get_type_hints(type(rules))
    kinds = {}
    for field in dataclasses.fields(rules):
        hint = hints[field.name]
        args = typing.get_args(hint)
        if hint is bool:
            kinds[field.name] = BOOL
        elif hint is int:
            kinds[field.name] = INT
        elif int in args and type(None) in args:
            kinds[field.name] = OPTIONAL_INT
        elif typing.get_origin(hint) in (Mapping, dict):
            kinds[field.name] = MAPPING
        else:
            raise TypeError(f"{type(rules).__name__}.{field.name}: unsupported setting type {hint!r}")
    return kinds


def rules_to_json(rules) -> dict:
    data = {}
    for name, kind in field_kinds(rules).items():
        value = getattr(rules, name)
        data[name] = {str(k): v for k, v in sorted(value.items())} if kind == MAPPING else value
    return data


def rules_from_json(defaults, data: Mapping | None):
    """`defaults` with the stored numbers applied; unknown or unreadable entries keep the default."""
    changes = {}
    for name, kind in field_kinds(defaults).items():
        if not data or name not in data:
            continue
        value = data[name]
        try:
            if kind == MAPPING:
                changes[name] = {int(k): int(v) for k, v in value.items()}
            elif kind == BOOL:
                changes[name] = bool(value)
            elif kind == OPTIONAL_INT:
                changes[name] = None if value in (None, "") else int(value)
            else:
                changes[name] = int(value)
        except (TypeError, ValueError, AttributeError):
            continue
    return dataclasses.replace(defaults, **changes)


def default_settings(game: TableGame) -> dict:
    """The defaults of the game's first variant (docs/rules/)."""
    return defaults_for(game, game.default_variant).to_json()


def defaults_for(game: TableGame, variant: str) -> TableSettings:
    spec = game.spec(variant)
    return TableSettings(game=game, variant=spec_key(game, spec), rules=spec.default_settings, rounds=game.rounds,
                         table_sizes=game.table_sizes)


def spec_key(game: TableGame, spec: GameSpec) -> str:
    return next(key for key, candidate in game.variants.items() if candidate is spec)


def settings_of(tournament) -> TableSettings:
    game = seated_game(tournament).game
    stored = tournament.settings or {}
    base = defaults_for(game, stored.get("variant", game.default_variant))
    sizes = stored.get("table_sizes") or list(base.table_sizes)
    return dataclasses.replace(
        base,
        rules=rules_from_json(base.rules, stored.get("rules")),
        rounds=int(stored.get("rounds") or base.rounds),
        table_sizes=tuple(int(size) for size in sizes),
        finish_time=bool(stored.get("finish_time", False)),
    )


def check_sizes(settings: TableSettings) -> None:
    """A `DomainError` when the table sizes are not ones the game can be played at."""
    if settings.patience:
        return
    wrong = [size for size in settings.table_sizes if size not in settings.allowed_sizes]
    if not settings.table_sizes or wrong:
        raise DomainError(
            _("This game is played at tables of %(min)s to %(max)s players; %(sizes)s cannot be used.")
            % {"min": settings.allowed_sizes[0], "max": settings.allowed_sizes[-1],
               "sizes": ", ".join(map(str, wrong)) or "–"},
            field="table_sizes",
        )
