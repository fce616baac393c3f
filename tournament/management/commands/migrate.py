"""`manage.py migrate` under a database lock: the way to migrate a server (docs/server.md).

Several app servers on one PostgreSQL each run `migrate` on an upgrade (or `serve` does it at its start). Django's
own command reads which migrations are applied, then applies the rest: two at once both apply the same migration,
and one fails (or records a migration twice). Here the command first takes a PostgreSQL advisory lock, held by its
connection until it is done: a second `migrate` waits for the first, then reads the migrations applied by it and
finds nothing to do. The lock is the database's own, so it holds across machines.

SQLite needs none: a laptop's database has one server (the serving lock of tournament/serving.py), and SQLite's
file on a network share is no server's database (docs/deploy.md).
"""

from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections

#: the advisory lock's key (one bigint; below 2**31, so pg_locks shows it as objid with classid 0)
MIGRATE_LOCK_KEY = 0x7E5C0DE


class Command(DjangoMigrate):
    help = (DjangoMigrate.help + " Under a database lock on PostgreSQL: a second migrate at the same time waits for "
            "the first, then finds nothing to do.")

    def handle(self, *args, **options):
        connection = connections[options["database"]]
        if connection.vendor != "postgresql":
            return super().handle(*args, **options)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [MIGRATE_LOCK_KEY])
            if not cursor.fetchone()[0]:
                if options["verbosity"] >= 1:
                    self.stdout.write("Another migrate is running on this database: waiting for it to finish.")
                cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATE_LOCK_KEY])
        try:
            return super().handle(*args, **options)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATE_LOCK_KEY])
