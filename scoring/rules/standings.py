"""The standings engine: rank participants by a chain of named metrics.

Games describe their ranking as an ordered chain of `Metric`s (points, wins,
lus difference, head-to-head among the tied, ...). A plain metric reads a
precomputed value per participant; a *subset* metric (head-to-head) is
recomputed on the group that is still tied when the chain reaches it, and again
on every smaller group it leaves tied. Whatever is still tied at the end of the
chain is decided by lot, drawn from a stored seed, and marked as such.

Pure Python: no Django. Metric names are marked for translation with
`gettext_noop`; the Django layer translates them when it shows the columns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import gettext_noop

Participant = Hashable
SubsetValues = Callable[[frozenset], Mapping[Any, Any]]

LOT_KEY = "lot"
LOT_NAME = gettext_noop("Lot")
LOT_ABBR = gettext_noop("Lot")


@dataclass(frozen=True)
class Metric:
    """One step of a ranking chain, shown as one column.

    `key` identifies the value in the per-participant mapping (plain metrics) or
    in the result of `subset` (subset metrics). Values must be comparable with
    each other; tuples are fine (e.g. head-to-head points, then lus difference).
    """

    key: str
    name: str
    abbr: str
    higher_is_better: bool = True
    subset: SubsetValues | None = None


@dataclass
class Standing:
    participant: Participant
    rank: int = 0
    values: dict[str, Any] = field(default_factory=dict)
    #: key of the metric that put this participant below the one above it
    separated_by: str | None = None
    #: True when the lot decided this participant's place among tied ones
    by_lot: bool = False


def _lot_order(group: Sequence[Participant], seed: int | str) -> list[Participant]:
    """A reproducible shuffle of `group` that depends only on the seed and members."""
    members = sorted(group, key=repr)
    rng = random.Random(f"{seed}:" + "|".join(repr(m) for m in members))
    rng.shuffle(members)
    return members


def _blocks(group: Sequence[Participant], value: Callable[[Participant], Any], higher_is_better: bool):
    """Split `group` into blocks of equal value, best block first."""
    ordered = sorted(group, key=value, reverse=higher_is_better)
    blocks: list[list[Participant]] = []
    for p in ordered:
        if blocks and value(blocks[-1][0]) == value(p):
            blocks[-1].append(p)
        else:
            blocks.append([p])
    return blocks


def rank(
    participants: Sequence[Participant],
    chain: Sequence[Metric],
    values: Mapping[Participant, Mapping[str, Any]],
    *,
    seed: int | str | None = 0,
) -> list[Standing]:
    """Order `participants` by `chain`; ties left at the end go to lot.

    With `seed=None` no lot is drawn: participants still tied share a rank.
    Returns one `Standing` per participant, best first, with every metric's
    value (subset metrics: the value in the last group they were compared in).
    """
    standings = {p: Standing(p, values={k: v for k, v in values.get(p, {}).items()}) for p in participants}
    for p in participants:
        for metric in chain:
            if metric.subset is not None:
                standings[p].values.setdefault(metric.key, None)

    def resolve(group: list[Participant], step: int) -> list[list[Participant]]:
        """Return `group` as an ordered list of blocks that are still tied."""
        if len(group) <= 1 or step >= len(chain):
            return [group]
        metric = chain[step]
        if metric.subset is not None:
            computed = metric.subset(frozenset(group))
            for p in group:
                standings[p].values[metric.key] = computed[p]
            value = computed.__getitem__
        else:
            def value(p, key=metric.key):
                return standings[p].values[key]
        blocks = _blocks(group, value, metric.higher_is_better)
        for block in blocks[1:]:
            standings[block[0]].separated_by = metric.key
        out: list[list[Participant]] = []
        for block in blocks:
            # A subset metric is recomputed on a smaller tied group before the
            # chain moves on: the games among the still tied decide first.
            again = metric.subset is not None and 1 < len(block) < len(group)
            out.extend(resolve(block, step if again else step + 1))
        return out

    blocks = resolve(list(participants), 0)
    result: list[Standing] = []
    position = 1
    for block in blocks:
        if len(block) > 1 and seed is not None:
            drawn = _lot_order(block, seed)
            for i, p in enumerate(drawn):
                s = standings[p]
                s.by_lot = True
                s.rank = position + i
                if i:
                    s.separated_by = LOT_KEY
                result.append(s)
        else:
            for p in sorted(block, key=repr):
                standings[p].rank = position
                result.append(standings[p])
        position += len(block)
    return result
