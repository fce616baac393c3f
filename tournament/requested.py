"""The tournament a request's address names, read once a request (no import of the middleware: the permission
layer uses it, and the middleware reaches up into scoring for table links)."""


def tournament_by_slug(request, slug: str):
    """The tournament of `slug` (None if there is none), as `VenueTimeZoneMiddleware` read it for this request
    (`request.slug_tournament`, `tournament.clubaddress`), or read now among the request's club's (a request that did
    not pass the middleware, a view called with another slug)."""
    from tournament.clubaddress import addressed
    from tournament.models import Tournament

    kept = getattr(request, "slug_tournament", None)
    if kept is not None and kept[0] == slug:
        return kept[1]
    return addressed(Tournament, request).filter(slug=slug).first()
