# ruff: noqa: E501 (OLD_ROW is the old template, line for line)
"""The grid's rows built in Python (scoring/games/schafkopf/grid_html.py) are the HTML the template include drew
before (kept here as OLD_ROW): the same fields, states, escaping and cells, for every kind of row."""

import re

import pytest
from django.template import Context, Template

from scoring.games.schafkopf.forms import GridRow
from scoring.games.schafkopf.grid_html import with_row_html

OLD_ROW = """{% for r in rows %}{% with row=r.row n=r.row.number %}    <tr id="g{{ n }}" class="sk-row{% if row.errors or row.rule_error %} sk-bad{% endif %}" data-game="{{ n }}" data-out="{{ r.out|default_if_none:'' }}">
      <th scope="row" id="h{{ n }}" class="num">{{ n }}</th>
      <td class="num sk-dealer">{{ r.dealer }}</td>
      <td><input name="t{{ n }}" value="{{ row.values.t }}" maxlength="1" class="sk-in sk-t" autocomplete="off" autocapitalize="characters" aria-labelledby="h{{ n }} c-t"{% if row.errors.t %} aria-invalid="true"{% endif %}{% if not can_edit %} disabled{% endif %}{% if autofocus and forloop.first and can_edit %} autofocus{% endif %}></td>
      <td><input name="d{{ n }}" value="{{ row.values.d }}" maxlength="1" class="sk-in" inputmode="numeric" autocomplete="off" aria-labelledby="h{{ n }} c-d"{% if row.errors.d %} aria-invalid="true"{% endif %}{% if not can_edit %} disabled{% endif %}></td>
      <td><input name="p{{ n }}" value="{{ row.values.p }}" maxlength="1" class="sk-in sk-partner" inputmode="numeric" autocomplete="off" aria-labelledby="h{{ n }} c-p"{% if row.errors.p %} aria-invalid="true"{% endif %}{% if not can_edit or row.values.t|upper in "SWF" and row.values.t %} disabled{% endif %}></td>
      <td><input name="r{{ n }}" value="{{ row.values.r }}" maxlength="1" class="sk-in" autocomplete="off" aria-labelledby="h{{ n }} c-r"{% if row.errors.r %} aria-invalid="true"{% endif %}{% if not can_edit %} disabled{% endif %}></td>
      <td><input name="x{{ n }}" value="{{ row.values.x }}" maxlength="1" class="sk-in" autocomplete="off" autocapitalize="characters" aria-labelledby="h{{ n }} c-x"{% if row.errors.x %} aria-invalid="true"{% endif %}{% if not can_edit %} disabled{% endif %}></td>
      {% if laufende %}<td><input name="l{{ n }}" value="{{ row.values.l }}" maxlength="2" class="sk-in" inputmode="numeric" autocomplete="off" aria-labelledby="h{{ n }} c-l"{% if row.errors.l %} aria-invalid="true"{% endif %}{% if not can_edit %} disabled{% endif %}></td>{% endif %}
      <td><input name="i{{ n }}" value="{{ row.values.i }}" maxlength="6" class="sk-in sk-i" autocomplete="off" aria-labelledby="h{{ n }} c-i"{% if not can_edit %} disabled{% endif %}></td>
      {% for cell in r.cells %}<td class="num sk-pts{% if cell.out %} sk-out{% endif %}"><span class="sk-p">{% if cell.points is not None %}{{ cell.points }}{% endif %}</span><span class="sk-s">{% if cell.running is not None %}{{ cell.running }}{% endif %}</span></td>{% endfor %}
    </tr>{% endwith %}{% endfor %}"""


def cells(points, running, out=None):
    return [{"points": p, "running": q, "out": seat == out} for seat, (p, q) in enumerate(zip(points, running, strict=True), 1)]


def rows():
    return [
        {"row": GridRow(1, {"t": "R", "d": "1", "p": "3", "r": "+", "x": "", "l": "", "i": ""}, entry={"x": 1}),
         "dealer": 1, "out": None, "cells": cells([20, -20, 20, -20], [20, -20, 20, -20])},
        {"row": GridRow(2, {"t": "s", "d": "2", "p": "", "r": "-", "x": "S", "l": "3", "i": "AB"}),
         "dealer": 2, "out": 5, "cells": cells([-150, 50, 50, 50, 0], [-130, 30, 70, 30, 0], out=5)},
        {"row": GridRow(3, {"t": "X", "d": "9", "p": "<b>", "r": "", "x": "", "l": "", "i": '"&'},
                        errors={"t": "no such type", "d": "no such seat", "i": "ignored"}),
         "dealer": 3, "out": None, "cells": cells([None] * 4, [None] * 4)},
        {"row": GridRow(4, {"t": "", "d": "", "p": "", "r": "", "x": "", "l": "", "i": ""}, rule_error="odd"),
         "dealer": 4, "out": 1, "cells": cells([None] * 4, [None] * 4, out=1)},
        {"row": GridRow(5, {"t": "W", "d": "4", "p": "1", "r": "+", "x": "Z", "l": "12", "i": ""}),
         "dealer": 1, "out": None, "cells": cells([-1234567, 3, 0, 1], [7, 8, 9, 10])},
    ]


def squeeze(html: str) -> str:
    return re.sub(r">\s+<", "><", html.strip())


@pytest.mark.parametrize("can_edit", [True, False])
@pytest.mark.parametrize("laufende", [True, False])
@pytest.mark.parametrize("autofocus", [True, False])
def test_rows_built_in_python_are_the_templates_html(can_edit, laufende, autofocus):
    context = {"rows": rows(), "can_edit": can_edit, "laufende": laufende, "autofocus": autofocus}
    old = Template(OLD_ROW).render(Context(context))
    new = "".join(row["html"] for row in with_row_html(rows(), can_edit=can_edit, laufende=laufende,
                                                      autofocus=autofocus))
    assert squeeze(new) == squeeze(old)
    assert "&lt;b&gt;" in new and "<b>" not in new  # typed text is escaped
    assert new.count(" autofocus") == (1 if autofocus and can_edit else 0)
