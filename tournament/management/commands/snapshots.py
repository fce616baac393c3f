"""`manage.py snapshots`: a server's automatic backups after a round, one tournament each (tournament/snapshots.py).

Lists them (newest first; `--tournament SLUG` for one tournament's), or writes one's tournament file with
`--save ID FILE`: import that file (the import page, or `manage.py import_tournament FILE`) to get the tournament
back as the snapshot holds it (docs/server.md).
"""

from pathlib import Path

from django.core.management import BaseCommand, CommandError

from tournament.models import TournamentSnapshot
from tournament.snapshots import snapshot_file


class Command(BaseCommand):
    help = ("List the tournament snapshots a server made after each round, or write one as a tournament file "
            "(--save ID FILE) to import.")

    def add_arguments(self, parser):
        parser.add_argument("--tournament", metavar="SLUG", help="only this tournament's snapshots")
        parser.add_argument("--save", nargs=2, metavar=("ID", "FILE"), help="write snapshot ID to FILE")

    def handle(self, *args, tournament=None, save=None, **options):
        if save:
            number, target = save
            snapshot = TournamentSnapshot.objects.filter(pk=int(number) if number.isdigit() else None).first()
            if snapshot is None:
                raise CommandError(f"There is no snapshot {number}: `manage.py snapshots` lists them.")
            Path(target).write_bytes(snapshot_file(snapshot))
            self.stdout.write(f"Snapshot {snapshot.pk} of {snapshot.tournament_slug} written to {target}; import it "
                              "to restore the tournament as it was then.")
            return
        snapshots = TournamentSnapshot.objects.defer("content")
        if tournament:
            snapshots = snapshots.filter(tournament_slug=tournament)
        for snapshot in snapshots:
            after = f"after round {snapshot.round_number}" if snapshot.round_number else ""
            self.stdout.write(f"{snapshot.pk:>6}  {snapshot.made_at:%Y-%m-%d %H:%M:%S}  {snapshot.tournament_slug}  "
                              f"{after}")
        self.stdout.write(f"{snapshots.count()} snapshots.")
