"""`make run`: set up the database and serve, for this computer alone or for the whole hall.

On a loopback address (127.0.0.1, the default) Django's development server, as for a developer. On any other
address (`HOST=0.0.0.0 make run`) the other laptops and the players' phones connect, so production settings
(HALL=1: DEBUG off, a secret key generated once in data/, this computer's addresses allowed, static files
collected and served by whitenoise) under gunicorn, and the address to open is printed.

Why gunicorn in the hall: it is already the server of docs/deploy.md and of the load benchmark (bench/load.py)
whose figures docs/performance.md gives; Django's runserver is explicitly not meant for other people's
requests (never audited for security; one process, whose failure ends the service). Two worker processes use
both cores of a laptop (a long PDF in one does not stall the pages of the other), 4 threads each keep cheap
requests (a cached page, a poll answered 204) from queueing behind a slow one, and the master restarts a worker
that dies or hangs longer than the 300 s a 500-page printout may take. waitress would run on Windows too, but in
one process whose Python threads share one core.
"""

import hashlib
import os
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import BaseCommand, CommandError, call_command

from config.network import is_loopback, is_wildcard, local_addresses, url_host

MANAGE = Path(settings.BASE_DIR) / "manage.py"


def static_sources_fingerprint() -> str:
    """Names, sizes and times of every static source file (all finders), and the storage they go to."""
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256(settings.STORAGES["staticfiles"]["BACKEND"].encode())
    for finder in get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            info = os.stat(storage.path(path))
            digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


class Command(BaseCommand):
    help = ("Migrate, create the director account on the first start, and serve: the development server on a "
            "loopback address, gunicorn with production settings on any other (the hall).")

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1",
                            help="the address to listen on; 0.0.0.0: every address of this computer (the hall)")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (the hall)")
        parser.add_argument("--threads", type=int, default=4, help="threads per worker (the hall)")
        parser.add_argument("--no-demo", action="store_true", help="no demo tournaments on the first start")

    def handle(self, *args, host, port, workers, threads, no_demo, **options):
        host = host.strip()
        hall = settings.HALL or not is_loopback(host)
        if hall and not settings.HALL:
            # The settings are read once, at a process's start: the hall's come with a fresh one.
            again = ["--host", host, "--port", str(port), "--workers", str(workers), "--threads", str(threads)]
            self._exec([sys.executable, str(MANAGE), "serve", *again, *(["--no-demo"] if no_demo else [])], HALL="1")
        call_command("migrate", interactive=False, verbosity=0)
        if hall:
            self.collect_static()
        call_command("bootstrap", *(["--no-demo"] if no_demo else []), stdout=self.stdout)
        bind = f"{url_host(host.strip('[]'))}:{port}"
        if not hall:
            # the printouts' QR codes (made without a request) carry the address the links page shows, not
            # this computer's name on port 8000, which a server on a loopback address never answers
            same = {} if settings.PUBLIC_BASE_URL else {"PUBLIC_BASE_URL": f"http://{bind}"}
            self._exec([sys.executable, str(MANAGE), "runserver", bind], **same)
        address = self.announce(host, port)
        environment = {}
        if address and not settings.PUBLIC_BASE_URL:
            environment["PUBLIC_BASE_URL"] = address  # for the QR codes on pages and printouts
        self._exec([sys.executable, "-m", "gunicorn", "config.wsgi", "--chdir", str(settings.BASE_DIR),
                    "--bind", bind, "--workers", str(workers), "--threads", str(threads),
                    "--worker-class", "gthread", "--timeout", "300", "--graceful-timeout", "30",
                    "--no-control-socket"], **environment)

    def collect_static(self) -> None:
        """Collect and compress the static files whitenoise serves (STATIC_ROOT), unless nothing changed since
        the last time: compressing them all takes a few seconds of CPU (the printouts' fonts
        are left uncompressed: settings.WHITENOISE_SKIP_COMPRESS_EXTENSIONS)."""
        root = Path(settings.STATIC_ROOT)
        stamp, sources = root / ".sources", static_sources_fingerprint()
        if stamp.exists() and stamp.read_text() == sources and (root / "staticfiles.json").exists():
            return
        self.stdout.write("Collecting the static files (some seconds on the first start in the hall)…")
        self.stdout.flush()
        call_command("collectstatic", interactive=False, verbosity=0)
        stamp.write_text(sources)

    def announce(self, host: str, port: int) -> str:
        """Print the address the other laptops and the phones open; return it (empty: none found)."""
        addresses = local_addresses() if is_wildcard(host) else [host.strip("[]")]
        line = "=" * 64
        self.stdout.write(self.style.SUCCESS(line))
        if not addresses:
            self.stdout.write(self.style.WARNING(
                "No network address found: this computer is not on a network yet. Connect it to the hall's "
                "Wi-Fi or cable, then start again (the address is read at the start)."))
            self.stdout.write(self.style.SUCCESS(line))
            return ""
        url = f"http://{url_host(addresses[0])}:{port}"
        self.stdout.write(self.style.SUCCESS(f"Open {url} on the other laptops and phones."))
        if len(addresses) > 1:
            others = ", ".join(f"http://{url_host(a)}:{port}" for a in addresses[1:])
            self.stdout.write(f"This computer's other addresses: {others}")
        self.stdout.write(f"On this computer: http://127.0.0.1:{port}. Production settings: DEBUG off.")
        self.stdout.write("Nothing opens? Allow the port in this computer's firewall "
                          f"(e.g. `sudo ufw allow {port}/tcp`), and check the phones use the same network.")
        self.stdout.write(self.style.SUCCESS(line))
        self.stdout.flush()
        return url

    def _exec(self, argv: list[str], **environment: str) -> None:
        """Become that program (no process in between: Ctrl-C and signals reach the server itself)."""
        self.stdout.flush()
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            os.execve(argv[0], argv, {**os.environ, **environment})
        except OSError as error:
            raise CommandError(f"Could not start {' '.join(argv[:3])}: {error}") from error
