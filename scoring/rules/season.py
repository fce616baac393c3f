"""The season ranking ("Jahreswertung", "sæsonstilling"): many evenings' results, one ranking.

Pure Python: no Django. Each person's evenings are given as `EveningResult`s (place, the game's own points,
and the game's tie-break values after its points); `SeasonRules` says how they count:

- an evening is worth its place's points from a table (`place_points`, 1st place first; places beyond the
  table are worth 0) or the game's own points (`place_points=None`);
- only the best `best_of` evenings count (None: all); the others are kept, marked as discarded. Among
  evenings of equal worth the earlier one counts;
- a person with fewer than `min_evenings` evenings is listed after the ranked ones, without a rank;
- ties on the total are broken by the game's own chain (its tie-break values, summed over the counted
  evenings), then by more evenings played; whoever is still tied shares the rank (no lot over a season).

`season_stats` gives a club's figures per person: evenings played, average points, best place.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

Person = Hashable


@dataclass(frozen=True)
class EveningResult:
    """One person's final result on one evening of the season."""

    #: the evening's position in the season (1 = the first evening), also what orders equal-worth evenings
    evening: int
    place: int
    #: the game's own points on that evening (Schafkopf points, tournament points, ...)
    points: Decimal
    #: the game's chain after its points, each turned so that more is better (summed over counted evenings)
    ties: tuple[Decimal, ...] = ()


@dataclass(frozen=True)
class SeasonRules:
    #: points for 1st, 2nd, ... place; None: the game's own points count
    place_points: tuple[Decimal, ...] | None = None
    #: only the best N evenings count; None: every evening
    best_of: int | None = None
    min_evenings: int = 1
    #: the game's own points: whether more is better (patience counts tiles left: fewer is better)
    higher_is_better: bool = True

    def __post_init__(self):
        if self.best_of is not None and self.best_of < 1:
            raise ValueError("best_of must be at least 1")
        if self.min_evenings < 1:
            raise ValueError("min_evenings must be at least 1")

    def worth(self, result: EveningResult) -> Decimal:
        """What an evening brings to the season total."""
        if self.place_points is None:
            return Decimal(result.points)
        index = result.place - 1
        return Decimal(self.place_points[index]) if 0 <= index < len(self.place_points) else Decimal(0)

    @property
    def more_is_better(self) -> bool:
        return self.place_points is not None or self.higher_is_better


@dataclass(frozen=True)
class Contribution:
    """One evening in a person's season row: its worth, and whether it counts or was discarded."""

    evening: int
    place: int
    worth: Decimal
    counted: bool


@dataclass
class SeasonStanding:
    person: Person
    #: None: fewer evenings than the season asks for, listed unranked after the ranked persons
    rank: int | None
    total: Decimal
    evenings: int
    contributions: list[Contribution] = field(default_factory=list)
    ties: tuple[Decimal, ...] = ()
    #: "ties" or "evenings" when that, not the total, put this person below the one above
    separated_by: str | None = None

    @property
    def ranked(self) -> bool:
        return self.rank is not None


def counted_evenings(results: Sequence[EveningResult], rules: SeasonRules) -> list[Contribution]:
    """Each evening with its worth, the best `best_of` marked as counted (ties: the earlier evening counts)."""
    ordered = sorted(results, key=lambda r: r.evening)
    sign = 1 if rules.more_is_better else -1
    best = sorted(ordered, key=lambda r: (-sign * rules.worth(r), r.evening))
    keep = {id(r) for r in (best if rules.best_of is None else best[:rules.best_of])}
    return [Contribution(r.evening, r.place, rules.worth(r), id(r) in keep) for r in ordered]


def _tie_values(results: Sequence[EveningResult], contributions: Sequence[Contribution]) -> tuple[Decimal, ...]:
    counted = {c.evening for c in contributions if c.counted}
    width = max((len(r.ties) for r in results), default=0)
    sums = [Decimal(0)] * width
    for result in results:
        if result.evening in counted:
            for index, value in enumerate(result.ties):
                sums[index] += Decimal(value)
    return tuple(sums)


def season_ranking(results: Mapping[Person, Sequence[EveningResult]], rules: SeasonRules) -> list[SeasonStanding]:
    """The season's standings, best first; the persons short of `min_evenings` last, unranked."""
    sign = 1 if rules.more_is_better else -1
    rows = []
    for person, evenings in results.items():
        if not evenings:
            continue
        if len({r.evening for r in evenings}) != len(evenings):
            raise ValueError(f"{person!r}: two results for one evening")
        contributions = counted_evenings(evenings, rules)
        total = sum((c.worth for c in contributions if c.counted), Decimal(0))
        rows.append(SeasonStanding(person, None, total, len(evenings), contributions,
                                   _tie_values(evenings, contributions)))

    def key(row: SeasonStanding):
        return (sign * row.total, row.ties, row.evenings)

    ranked = sorted((r for r in rows if r.evenings >= rules.min_evenings), key=key, reverse=True)
    unranked = sorted((r for r in rows if r.evenings < rules.min_evenings), key=key, reverse=True)
    previous = None
    for position, row in enumerate(ranked, start=1):
        if previous is not None and key(previous) == key(row):
            row.rank = previous.rank
        else:
            row.rank = position
            if previous is not None and previous.total == row.total:
                row.separated_by = "ties" if previous.ties != row.ties else "evenings"
        previous = row
    return ranked + unranked


@dataclass(frozen=True)
class PersonStats:
    evenings: int
    average_points: Decimal
    best_place: int
    best_points: Decimal


def season_stats(results: Sequence[EveningResult], *, higher_is_better: bool = True) -> PersonStats | None:
    """Evenings played, the average of the game's own points (to two places), the best place and best points."""
    if not results:
        return None
    points = [Decimal(r.points) for r in results]
    average = (sum(points, Decimal(0)) / len(points)).quantize(Decimal("0.01"))
    best_points = max(points) if higher_is_better else min(points)
    return PersonStats(len(results), average, min(r.place for r in results), best_points)


# --- one evening, as a game hands it to the season ---------------------------------------------------------------


@dataclass(frozen=True)
class EveningRow:
    participant: Hashable
    place: int
    points: Decimal
    ties: tuple[Decimal, ...] = ()


@dataclass(frozen=True)
class EveningRanking:
    """An evening's ranking as the season reads it; only a final one counts (a provisional one is shown as such)."""

    final: bool
    rows: tuple[EveningRow, ...]
    #: whether more of the game's own points is better
    higher_is_better: bool = True


def evening_rows(ranked: Sequence[tuple[Hashable, int | None, Mapping]], chain: Sequence) -> tuple[EveningRow, ...]:
    """Rows of (participant, place, metric values) ranked by a game's `chain` (standings.Metric) as season rows:
    the points are the chain's first metric, the ties its further numeric metrics turned so that more is better.
    A participant without a place (no result yet) is left out."""
    rows = []
    for participant, place, values in ranked:
        if place is None:
            continue
        ties = []
        for metric in chain[1:]:
            value = values.get(metric.key)
            if isinstance(value, int | Decimal) and not isinstance(value, bool):
                ties.append(Decimal(value) if metric.higher_is_better else -Decimal(value))
        rows.append(EveningRow(participant, place, Decimal(values.get(chain[0].key) or 0), tuple(ties)))
    return tuple(rows)
