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
from operator import itemgetter
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
    #: None: no result yet, so no rank (a game's standings list such participants after the ranked ones)
    rank: int | None = 0
    values: dict[str, Any] = field(default_factory=dict)
    #: key of the metric that put this participant below the one above it
    separated_by: str | None = None
    #: True when the lot decided this participant's place among tied ones
    by_lot: bool = False


def _lot_order(group: Sequence[Participant], seed: int | str,
               lot_keys: Mapping[Participant, Hashable] | None = None) -> list[Participant]:
    """A reproducible shuffle of `group` that depends only on the seed and the members' lot keys.

    A lot key is what names a participant wherever the tournament goes (its participant or team number):
    keyed on database ids, the copy a tournament file makes on another machine could draw another order.
    Without `lot_keys` a participant is its own key.
    """
    def key(member: Participant) -> Hashable:
        return member if lot_keys is None else lot_keys[member]

    members = sorted(group, key=lambda m: repr(key(m)))
    rng = random.Random(f"{seed}:" + "|".join(repr(key(m)) for m in members))
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
    lot_keys: Mapping[Participant, Hashable] | None = None,
) -> list[Standing]:
    """Order `participants` by `chain`; ties left at the end go to lot.

    With `seed=None` no lot is drawn: participants still tied share a rank. `lot_keys` names each participant
    for the lot (`_lot_order`); the games pass participant numbers (team numbers), which travel in the file.
    Returns one `Standing` per participant, best first, with every metric's
    value (subset metrics: the value in the last group they were compared in).
    """
    if any(metric.subset is not None for metric in chain):
        return _rank_recursive(participants, chain, values, seed=seed, lot_keys=lot_keys)
    return _rank_sorted(participants, chain, values, seed=seed, lot_keys=lot_keys)


def _standings(participants, chain, values) -> dict[Participant, Standing]:
    empty: Mapping[str, Any] = {}
    standings = {p: Standing(p, values=dict(values.get(p, empty))) for p in participants}
    subset_keys = [metric.key for metric in chain if metric.subset is not None]
    for p in participants:
        for key in subset_keys:
            standings[p].values.setdefault(key, None)
    return standings


def _rank_recursive(participants, chain, values, *, seed, lot_keys=None) -> list[Standing]:
    """The general path: the chain is walked group by group, so subset metrics see the group still tied."""
    standings = _standings(participants, chain, values)

    def resolve(group: list[Participant], step: int, separated_by: str | None) -> list[tuple[list, str | None]]:
        """Return `group` as ordered blocks that are still tied, each with the metric that put it below the block
        before it (the group's own `separated_by` goes to its first block)."""
        if len(group) <= 1 or step >= len(chain):
            return [(group, separated_by)]
        metric = chain[step]
        if metric.subset is not None:
            computed = metric.subset(frozenset(group))
            for p in group:
                standings[p].values[metric.key] = computed[p]
            value = computed.__getitem__
        else:
            def value(p, key=metric.key):
                return standings[p].values[key]
        out: list[tuple[list, str | None]] = []
        for i, block in enumerate(_blocks(group, value, metric.higher_is_better)):
            # A subset metric is recomputed on a smaller tied group before the
            # chain moves on: the games among the still tied decide first.
            again = metric.subset is not None and 1 < len(block) < len(group)
            out.extend(resolve(block, step if again else step + 1, separated_by if i == 0 else metric.key))
        return out

    return _place(resolve(list(participants), 0, None), standings, seed, lot_keys)


def _rank_sorted(participants, chain, values, *, seed, lot_keys=None) -> list[Standing]:
    """The same ranking as `_rank_recursive` for a chain of plain metrics only, in a few sorts and one pass.

    Stable sorts by the last metric first and the first metric last order the participants by the whole
    chain; consecutive participants equal on every metric are a tied block, and a block is separated from
    the one before by the first metric on which they differ (what the recursive walk records)."""
    if len(participants) <= 1:
        # the recursive walk reads no value for a single participant (nor may we: it may have none)
        return _rank_recursive(participants, chain, values, seed=seed, lot_keys=lot_keys)
    standings = _standings(participants, chain, values)
    keys = [metric.key for metric in chain]
    # (value of the first metric, ..., value of the last, participant)
    try:
        entries = [(*(standings[p].values[key] for key in keys), p) for p in participants]
        for index in range(len(chain) - 1, -1, -1):
            entries.sort(key=itemgetter(index), reverse=chain[index].higher_is_better)
    except (KeyError, TypeError):
        # A missing value, or values that cannot be compared: the recursive walk reads and compares only
        # inside groups still tied, so let it succeed or fail exactly where it always did.
        return _rank_recursive(participants, chain, values, seed=seed, lot_keys=lot_keys)
    first = entries[0]
    blocks: list[tuple[list, str | None]] = [([first[-1]], None)]
    lead = keys[0] if keys else None
    for entry in entries[1:]:
        # compared with the block's first member, as `_blocks` does (the participant last: never compared)
        if keys and entry[0] != first[0]:
            separated_by = lead
        else:
            separated_by = next((key for key, mine, theirs in zip(keys, entry, first, strict=False) if mine != theirs),
                                None)
        if separated_by is None:
            blocks[-1][0].append(entry[-1])
        else:
            blocks.append(([entry[-1]], separated_by))
            first = entry
    return _place(blocks, standings, seed, lot_keys)


def _place(blocks, standings: dict[Participant, Standing], seed, lot_keys=None) -> list[Standing]:
    """Ranks for the ordered tied blocks: by lot inside a block when there is a seed, else a shared rank."""
    result: list[Standing] = []
    position = 1
    for block, separated_by in blocks:
        if len(block) > 1 and seed is not None:
            ordered = _lot_order(block, seed, lot_keys)
            for p in ordered:
                standings[p].by_lot = True
        else:
            ordered = sorted(block, key=lambda p: repr(p if lot_keys is None else lot_keys[p])) \
                if len(block) > 1 else block
        for i, p in enumerate(ordered):
            s = standings[p]
            s.rank = position + i if seed is not None else position
            s.separated_by = separated_by if i == 0 else (LOT_KEY if seed is not None else None)
            result.append(s)
        position += len(block)
    return result
