"""`manage.py push SLUG [--club CLUB] [--server URL] [--token TOKEN]`: send a tournament's file to the club's server,
as the tournament page's button "Send to the club's server" does (tournament/services/push.py). Without --server
and --token, the laptop's "Club server" settings are used. Exits with an error (status 1) when nothing was sent or the
server refused the file; nothing changes on the laptop either way, but its audit log.
"""

from django.core.management import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.management.tournaments import add_club_argument, tournament_named
from tournament.services.push import PushFailed, push_tournament


class Command(BaseCommand):
    help = ("Send a tournament's file to the club's server: the server updates its copy (or makes it). Uses the "
            "laptop's “Club server” settings unless --server and --token are given.")

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's short name (its address on this computer).")
        add_club_argument(parser)
        parser.add_argument("--server", help="The server's address, e.g. https://club.example.org")
        parser.add_argument("--token", help="The club's API token with the scope “push”.")
        parser.add_argument("--timeout", type=float, default=None, help="Seconds to wait for the server.")

    def handle(self, *args, slug, club=None, server=None, token=None, timeout=None, **options):
        tournament = tournament_named(slug, club)
        extra = {"timeout": timeout} if timeout else {}
        try:
            pushed = push_tournament(tournament, by=None, server=server, token=token, **extra)
        except PushFailed as error:
            raise CommandError(error.message) from None
        done = (_("“%(name)s” was made on %(server)s") if pushed.result == "created"
                else _("“%(name)s” was updated on %(server)s")) % {"name": tournament.name, "server": pushed.server}
        counts = pushed.counts
        self.stdout.write(_("%(done)s: %(players)s players, %(rounds)s rounds, %(sheets)s score sheets.") % {
            "done": done, "players": counts.get("players", "?"), "rounds": counts.get("rounds", "?"),
            "sheets": counts.get("sheets", "?")})
        self.stdout.write(_("On the server: %(url)s") % {"url": pushed.url})
        for note in pushed.notes:
            self.stdout.write(note)
