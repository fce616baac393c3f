"""`manage.py export_tournament SLUG [--club CLUB] [--output FILE]`: one tournament as a JSON file
(docs/tournament-json.md)."""

import sys
from pathlib import Path

from django.core.management import BaseCommand

from tournament.management.tournaments import add_club_argument, tournament_named
from tournament.transfer import export_filename, export_tournament


class Command(BaseCommand):
    help = "Write one tournament, with all its rows and its audit log, to a JSON file for another machine."

    def add_arguments(self, parser):
        parser.add_argument("tournament", help="The tournament's short name (as in its address).")
        add_club_argument(parser)
        parser.add_argument(
            "--output", help="The file to write; '-' for standard output (default: <slug>.tournament.json)."
        )

    def handle(self, *args, tournament, output=None, club=None, **options):
        found = tournament_named(tournament, club)
        data = export_tournament(found)
        if output == "-":
            sys.stdout.buffer.write(data)
            return
        path = Path(output or export_filename(found))
        path.write_bytes(data)
        self.stdout.write(f"Wrote {path} ({len(data):,} bytes).")
