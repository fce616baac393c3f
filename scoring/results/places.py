"""The place a score sheet belongs to: a Voms match, or a table of a seated game's round.

Every results service names a place as keywords for the sheet models (`{"match": m}` or `{"table": t}`),
locks it before deciding anything about its sheet, and names it in words in its messages.
"""

from __future__ import annotations

from collections.abc import Callable

from tournament.prepared import Prepared


def place_of(match, table) -> dict:
    """The place of a sheet as model keywords: the match when there is one, else the table."""
    return {"match": match} if match is not None else {"table": table}


def place_object(place: dict):
    """The match or table itself (what the audit log names)."""
    return place.get("match") or place.get("table")


class PlaceQuery:
    """One question about a place, compiled once for a match's place and once for a table's (`Prepared`):
    `build(place)` makes the queryset from the place's keywords ({"match_id": …} or {"table_id": …})."""

    def __init__(self, model, build: Callable):
        self.prepared = {kind: Prepared(model, lambda place, kind=kind: build({f"{kind}_id": place}))
                         for kind in ("match", "table")}

    def all(self, place: dict) -> list:
        (kind, obj), = place.items()
        return self.prepared[kind].all(place=getattr(obj, "pk", obj))

    def first(self, place: dict):
        found = self.all(place)
        return found[0] if found else None


def lock_place(place: dict) -> None:
    """Lock the match or table row: two first saves of one place wait for each other instead of both
    creating a sheet (or a first entry) and one failing on the one-per-place constraint."""
    obj = next(iter(place.values()))
    # no ordering (and so no join): PostgreSQL refuses FOR UPDATE on the nullable side of an outer join
    list(type(obj).objects.select_for_update().filter(pk=obj.pk).order_by().values_list("pk", flat=True))


def place_label(place: dict) -> str:
    """The place of a sheet in words: the match's teams, or the round and table."""
    if "match" in place:
        return str(place["match"])
    table = place["table"]
    return f"{table.round}, {table}"
