"""`manage.py backup [--output PATH]`: a verified copy of the database, taken while the app runs.
`manage.py backup --pending`: the automatic round backups still owed (the server stopped before making them); on a
server the snapshots of the tournaments still owed one (tournament/snapshots.py)."""

from pathlib import Path

from django.core.management import BaseCommand, CommandError

from tournament.backup import BackupError, backup_pending, create_backup


class Command(BaseCommand):
    help = (
        "Write a consistent backup of the database while the app runs (SQLite: online backup API plus "
        "integrity check; PostgreSQL: pg_dump --format=custom). Default folder: BACKUP_DIR (backups/). "
        "--pending: make the automatic backups of completed rounds that are still owed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", type=Path, help="The file to write (default: a new file in BACKUP_DIR).")
        parser.add_argument("--pending", action="store_true",
                            help="Make the automatic backups after a round that are still owed, and nothing else.")

    def handle(self, *args, output=None, pending=False, **options):
        if pending:
            made = backup_pending()
            for thing in made:
                if isinstance(thing, Path):
                    self.stdout.write(f"Automatic backup written and verified: {thing}.")
                else:  # a server's snapshot of one tournament (tournament/snapshots.py)
                    self.stdout.write(f"Snapshot {thing.pk} of {thing.tournament_slug} made (manage.py snapshots).")
            self.stdout.write(f"{len(made)} automatic backups were owed.")
            return
        try:
            path = create_backup(output)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Backup written and verified: {path} ({path.stat().st_size:,} bytes).")
