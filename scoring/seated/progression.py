"""A seated game's standings as a picture: the running total of the ranking's first value (Schafkopf's points, the
table games' tournament points, a patience's tiles left) after each round, for the top of the ranking and, where a
player is known (the public "find my seat" with one player found), for that player too.

Drawn from the one standings the page computes anyway: each row holds its value of every round (`Row.rounds`),
and the running total of those is the first value of the ranking after that round. No ranking per round is
computed, so the picture costs the page nothing that grows with the number of rounds or players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from documents.charts import LineChart, Series, cumulative

#: how many of the top of the ranking the picture shows
TOP = 8


class Ranked(NamedTuple):
    """What the picture needs of a ranking's row: plain values (the public pages cache them); a tuple, made
    for each of 2,000 rows at every change."""

    rank: int | None
    number: int
    name: str
    #: the row's value of each round 1..n, None where the player has none (yet)
    rounds: Sequence


@dataclass(frozen=True)
class Line:
    label: str
    totals: list
    me: bool = False


def progression(rows: Iterable[Ranked], *, top: int = TOP, me: int | None = None) -> tuple[int, list[Line]]:
    """(rounds shown, lines): the running totals of the first `top` ranked rows, then of the player numbered `me`
    (marked; not repeated when he is among them), over the rounds up to the last one anybody has a value of."""
    rows = list(rows)
    ranked = [row for row in rows if row.rank is not None]
    shown = ranked[:top]
    mine = next((row for row in ranked if row.number == me), None) if me is not None else None
    if mine is not None and mine not in shown:
        shown.append(mine)
    played = max((i + 1 for row in ranked for i, value in enumerate(row.rounds) if value is not None), default=0)
    lines = [Line(f"{row.rank}. {row.name}", cumulative(row.rounds[:played]), me=row is mine) for row in shown]
    return played, lines


def progression_chart(rows: Iterable[Ranked], *, metric: str, top: int = TOP, me: int | None = None,
                      key: str = "progression") -> LineChart | None:
    """The picture of `progression`, `metric` naming what is added up ("Points"); None before any round counts."""
    played, lines = progression(rows, top=top, me=me)
    if not played or not lines:
        return None
    others = [line for line in lines if not line.me]
    mine = next((line for line in lines if line.me), None)
    description = ngettext(
        "%(metric)s added up round by round for the best placed player.",
        "%(metric)s added up round by round for the %(count)s best placed players.",
        len(others)) % {"metric": metric, "count": len(others)}
    if mine is not None:
        description += " " + _("The thick black line: %(name)s.") % {"name": mine.label}
    return LineChart(
        key=key, title=_("%(metric)s after each round") % {"metric": metric}, description=description,
        x_labels=[_("R%(number)s") % {"number": number} for number in range(1, played + 1)],
        series=[Series(line.label, line.totals, highlight=line.me) for line in lines], y_label=metric,
        row_header=_("Player"))
