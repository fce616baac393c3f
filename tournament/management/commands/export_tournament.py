"""`manage.py export_tournament SLUG [--output FILE]`: one tournament as a JSON file (docs/tournament-json.md)."""

import sys
from pathlib import Path

from django.core.management import BaseCommand, CommandError

from tournament.models import Tournament
from tournament.transfer import export_filename, export_tournament


class Command(BaseCommand):
    help = "Write one tournament, with all its rows and its audit log, to a JSON file for another machine."

    def add_arguments(self, parser):
        parser.add_argument("tournament", help="The tournament's short name (as in its address).")
        parser.add_argument(
            "--output", help="The file to write; '-' for standard output (default: <slug>.tournament.json)."
        )

    def handle(self, *args, tournament, output=None, **options):
        try:
            found = Tournament.objects.get(slug=tournament)
        except Tournament.DoesNotExist:
            raise CommandError(f"No tournament with the short name {tournament!r}.") from None
        data = export_tournament(found)
        if output == "-":
            sys.stdout.buffer.write(data)
            return
        path = Path(output or export_filename(found))
        path.write_bytes(data)
        self.stdout.write(f"Wrote {path} ({len(data):,} bytes).")
