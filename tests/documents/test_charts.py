"""The charts drawn on the server (documents/charts.py): the pure helpers with exact values, and the SVG they make
(series, labels, the accessible name and description, the numbers on demand)."""

import re
from datetime import datetime
from decimal import Decimal

from documents.charts import (
    STYLES,
    BarChart,
    LineChart,
    Series,
    chart_html,
    cumulative,
    label_step,
    line_layout,
    nice_ticks,
    per_slot,
)


def test_cumulative_adds_up_and_a_missing_value_adds_nothing():
    assert cumulative([3, None, 5, -2]) == [3, 3, 8, 6]
    assert cumulative([Decimal("2.5"), Decimal("1.5")]) == [Decimal("2.5"), Decimal("4.0")]
    assert cumulative([]) == []


def test_per_slot_counts_each_five_minutes_from_the_first_to_the_last_with_the_quiet_ones():
    times = [datetime(2026, 11, 27, 19, 3, 59), datetime(2026, 11, 27, 19, 1), datetime(2026, 11, 27, 19, 12),
             datetime(2026, 11, 27, 19, 14, 59, 999)]
    assert per_slot(times) == [(datetime(2026, 11, 27, 19, 0), 2), (datetime(2026, 11, 27, 19, 5), 0),
                               (datetime(2026, 11, 27, 19, 10), 2)]
    assert per_slot(times, minutes=15) == [(datetime(2026, 11, 27, 19, 0), 4)]
    assert per_slot([]) == []
    # from the round's start when it was earlier; a start after the first result changes nothing
    assert per_slot(times, start=datetime(2026, 11, 27, 18, 52)) == [
        (datetime(2026, 11, 27, 18, 50), 0), (datetime(2026, 11, 27, 18, 55), 0), *per_slot(times)]
    assert per_slot(times, start=datetime(2026, 11, 27, 19, 7)) == per_slot(times)


def test_nice_ticks_cover_the_values_in_round_steps():
    assert nice_ticks(-20, 23) == [-20, -10, 0, 10, 20, 30]
    assert nice_ticks(0, 12) == [0, 5, 10, 15]
    assert nice_ticks(0, 0, whole=True) == [0, 1]
    assert nice_ticks(0, 2, whole=True) == [0, 1, 2]
    assert nice_ticks(0, 1.5) == [0, 0.5, 1, 1.5]
    assert label_step(["R1", "R2", "R3"], 400) == 1
    assert label_step([f"19:{m:02d}" for m in range(0, 60, 5)], 416) == 2  # 12 clock times: every other one


def line_chart(**extra):
    return LineChart(key="progress", title="Points after each round", description="The top 2 and you.",
                     x_labels=["R1", "R2", "R3"], y_label="Points", row_header="Player",
                     series=[Series("Anna <Berg>", [10, 25, 31]), Series("Bo", [12, 20, None]),
                             Series("Me", [-4, 3, 8], highlight=True)], **extra)


def test_a_line_chart_is_one_image_with_a_name_a_description_and_every_series():
    html = chart_html(line_chart())
    svg = html[html.index("<svg class=\"chart-svg\""):html.index("</svg>")]
    assert 'role="img"' in svg
    assert 'aria-labelledby="progress-title"' in svg and 'aria-describedby="progress-desc"' in svg
    assert '<title id="progress-title">Points after each round</title>' in svg
    assert '<desc id="progress-desc">The top 2 and you.</desc>' in svg
    assert svg.count("<polyline") == 3
    # each series its own colour and dash (greyscale print), the highlighted one black and thick
    assert f'stroke="{STYLES[0][0]}" stroke-width="2" stroke-linejoin' in svg
    assert f'stroke="{STYLES[1][0]}" stroke-width="2" stroke-dasharray="{STYLES[1][1]}"' in svg
    assert 'stroke="#000000" stroke-width="3.5"' in svg
    assert [m for m in re.findall(r">(R\d)</text>", svg)] == ["R1", "R2", "R3"]
    assert "<script" not in html and "http" not in html.replace("http://www.w3.org", "")
    # names are escaped; the legend names every series
    assert "Anna &lt;Berg&gt;" in html and "<Berg>" not in html
    assert html.count('<li>') + html.count('<li class') == 3 and 'class="chart-me"' in html


def test_the_numbers_are_in_a_table_that_opens_on_demand():
    html = chart_html(line_chart())
    table = html[html.index("<details"):html.index("</details>")]
    assert "<summary>Show the numbers" in table
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th>(.*?)</tr>", table)
    assert [(name, re.findall(r">([^<]*)</td>", cells)) for name, cells in rows] == [
        ("Anna &lt;Berg&gt;", ["10", "25", "31"]), ("Bo", ["12", "20", ""]), ("Me", ["-4", "3", "8"])]
    assert "<details" not in chart_html(line_chart(), table=False)


def test_a_line_stops_where_its_values_stop_and_the_highlight_is_drawn_last():
    layout = line_layout(line_chart())
    points = {line["name"]: line["points"].split() for line in layout["lines"]}
    assert len(points["Bo"]) == 2 and len(points["Anna <Berg>"]) == 3
    assert [line["name"] for line in layout["lines"]][-1] == "Me"
    assert [line["name"] for line in layout["legend"]] == ["Anna <Berg>", "Bo", "Me"]
    # the y axis takes in the lowest and the highest value
    assert [tick["text"] for tick in layout["y_ticks"]] == ["-10", "0", "10", "20", "30", "40"]


def test_a_bar_chart_has_one_bar_per_slot_and_its_numbers():
    chart = BarChart(key="arrivals", title="Results arriving", description="3 results.", x_labels=["19:00", "19:05"],
                     values=[2, 1], y_label="Results", row_header="Five minutes from")
    html = chart_html(chart)
    assert html.count('fill="#0072B2"') == 2
    assert ">19:00</text>" in html and ">19:05</text>" in html
    assert re.findall(r"<th scope=\"row\">(.*?)</th><td class=\"num\">(\d+)</td>", html) == [("19:00", "2"),
                                                                                            ("19:05", "1")]


def test_the_drawing_keeps_its_coordinates_in_every_language():
    """German and Danish write 12,5 for 12.5: an SVG coordinate so written is broken (the season PDF's were)."""
    from django.utils import translation

    with translation.override("de"):
        html = chart_html(line_chart())
    svg = html[html.index("<svg class=\"chart-svg\""):html.index("</svg>")]
    coordinates = re.findall(r'\b(?:x|y|x1|x2|y1|y2|width|height)="([^"]*)"', svg)
    assert coordinates and all(re.fullmatch(r"-?\d+(\.\d+)?%?", value) for value in coordinates), coordinates
    assert "Die Zahlen zeigen" in html
