"""`manage.py restore PATH [--force]`: put a backup in place of the database (after a safety backup).

Refused while a server runs on the database: every serving process holds a lock from its start
(tournament/serving.py), and this command takes it exclusively. `--force` restores all the same.
"""

from pathlib import Path

from django.core.management import BaseCommand, CommandError
from django.db import connection, connections

from tournament.backup import BackupError, restore_postgresql, restore_sqlite, sqlite_database_path
from tournament.serving import ServerRunning, no_server_running


class Command(BaseCommand):
    help = (
        "Replace the database with a backup made by `manage.py backup` (SQLite: .sqlite3; PostgreSQL: .dump, "
        "through pg_restore). The current database is backed up first. Refused while a server runs on the "
        "database: stop it first."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="The backup file (.sqlite3 or .dump).")
        parser.add_argument("--force", action="store_true",
                            help="Restore even while a server runs on the database (its open pages then show "
                                 "the restored data; a server of older or newer code may fail on it).")

    def handle(self, *args, path, force=False, **options):
        settings_dict = dict(connection.settings_dict)
        if connection.vendor == "sqlite":
            database = sqlite_database_path()
            if database is None:
                raise CommandError("The database is in memory; there is nothing to restore into.")
        elif connection.vendor != "postgresql":
            raise CommandError(f"Restoring {connection.vendor} databases is not supported.")
        try:
            with no_server_running(settings_dict, force=force):
                if settings_dict["ENGINE"].endswith("sqlite3"):
                    connections.close_all()  # our own connection must not hold the old file open
                    safety = restore_sqlite(path, database)
                    target = database
                else:
                    safety = restore_postgresql(path, settings_dict)
                    target = settings_dict["NAME"]
        except (BackupError, ServerRunning) as error:
            raise CommandError(str(error)) from error
        if safety:
            self.stdout.write(f"The previous database was saved as {safety}.")
        self.stdout.write(f"Restored {target} from {path}. Start the server again.")
