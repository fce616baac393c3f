"""`tournament-manager` and `make run`: set up the database and serve, for this computer alone or for the whole hall.

The same on Windows, macOS and Linux, in production settings (DEBUG off unless a developer sets DEBUG=1): migrate,
collect the static files when they changed, create the director account on the first start (or leave that to the
set-up page in the browser: `--setup-in-browser`, which the console command sets), and serve with waitress in a
child process under a small supervisor (config/serving.py). The child exits with code 3 to be started again: the
hall switch in the app stores the choice (DATA_DIR/hall.json) and asks for that restart.

Loopback (127.0.0.1) is the default. `--hall`, a non-loopback `--host` (`HOST=0.0.0.0 make run`) or the app's hall
switch serve the other laptops and the players' phones: HALL=1 (DEBUG off whatever the environment says, this
computer's addresses allowed), every address of this computer, and the address to open is printed.

Why waitress on every system, and not gunicorn on POSIX with waitress on Windows only: waitress is pure Python
and runs the same on Windows, macOS and Linux (gunicorn needs fcntl and fork: no Windows), so a director's
laptop has one server on all three, tested once and explained once. Measured with bench/load.py --quick against
both (docs/performance.md, the row of `bench/load.py --quick --server waitress`): every run of either without an
error or a lost list, and the difference between them smaller than the spread of the shared test machine's load;
gunicorn's processes can use both cores where waitress's threads share one (the GIL), but a club evening needs
about a tenth of a core (200 phones polling every 15 s, directors at a person's pace: 6 ms of CPU per request),
and the printouts of 50 pages and more render in their own process pool (documents/pdf.py), outside the serving
threads. gunicorn stays the server of docs/deploy.md for a server with PostgreSQL.
"""

import hashlib
import os
import sys
import threading
import time
import urllib.error
import urllib.request
import webbrowser
from pathlib import Path

from django.conf import settings
from django.core.management import BaseCommand, CommandError, call_command
from django.utils.module_loading import import_string

from config import serving
from config.network import is_loopback, is_wildcard, local_addresses, url_host


def static_sources_fingerprint(backend: str) -> str:
    """Names, sizes and times of every static source file (all finders), and the storage they go to."""
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256(backend.encode())
    for finder in get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            info = os.stat(storage.path(path))
            digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def listen_host(given: str | None, *, hall: bool) -> str:
    """Where the server listens: in the hall the non-loopback address given, else every address (0.0.0.0); for
    this computer alone the loopback address given, else 127.0.0.1."""
    if hall:
        return given if given and not is_loopback(given) else "0.0.0.0"
    return given if given and is_loopback(given) else "127.0.0.1"


def local_url(host: str, port: int) -> str:
    """The address this computer opens to reach a server listening on `host`."""
    if is_wildcard(host):
        host = "::1" if ":" in host else "127.0.0.1"
    return f"http://{url_host(host.strip('[]'))}:{port}"


def answers(url: str, timeout: float = 2) -> bool:
    """True once something answers HTTP at `url` (any status)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout):  # noqa: S310 (our own server on this computer)
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False


def firewall_hint(port: int) -> str:
    """How this system's firewall lets the hall in (docs/deploy.md, "In the hall")."""
    if sys.platform == "win32":
        return ("Windows asks on the first start in the hall: allow Python on private networks (or allow port "
                f"{port} in Windows Defender Firewall).")
    if sys.platform == "darwin":
        return "If macOS asks, allow incoming connections for Python (System Settings, Network, Firewall)."
    return f"Allow the port in this computer's firewall (e.g. `sudo ufw allow {port}/tcp`)."


