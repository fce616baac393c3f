"""`manage.py backup [--output PATH]`: a verified copy of the database, taken while the app runs."""

from pathlib import Path

from django.core.management import BaseCommand, CommandError

from tournament.backup import BackupError, create_backup


class Command(BaseCommand):
    help = (
        "Write a consistent backup of the database while the app runs (SQLite: online backup API plus "
        "integrity check; PostgreSQL: pg_dump --format=custom). Default folder: BACKUP_DIR (backups/)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", type=Path, help="The file to write (default: a new file in BACKUP_DIR).")

    def handle(self, *args, output=None, **options):
        try:
            path = create_backup(output)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Backup written and verified: {path} ({path.stat().st_size:,} bytes).")
