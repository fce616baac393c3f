"""Which tournament a command means: its short name and, on a server where clubs share short names, its club
(`--club`). A one-club installation never needs --club."""

from __future__ import annotations

from django.core.management import CommandError
from django.utils.translation import gettext as _

from tournament.models import Organisation, Tournament


def add_club_argument(parser) -> None:
    parser.add_argument("--club", help="The club's short name (as in its addresses, /c/<club>/), or its name: "
                                       "needed where several clubs have a tournament of this short name.")


def named_clubs(clubs) -> str:
    return ", ".join(f"{club.slug} ({club.name})" for club in clubs)


def club_named(name: str) -> Organisation:
    """The club of the short name (or name) `name`; an unknown one is refused with the clubs there are."""
    found = (Organisation.objects.filter(slug=name).first()
             or Organisation.objects.filter(name__iexact=name.strip()).first())
    if found is None:
        raise CommandError(_("There is no club “%(club)s” here. The clubs: %(clubs)s.") % {
            "club": name, "clubs": named_clubs(Organisation.objects.order_by("slug"))})
    return found


def tournament_named(slug: str, club: str | None = None) -> Tournament:
    """The tournament of the short name `slug` (of `club`, where given); a short name several clubs have without
    --club is refused, naming them, rather than taking either."""
    tournaments = Tournament.objects.filter(slug=slug)
    if club is not None:
        organisation = club_named(club)
        found = tournaments.of(organisation).first()
        if found is None:
            raise CommandError(_("The club “%(club)s” has no tournament “%(slug)s”.") % {
                "club": organisation.slug, "slug": slug})
        return found
    found = list(tournaments.select_related("organisation").order_by("organisation__slug"))
    if not found:
        raise CommandError(_("There is no tournament “%(slug)s” here.") % {"slug": slug})
    if len(found) > 1:
        raise CommandError(_("Several clubs have a tournament “%(slug)s”: %(clubs)s. Say which with --club.") % {
            "slug": slug, "clubs": named_clubs(t.organisation for t in found)})
    return found[0]
