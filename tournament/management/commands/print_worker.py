"""`manage.py print_worker`: make the long printouts (tournament/printjobs.py) on a server, beside gunicorn.

The laptop's `manage.py serve` runs the same worker in a thread of its own (PRINT_WORKER_THREAD); a server runs
one or more of these (docs/server.md), on any machine that reaches the database. It takes over the jobs of a
worker that died (no heartbeat for PRINT_JOB_DEAD_SECONDS) and goes on from their finished batches. Ctrl+C or
SIGTERM: it stops after the batch it is laying out (a job it leaves is taken over by the next worker).
"""

import signal
import threading

from django.core.management import BaseCommand

from tournament.printjobs import work


class Command(BaseCommand):
    help = "Make the long printouts (print jobs) waiting in the database, until stopped."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=1.0,
                            help="seconds between two looks for new jobs (default 1)")

    def handle(self, *args, interval, **options):
        stop = threading.Event()
        for name in ("SIGINT", "SIGTERM"):
            signal.signal(getattr(signal, name), lambda *_: stop.set())
        self.stdout.write("The print worker runs; Ctrl+C stops it.")
        self.stdout.flush()
        work(stop=stop, interval=interval)
