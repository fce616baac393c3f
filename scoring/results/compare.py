"""Two versions of a score sheet, field by field: shared by every game's entry page.

Used twice: under double entry (the first entry against a second one that differs) and for a
stale save (the version saved meanwhile against the one in the form). A game says once how its
entries read as rows of labelled fields (`Fields`); `differences` lines two versions up row by
row and keeps only the fields that differ, so the page can show and highlight exactly those.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import zip_longest

#: entries -> [(row label, [(field key, field label, text), ...]), ...] in the order the sheet shows them
Fields = Callable[[Sequence], list[tuple[str, list[tuple[str, str, str]]]]]

#: shown for a field (or a whole row) that one version does not have
MISSING = "–"


@dataclass(frozen=True)
class Difference:
    """One field that differs: where it is (row and field) and what each version says."""

    row: str
    key: str
    field: str
    first: str
    second: str


def differences(first: Sequence, second: Sequence, fields: Fields) -> list[Difference]:
    """Every field whose text differs between the two versions, row by row in sheet order.

    A row only one version has shows all its fields against "–", so a missing game or hand is seen.
    """
    found = []
    for mine, theirs in zip_longest(fields(first or []), fields(second or [])):
        label = (mine or theirs)[0]
        a = {key: (name, text) for key, name, text in (mine[1] if mine else [])}
        b = {key: (name, text) for key, name, text in (theirs[1] if theirs else [])}
        for key in list(a) + [k for k in b if k not in a]:
            name = (a.get(key) or b.get(key))[0]
            text_a = a[key][1] if key in a else MISSING
            text_b = b[key][1] if key in b else MISSING
            if text_a != text_b:
                found.append(Difference(row=label, key=key, field=name, first=text_a or MISSING,
                                        second=text_b or MISSING))
    return found


def differing_keys(found: Sequence[Difference]) -> set[str]:
    """The field keys that differ (the entry page marks these inputs)."""
    return {difference.key for difference in found}


def two_versions(first: Sequence, second: Sequence, fields: Fields, *, title: str, intro: str, first_label: str,
                 second_label: str) -> dict:
    """The context of `templates/scoring/_two_versions.html`: both versions, only where they differ."""
    found = differences(first, second, fields)
    return {"title": title, "intro": intro, "first_label": first_label, "second_label": second_label,
            "differences": found, "keys": differing_keys(found)}
