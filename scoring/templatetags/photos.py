"""`{% sheet_photo pending %}`: the table's photo of its paper sheet beside the first entry being confirmed (on every
page where the referee table confirms a list), or beside the counted sheet (`pending` is then the `ScoreSheet`: a table
game's sheet page), or nothing when the place has none."""

from __future__ import annotations

from django import template
from django.urls import reverse

from scoring.results.photos import THUMB_SIDE, photo_of

register = template.Library()


@register.inclusion_tag("scoring/_sheet_photo.html", takes_context=True)
def sheet_photo(context, pending, compact: bool = False) -> dict:
    photo = photo_of(match=pending.match_id, table=pending.table_id) if pending is not None else None
    if photo is None:
        return {"photo": None}
    tournament = context.get("tournament") or pending.tournament
    url = reverse("tournament:sheet_photo", args=[tournament.slug, photo.pk])
    version = f"v={int(photo.uploaded_at.timestamp())}"  # a replaced photo gets a new address (it is cached)
    scale = min(1.0, THUMB_SIDE / max(photo.width, photo.height))
    return {"photo": photo, "compact": compact, "full_url": f"{url}?{version}",
            "thumb_url": f"{url}?size=thumb&{version}", "thumb_width": round(photo.width * scale),
            "thumb_height": round(photo.height * scale)}
