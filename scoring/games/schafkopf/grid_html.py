"""One game's row of the score list's grid as HTML, built in Python: the referee table's list page and the table's
phone page show 30 or 40 of them, and the template include that drew each row was most of both pages' rendering
(about two thirds of a list page's CPU at the referee table, where every phone's list is confirmed).

The markup is the grid's contract with static/schafkopf/entry.js (field names t/d/p/r/x/l/i + the game's number, the
row's id and data attributes, the cells' classes); every typed value and message is escaped.
"""

from __future__ import annotations

from django.utils.formats import localize
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

#: the typed fields of a row: name, maxlength, class, extra attributes (in the grid's column order; "l" only with
#: Laufende in the tariff)
FIELDS = (
    ("t", 1, "sk-in sk-t", ' autocomplete="off" autocapitalize="characters"'),
    ("d", 1, "sk-in", ' inputmode="numeric" autocomplete="off"'),
    ("p", 1, "sk-in sk-partner", ' inputmode="numeric" autocomplete="off"'),
    ("r", 1, "sk-in", ' autocomplete="off"'),
    ("x", 1, "sk-in", ' autocomplete="off" autocapitalize="characters"'),
    ("l", 2, "sk-in", ' inputmode="numeric" autocomplete="off"'),
    ("i", 6, "sk-in sk-i", ' autocomplete="off"'),
)
#: the fields whose error marks them invalid (a tout's initials are never wrong by themselves)
CHECKED = frozenset("tdprxl")


def number_html(value, empty: str = "") -> str:
    """A number as a template's `{{ value }}` shows it (whole numbers need no locale); `empty` for None."""
    if value is None:
        return empty
    return str(value) if type(value) is int else escape(localize(value))


def _field(name: str, length: int, css: str, extra: str, row, *, n: int, disabled: bool, autofocus: bool) -> str:
    value = row.values.get(name, "")
    invalid = ' aria-invalid="true"' if name in CHECKED and row.errors.get(name) else ""
    return (f'<input name="{name}{n}" value="{conditional_escape(value)}" maxlength="{length}" class="{css}"{extra}'
            f' aria-labelledby="h{n} c-{name}"{invalid}{" disabled" if disabled else ""}'
            f'{" autofocus" if autofocus else ""}>')


def grid_row_html(scored: dict, *, can_edit: bool, laufende: bool, autofocus: bool = False) -> SafeString:
    """The `<tr>` of one row of `entry.scored_rows`; `autofocus` on this row's type field (the referee table's
    first row, while the list can be edited)."""
    row = scored["row"]
    n = row.number
    bad = " sk-bad" if row.errors or row.rule_error else ""
    out = scored["out"]
    typed = row.values.get("t", "")
    fields = []
    for name, length, css, extra in FIELDS:
        if name == "l" and not laufende:
            continue
        disabled = not can_edit or (name == "p" and bool(typed) and typed.upper() in "SWF")
        focus = name == "t" and autofocus and can_edit
        fields.append(f"<td>{_field(name, length, css, extra, row, n=n, disabled=disabled, autofocus=focus)}</td>")
    cells = "".join(
        f'<td class="num sk-pts{" sk-out" if cell["out"] else ""}">'
        f'<span class="sk-p">{number_html(cell["points"])}</span>'
        f'<span class="sk-s">{number_html(cell["running"])}</span></td>'
        for cell in scored["cells"])
    return mark_safe(  # noqa: S308 (every value above is a number or escaped)
        f'<tr id="g{n}" class="sk-row{bad}" data-game="{n}" data-out="{"" if out is None else out}">'
        f'<th scope="row" id="h{n}" class="num">{n}</th><td class="num sk-dealer">{scored["dealer"]}</td>'
        f'{"".join(fields)}{cells}</tr>')


def with_row_html(rows: list[dict], *, can_edit: bool, laufende: bool, autofocus: bool = False) -> list[dict]:
    """`rows` with each row's HTML under "html" (the first row's type field focused when `autofocus`)."""
    for index, scored in enumerate(rows):
        scored["html"] = grid_row_html(scored, can_edit=can_edit, laufende=laufende,
                                       autofocus=autofocus and index == 0)
    return rows