class Command(BaseCommand):
    help = ("Migrate, collect the static files, create the director account on the first start, and serve with "
            "waitress: on 127.0.0.1, or for the whole hall (--hall, a non-loopback --host, or the app's switch).")
    # the supervisor runs the checks once (handle); the serving child, started again at each hall switch, not again
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--host", help="the address to listen on (default 127.0.0.1; in the hall every "
                                           "address). Any non-loopback address serves the hall.")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--hall", action="store_true",
                            help="let the hall's other laptops and phones in (listen on every address)")
        parser.add_argument("--threads", type=int, default=8, help="waitress's threads")
        parser.add_argument("--no-demo", action="store_true", help="no demo tournaments on the first start")
        parser.add_argument("--setup-in-browser", action="store_true",
                            help="no account made here: the director chooses it on the set-up page (/setup/)")
        parser.add_argument("--open-browser", action="store_true",
                            help="open this computer's browser once the server answers")
        parser.add_argument("--child", action="store_true", help="(internal) the serving process itself")

    def handle(self, *args, host, port, hall, threads, no_demo, setup_in_browser, open_browser, child, **options):
        given = host.strip() if host else None
        if child:
            raise SystemExit(self.serve_child(given or "127.0.0.1", port, threads))
        self.port, self.threads, self.given = port, threads, given
        self.setup_in_browser = setup_in_browser
        self.first_hall = bool(hall or (given and not is_loopback(given)) or serving.hall_wanted())
        try:
            serving.check_port_free(listen_host(given, hall=self.first_hall), port)
        except serving.PortInUse as error:
            raise CommandError(str(error)) from None
        self.check()
        call_command("migrate", interactive=False, verbosity=0)
        if not setup_in_browser:
            call_command("bootstrap", *(["--no-demo"] if no_demo else []), stdout=self.stdout)
        self.ready_path = "/setup/" if setup_in_browser and not self.accounts_exist() else "/"
        self.open_browser = open_browser
        supervisor = serving.Supervisor(self.child_command, started=self.watch_start)
        code = supervisor.run()
        if code:
            raise CommandError(f"The server stopped (exit code {code}).")

    @staticmethod
    def accounts_exist() -> bool:
        from django.contrib.auth import get_user_model

        return get_user_model().objects.exists()

    # --- the supervisor's side -----------------------------------------------------------------------------------

    def child_command(self, restarted: bool) -> tuple[list[str], dict[str, str]]:
        """The serving child's argv and environment; the hall choice is read again at each restart."""
        hall = serving.hall_wanted() if restarted else self.first_hall
        host = listen_host(self.given, hall=hall)
        environment = {**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE",
                                                                              "config.settings")}
        # the child imports config/ and the apps from here, wherever it is started from
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(settings.BASE_DIR),
                                                                  os.environ.get("PYTHONPATH")]))
        if hall:
            environment["HALL"] = "1"
        if self.setup_in_browser:
            environment["SETUP_IN_BROWSER"] = "1"
        hall_settings = hall or settings.HALL
        if hall_settings or not settings.DEBUG:
            self.collect_static()
        if hall_settings:
            address = self.announce(host, self.port)
        else:
            address = local_url(host, self.port)
            self.stdout.write(f"Serving {address} for this computer only. Ctrl-C stops it.")
        if address and not settings.PUBLIC_BASE_URL:
            # the printouts' QR codes (made without a request) carry the address the other machines open, or the
            # loopback address a server on loopback answers (not this computer's name on port 8000)
            environment["PUBLIC_BASE_URL"] = address
        self.stdout.flush()
        argv = [sys.executable, "-m", "django", "serve", "--child", "--host", host, "--port", str(self.port),
                "--threads", str(self.threads)]
        self.listening = host
        return argv, environment

    def watch_start(self, child, restarted: bool) -> None:
        """Once the child answers: say so, and (first start, --open-browser) open this computer's browser."""
        url = local_url(self.listening, self.port)
        address, browse = url + ("/" if restarted else self.ready_path), self.open_browser and not restarted

        def wait():
            while child.poll() is None:
                if answers(url + "/accounts/login/"):
                    self.stdout.write(f"Ready: {address}")
                    self.stdout.flush()
                    if browse:
                        webbrowser.open(address)
                    return
                time.sleep(0.2)

        threading.Thread(target=wait, daemon=True, name="serve-ready").start()

    def collect_static(self) -> None:
        """Collect and compress the static files whitenoise serves (STATIC_ROOT), unless nothing changed since
        the last time: compressing them all takes a few seconds of CPU (the printouts' fonts
        are left uncompressed: settings.WHITENOISE_SKIP_COMPRESS_EXTENSIONS). Always with the hashed, compressed
        storage the serving child uses (also when this process runs with DEBUG=1 and the child in the hall)."""
        from django.contrib.staticfiles.management.commands.collectstatic import Command as CollectStatic

        backend = settings.PRODUCTION_STATICFILES_STORAGE
        root = Path(settings.STATIC_ROOT)
        stamp, sources = root / ".sources", static_sources_fingerprint(backend)
        if stamp.exists() and stamp.read_text() == sources and (root / "staticfiles.json").exists():
            return
        self.stdout.write("Collecting the static files (some seconds on the first start)…")
        self.stdout.flush()
        collect = CollectStatic(stdout=self.stdout, stderr=self.stderr)
        collect.storage = import_string(backend)()
        call_command(collect, interactive=False, verbosity=0)
        stamp.write_text(sources)

    def announce(self, host: str, port: int) -> str:
        """Print the address the other laptops and the phones open; return it (empty: none found).
        PUBLIC_BASE_URL, when set, is that address (a name the hall's router gives this computer)."""
        line = "=" * 64
        self.stdout.write(self.style.SUCCESS(line))
        if settings.PUBLIC_BASE_URL:
            url = settings.PUBLIC_BASE_URL.rstrip("/")
            self.stdout.write(self.style.SUCCESS(f"Open {url} on the other laptops and phones."))
        else:
            addresses = local_addresses() if is_wildcard(host) else [host.strip("[]")]
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
        self.stdout.write(f"Nothing opens? {firewall_hint(port)} And check the phones use the same network.")
        self.stdout.write(self.style.SUCCESS(line))
        self.stdout.flush()
        return url

    # --- the serving child ---------------------------------------------------------------------------------------

    def serve_child(self, host: str, port: int, threads: int) -> int:
        from config.wsgi import application
        from tournament.printjobs import start_worker_thread

        try:
            sock = serving.listening_socket(host, port)
        except serving.PortInUse as error:
            self.stderr.write(str(error))
            return 2
        self.stdout.write(f"Serving on http://{url_host(host.strip('[]'))}:{port} (waitress, {threads} threads).")
        self.stdout.flush()
        start_worker_thread()  # the long printouts are made here too: no second command for the director
        return serving.serve(application, sock, threads=threads)
