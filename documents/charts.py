"""Charts as SVG written on the server: a line chart (a standings progression, a season's cumulative points) and
a bar chart (results arriving per five minutes), for the screen, the beamer and the PDF alike.

No JavaScript and nothing from the internet: the SVG is inline in the page (WeasyPrint draws the same markup in a
PDF). Every colour and dash is an SVG attribute, not a stylesheet, so the content security policy (no inline
<style>) lets it through and the PDF needs no extra CSS. Each series has its own colour, dash pattern and marker
shape, so the lines stay apart in greyscale print. For screen readers the drawing is one image (`role="img"`)
with a title and a description, and the numbers are in a table that opens on demand (`<details>`).

`chart_html` renders a `LineChart` or `BarChart` through `templates/includes/chart.html`; the pure helpers
(`cumulative`, `per_slot`, `nice_ticks`) are what the games' data functions build on.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from .base import format_value

Number = int | Decimal | float

#: the drawing's own units (its viewBox); it scales to the width of the page. Narrow enough that its 14-unit type
#: is still 10 px on a 390 px phone
WIDTH, HEIGHT = 480, 300
LEFT, RIGHT, TOP, BOTTOM = 50, 14, 14, 44
#: the widest bar (a round whose results all came within a few slots)
MAX_BAR = 40
#: Okabe-Ito colours (told apart with most colour blindness), each with its dash and marker for greyscale print
STYLES = (
    ("#0072B2", "", "circle"),
    ("#D55E00", "8 4", "square"),
    ("#009E73", "2 3", "triangle"),
    ("#CC79A7", "10 3 2 3", "diamond"),
    ("#8A6100", "14 5", "down"),
    ("#56B4E9", "4 2 1 2", "plus"),
    ("#882255", "1 3", "cross"),
    ("#117733", "10 2 2 2 2 2", "bar"),
)
#: the series of the player who asked ("me"): black, thick, solid, filled circles
HIGHLIGHT = ("#000000", "", "dot")


@dataclass(frozen=True)
class Series:
    name: str
    #: one value per x label; None where there is none (the line stops there)
    values: Sequence[Number | None]
    #: the series of the player who asked for the chart: drawn on top, black and thick
    highlight: bool = False


@dataclass(frozen=True, kw_only=True)
class Chart:
    #: the prefix of the chart's ids (two charts on one page need two keys)
    key: str
    title: str
    description: str
    x_labels: Sequence[str]
    y_label: str
    #: the header of the table's first column (what a row is: "Player", "Five minutes from")
    row_header: str = ""
    #: shorter labels written under the x axis ("3" for "3: 24.01.2026"); the table has `x_labels`
    axis_labels: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class LineChart(Chart):
    series: Sequence[Series]


@dataclass(frozen=True, kw_only=True)
class BarChart(Chart):
    #: one bar per x label
    values: Sequence[int]


@dataclass
class Axis:
    low: float
    high: float
    ticks: list[Number] = field(default_factory=list)

    def y(self, value: Number) -> float:
        span = (self.high - self.low) or 1
        return round(TOP + (HEIGHT - TOP - BOTTOM) * (self.high - float(value)) / span, 1)


# --- pure helpers ------------------------------------------------------------------------------------------------


def cumulative(values: Iterable[Number | None]) -> list[Number]:
    """Running totals; a missing value (a round not played) adds nothing."""
    total: Number = 0
    sums = []
    for value in values:
        total += value or 0
        sums.append(total)
    return sums


def per_slot(times: Iterable[datetime], *, minutes: int = 5, start: datetime | None = None
             ) -> list[tuple[datetime, int]]:
    """How many of `times` fall into each slot of `minutes`, from the first one's slot (or `start`'s, when earlier:
    the round began then) to the last one's, empty slots included (a quiet spell is part of the picture). Slots
    start on the clock's multiples of `minutes`."""
    slots = Counter(_slot_start(time, minutes) for time in times)
    if not slots:
        return []
    first, last = min(slots), max(slots)
    if start is not None:
        first = min(first, _slot_start(start, minutes))
    count = int((last - first) / timedelta(minutes=minutes)) + 1
    return [(start, slots.get(start, 0)) for start in (first + timedelta(minutes=minutes * i) for i in range(count))]


