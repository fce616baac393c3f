"""A Schafkopf tournament's settings: what `Tournament.settings` holds, read into one typed object.

The stored JSON keeps the defaults of docs/rules/schafkopf.md until the director changes them; `settings_of` fills
in anything missing, so tournaments created before a setting existed still read cleanly.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from scoring.rules.schafkopf import TARIFF_PRESETS, PrizeSpec, Tariff, games_at_five, tariff_from_dict, tariff_to_dict

DEFAULT_PRESET = "standard"
GAMES_MODE = "games"
TOTALS_MODE = "totals"
MODES = (GAMES_MODE, TOTALS_MODE)
TABLE_SIZES = (4, 5)


def default_settings() -> dict:
    """The defaults (docs/rules/schafkopf.md): 2 rounds of 30 games (40 at a 5-table), the standard tariff."""
    return {
        "rounds": 2,
        "games_per_round": 30,
        "games_at_five": games_at_five(30),
        "tariff_preset": DEFAULT_PRESET,
        "tariff": tariff_to_dict(TARIFF_PRESETS[DEFAULT_PRESET]),
        "separate_clubs": True,
        # participant number (as text: JSON keys are strings) -> table number
        "fixed_tables": {},
        "prizes": [],
        # the tables' phones may send each player's total and counts instead of the list game by game
        "phone_totals": False,
    }


@dataclass(frozen=True)
class Settings:
    rounds: int
    games_per_round: int
    games_at_five: int
    tariff_preset: str
    tariff: Tariff
    separate_clubs: bool
    fixed_tables: dict[int, int]
    entry_fee: Decimal
    prizes: tuple[PrizeSpec, ...]
    #: a table's phone page may send totals only (docs/rules/schafkopf.md: totals only, per player plus the counts)
    phone_totals: bool = False

    def games_at(self, table_size: int) -> int:
        """Games per round at a table of this size (a 5-table plays more, so all deal equally often)."""
        return self.games_at_five if table_size == 5 else self.games_per_round

    def to_json(self) -> dict:
        """The game's own settings; the entry fee is stored on the tournament (see `settings_of`)."""
        return {
            "rounds": self.rounds,
            "games_per_round": self.games_per_round,
            "games_at_five": self.games_at_five,
            "tariff_preset": self.tariff_preset,
            "tariff": tariff_to_dict(self.tariff),
            "separate_clubs": self.separate_clubs,
            "fixed_tables": {str(number): table for number, table in sorted(self.fixed_tables.items())},
            "prizes": [{"kind": p.kind, "value": str(p.value)} for p in self.prizes],
            "phone_totals": self.phone_totals,
        }


def _decimal(value, default: str) -> Decimal:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return Decimal(default)


def settings_of(tournament) -> Settings:
    stored = {**default_settings(), **(tournament.settings or {})}
    return Settings(
        rounds=int(stored["rounds"]),
        games_per_round=int(stored["games_per_round"]),
        games_at_five=int(stored["games_at_five"]),
        tariff_preset=stored["tariff_preset"],
        tariff=tariff_from_dict(stored["tariff"]),
        separate_clubs=bool(stored["separate_clubs"]),
        fixed_tables={int(number): int(table) for number, table in stored["fixed_tables"].items()},
        # the fee is the tournament's (`Tournament.entry_fee`, shared with the registration desk), not a game setting
        entry_fee=tournament.entry_fee if tournament.entry_fee is not None else Decimal("0.00"),
        prizes=tuple(PrizeSpec(p["kind"], _decimal(p["value"], "0")) for p in stored["prizes"]),
        phone_totals=bool(stored["phone_totals"]),
    )
