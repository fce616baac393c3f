"""`manage.py restore PATH`: put an SQLite backup in place of the database (after a safety backup).

PostgreSQL databases are restored with pg_restore; the steps are in docs/operations.md.
"""

from pathlib import Path

from django.core.management import BaseCommand, CommandError
from django.db import connection, connections

from tournament.backup import BackupError, restore_sqlite, sqlite_database_path


class Command(BaseCommand):
    help = (
        "Replace the SQLite database with a backup made by `manage.py backup`. The current database is "
        "backed up first. Stop the server before restoring."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="The backup file (.sqlite3).")

    def handle(self, *args, path, **options):
        if connection.vendor != "sqlite":
            raise CommandError(
                "This command restores SQLite databases. For PostgreSQL use pg_restore as described in "
                "docs/operations.md (\"Restoring on PostgreSQL\")."
            )
        database = sqlite_database_path()
        if database is None:
            raise CommandError("The database is in memory; there is nothing to restore into.")
        connections.close_all()  # our own connection must not hold the old file open
        try:
            safety = restore_sqlite(path, database)
        except BackupError as error:
            raise CommandError(str(error)) from error
        if safety:
            self.stdout.write(f"The previous database was saved as {safety}.")
        self.stdout.write(f"Restored {database} from {path}. Start the server again.")