def _slot_start(time: datetime, minutes: int) -> datetime:
    return time.replace(minute=time.minute - time.minute % minutes, second=0, microsecond=0)


def nice_ticks(low: float, high: float, *, count: int = 5, whole: bool = False) -> list[Number]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) covering `low`..`high`; `whole`: steps of
    at least 1 (counts and points have no halves to show)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(power * m for m in (1, 2, 5, 10) if power * m >= raw)
    if whole:
        step = max(step, 1)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while True:
        ticks.append(int(value) if float(step).is_integer() else round(value, 10))
        if value >= high:
            return ticks
        value += step


def label_step(labels: Sequence[str], room: float) -> int:
    """Write only every so many of the x axis' `labels` so that they do not run into each other in `room` units
    (a character of the 14-unit type is about 8.5 wide)."""
    widest = max((len(label) for label in labels), default=0) * 8.5 + 12
    fit = max(1, int(room // widest))
    return max(1, math.ceil(len(labels) / fit))


# --- drawing ------------------------------------------------------------------------------------------------------


def _y_axis(values: Iterable[Number | None], *, from_zero: bool) -> Axis:
    given = [v for v in values if v is not None]
    numbers = [float(v) for v in given]
    low = min(numbers, default=0.0)
    high = max(numbers, default=1.0)
    if from_zero:
        low, high = min(low, 0.0), max(high, 0.0)
    ticks = nice_ticks(low, high, whole=all(isinstance(v, int) or v == int(v) for v in given))
    return Axis(low=float(ticks[0]), high=float(ticks[-1]), ticks=ticks)


def _x_positions(count: int) -> list[float]:
    inner = WIDTH - LEFT - RIGHT
    if count == 1:
        return [LEFT + inner / 2]
    return [round(LEFT + 12 + (inner - 24) * i / (count - 1), 1) for i in range(count)]


#: each marker's outline, centred on (x, y), `s` its size
MARKERS = {
    "circle": lambda x, y, s: f"M{x - s},{y} a{s},{s} 0 1,0 {2 * s},0 a{s},{s} 0 1,0 {-2 * s},0 Z",
    "square": lambda x, y, s: f"M{x - s},{y - s} h{2 * s} v{2 * s} h{-2 * s} Z",
    "triangle": lambda x, y, s: f"M{x},{y - s * 1.2} L{x + s * 1.1},{y + s * 0.9} L{x - s * 1.1},{y + s * 0.9} Z",
    "down": lambda x, y, s: f"M{x},{y + s * 1.2} L{x + s * 1.1},{y - s * 0.9} L{x - s * 1.1},{y - s * 0.9} Z",
    "diamond": lambda x, y, s: f"M{x},{y - s * 1.3} L{x + s * 1.3},{y} L{x},{y + s * 1.3} L{x - s * 1.3},{y} Z",
    "plus": lambda x, y, s: f"M{x - s * 1.2},{y} H{x + s * 1.2} M{x},{y - s * 1.2} V{y + s * 1.2}",
    "cross": lambda x, y, s: f"M{x - s},{y - s} L{x + s},{y + s} M{x - s},{y + s} L{x + s},{y - s}",
    "bar": lambda x, y, s: f"M{x - s * 1.3},{y - s * 0.5} h{2.6 * s} v{s} h{-2.6 * s} Z",
}
MARKERS["dot"] = MARKERS["circle"]


def marker_path(shape: str, x: float, y: float, size: float = 4.5) -> str:
    """The SVG path of a marker centred on (x, y)."""
    return MARKERS[shape](x, y, size)


def _style(index: int, highlight: bool) -> tuple[str, str, str]:
    return HIGHLIGHT if highlight else STYLES[index % len(STYLES)]


def _x_labels(chart: Chart, xs: list[float]) -> list[dict]:
    """The labels written under the x axis, as many as there is room for; the first and the last end at the
    drawing's edge, not beyond it."""
    labels = chart.axis_labels or chart.x_labels
    every = label_step(labels, WIDTH - LEFT - RIGHT)
    last = len(labels) - 1
    return [{"x": x, "text": label, "anchor": "start" if i == 0 < last else "end" if i == last > 0 else "middle"}
            for i, (label, x) in enumerate(zip(labels, xs, strict=True)) if i % every == 0 or i == last]


def _y_ticks(axis: Axis) -> list[dict]:
    return [{"y": axis.y(tick), "text": format_value(tick)} for tick in axis.ticks]


def line_layout(chart: LineChart) -> dict:
    """Where everything of a line chart goes, in the drawing's units."""
    axis = _y_axis((v for s in chart.series for v in s.values), from_zero=True)
    xs = _x_positions(len(chart.x_labels))
    lines = []
    plain = 0
    for series in chart.series:
        colour, dash, shape = _style(plain, series.highlight)
        plain += not series.highlight
        points = [(x, axis.y(v)) for x, v in zip(xs, series.values, strict=False) if v is not None]
        lines.append({
            "name": series.name, "colour": colour, "dash": dash, "shape": shape, "highlight": series.highlight,
            "width": 3.5 if series.highlight else 2,
            "points": " ".join(f"{x},{y}" for x, y in points),
            "markers": " ".join(marker_path(shape, x, y) for x, y in points),
            "filled": shape not in ("plus", "cross"),
            "legend": marker_path(shape, 12, 8, 3.5),
        })
    rows = [{"name": s.name, "highlight": s.highlight,
             "cells": ["" if v is None else format_value(v) for v in s.values]} for s in chart.series]
    return {
        "chart": chart, "kind": "line", "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT,
        "top": TOP, "bottom": HEIGHT - BOTTOM, "zero": axis.y(0) if axis.low <= 0 <= axis.high else None,
        "y_ticks": _y_ticks(axis), "x_labels": _x_labels(chart, xs),
        # the highlighted series drawn last, on top of the others; the legend in the series' order
        "lines": sorted(lines, key=lambda line: line["highlight"]), "legend": lines, "rows": rows,
        "label_y": HEIGHT - BOTTOM + 18,
    }


def bar_layout(chart: BarChart) -> dict:
    """Where everything of a bar chart goes, in the drawing's units."""
    axis = _y_axis(chart.values, from_zero=True)
    count = len(chart.values)
    inner = WIDTH - LEFT - RIGHT
    slot = inner / max(count, 1)
    bar = min(MAX_BAR, max(1.0, slot * 0.7))
    bars = []
    for i, value in enumerate(chart.values):
        top = axis.y(value)
        bars.append({"x": round(LEFT + slot * i + (slot - bar) / 2, 1), "y": top, "width": round(bar, 1),
                     "height": round(axis.y(0) - top, 1)})
    xs = [round(LEFT + slot * i + slot / 2, 1) for i in range(count)]
    rows = [{"name": label, "cells": [format_value(value)]} for label, value in zip(chart.x_labels, chart.values,
                                                                                     strict=True)]
    return {
        "chart": chart, "kind": "bar", "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT,
        "top": TOP, "bottom": HEIGHT - BOTTOM, "zero": axis.y(0), "y_ticks": _y_ticks(axis),
        "x_labels": _x_labels(chart, xs), "bars": bars, "colour": STYLES[0][0],
        "rows": rows, "label_y": HEIGHT - BOTTOM + 18,
    }


def chart_html(chart: LineChart | BarChart, *, table: bool = True) -> SafeString:
    """The chart as a <figure>: the drawing, its legend and (`table`) the numbers on demand."""
    layout = line_layout(chart) if isinstance(chart, LineChart) else bar_layout(chart)
    return SafeString(render_to_string("includes/chart.html", {**layout, "table": table}))
