"""Prizes and players who cannot win one (docs/rules/seated.md, "Prizes", every seated game): plain
Python, no Django."""

from __future__ import annotations

from collections.abc import Sequence


def award_prizes(rows: Sequence, amounts: Sequence) -> list:
    """Hand the prize `amounts` (first place first) to the ranked `rows` in rank order, skipping the rows that
    cannot win one (no result, excluded, or not eligible): their prize goes to the next eligible player.

    A row has `has_result`, `excluded`, `prize_eligible` and a `prize` to set; returns the skipped rows that
    would have won a prize had they been eligible (the prize list names them, and why)."""
    skipped = []
    places = iter(amounts)
    remaining = len(amounts)
    for row in rows:
        if not row.has_result or row.excluded or remaining == 0:
            continue
        if not row.prize_eligible:
            skipped.append(row)
            continue
        row.prize = next(places)
        remaining -= 1
    return skipped
