"""Load test on loopback: gunicorn (or waitress) on a throw-away PostgreSQL, public viewers polling, directors
entering lists.

Run from the repository root: `.venv/bin/python bench/load.py [--seconds 60] [--viewers 200] [--directors 5]
[--players 2000] [--pause 0] [--server gunicorn|waitress] [--workers 3] [--threads 4] [--servers 1]`, or
`--quick` for a smoke run (200 players, 20 s).

What it does, all on 127.0.0.1 and in a temporary folder that is removed at the end:

1. starts a PostgreSQL cluster of its own (initdb, a free port on 127.0.0.1), migrates, collects the static files;
2. builds a Schafkopf tournament through the director's services with bench/schafkopf.py's helpers: the players
   imported, 2 rounds drawn, half of round 1's lists entered (so the standings are not trivial), the standings
   published, and one account per director;
3. starts gunicorn as docs/deploy.md does (3 gthread workers × 4 threads; `--workers`, `--threads`) with DEBUG off
   and the public pages' cache shared by the workers (files in the temporary folder, as settings.PUBLIC_CACHE_DIR);
   or, `--server waitress`, the laptop's server: `serve`'s own serving process (waitress in one process,
   `--threads`, default 8, as `tournament-manager` and `make run` start it);
4. for `--seconds`: every viewer (accepting gzip, as phones do) opens the public standings page (and its CSS and
   scripts, once, like a browser), then polls the page's live region at the page's interval (PUBLIC_POLL_SECONDS)
   with ±10 % jitter, as htmx does, starting at a random moment of the first interval; every director logs in once
   (before the viewers come: a password hash is half a second of CPU) and then enters round 2's lists (each
   director its own tables): opens the list, posts all 30 (40) games, follows the redirect to the next list.
   Directors type as fast as the server answers (`--pause` adds seconds between lists): far faster than people,
   so that the lists in one minute are many and every one renews the public pages;
5. stops the server, then counts in the database: every list answered with success is stored with exactly the
   games posted, once (one revision, version 1); no list is stored twice;
6. prints p50/p95/p99/max latency per kind of request, the counts, the errors (5xx, connection errors, timeouts,
   unexpected answers), the lost lists, the load average and a CPU yardstick; stops PostgreSQL.

`--servers 2`: a federation's set-up on one machine: that many gunicorn servers, each with its own data and
temporary folders, on the one PostgreSQL, sharing their cache in a throw-away Redis (Debian's `redis-server`), behind
nginx (Debian's `nginx-light`) run with docs/server.md's reference configuration made to listen on 127.0.0.1 without
TLS (bench/_server.py `proxy_config`: it fails when the documented configuration changes shape). The figures add how
nginx spread the requests and its CPU time.

`bench/load.py tables [...]` is the other scenario: every table of a 500-table tournament sends its list from a
phone through its private link while phones poll and assistants confirm (bench/load_tables.py).

Why not locust: it pulls gevent and greenlet into the project for one script. Threads with `http.client`
(the standard library) are enough for this load: 200 viewers polling every 15 s are 13 requests a second,
and the directors wait for every answer as a browser does. The client's CPU time is printed with the figures.
"""

from __future__ import annotations

import argparse
import gzip
import html
import http.client
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._server import (  # noqa: E402 (after the checkout is on the path)
    Postgres,
    Proxy,
    Redis,
    Server,
    cpu_line,
    cpu_seconds,
    error_lines,
    latency_lines,
    load_line,
    load_sampler,
    server_errors,
    tear_down,
)

SLUG = "bench-load"
#: round 2's list at table n is generated from this seed + n, so the check can generate it again
LIST_SEED = 5000
#: a socket timeout as long as gunicorn's worker timeout: a slower answer is an error
REQUEST_TIMEOUT = 30.0
#: a connection idle longer than this is opened anew (the server may have closed it)
IDLE_RECONNECT = 1.0


# --- pure parts (tests/ops/test_load_bench.py) --------------------------------------------------------------


def list_games(table_number: int, games: int, table_size: int) -> list[dict]:
    """Round 2's list at a table, the same every time (the check generates it again)."""
    from scoring.games.schafkopf.demo import random_list

    return random_list(random.Random(LIST_SEED + table_number), games, table_size)


def list_post_data(entries: list[dict], *, csrf: str, version: int | str = 0) -> dict[str, str]:
    """A list as the grid posts it: one-letter fields per game row (`t1`, `d1`, `p1`, …) and the hidden fields."""
    from scoring.games.schafkopf.forms import grid_values

    data = {"csrfmiddlewaretoken": csrf, "version": str(version), "mode": "games"}
    for number, entry in enumerate(entries, start=1):
        data.update({f"{key}{number}": value for key, value in grid_values(entry).items()})
    return data


def grid_of(entries: list[dict]) -> list[dict]:
    """What a list shows in the grid: two lists with the same grid were typed the same."""
    from scoring.games.schafkopf.forms import grid_values

    return [grid_values(entry) for entry in entries]


def form_value(page: str, name: str) -> str | None:
    """The value of a named input in a page (the CSRF token, the list's version)."""
    for tag in re.findall(r"<input\b[^>]*>", page):
        if re.search(rf'\bname="{re.escape(name)}"', tag):
            found = re.search(r'\bvalue="([^"]*)"', tag)
            return html.unescape(found.group(1)) if found else ""
    return None


def poll_url(page: str) -> str | None:
    """The address the live region polls (htmx's hx-get), with the fingerprint of what the page shows."""
    found = re.search(r'\bhx-get="([^"]+)"', page)
    return html.unescape(found.group(1)) if found else None


def static_urls(page: str) -> list[str]:
    """The page's own CSS and scripts, which a browser loads once."""
    return sorted(set(re.findall(r'\b(?:href|src)="(/static/[^"]+)"', page)))


# --- the client ------------------------------------------------------------------------------------------------


class Recorder:
    """Latencies by kind of request, status counts and errors, from many threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.errors: list[str] = []
        self.error_counts: dict[str, int] = defaultdict(int)
        self.retries = 0
        #: bytes of answer bodies as sent (gzipped where the client accepted it), by kind
        self.wire_bytes: dict[str, int] = defaultdict(int)

    def record(self, kind: str, seconds: float, status: int, wire_bytes: int = 0) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            self.statuses[kind][status] += 1
            self.wire_bytes[kind] += wire_bytes

    def error(self, kind: str, message: str, what: str) -> None:
        with self.lock:
            self.errors.append(f"{kind}: {message}")
            self.error_counts[f"{kind}: {what}"] += 1

    def retried(self) -> None:
        with self.lock:
            self.retries += 1


class Client:
    """One browser: its own connection (opened anew after a pause) and cookies."""

    def __init__(self, port: int, recorder: Recorder, gzip: bool = False):
        """`gzip`: accept gzipped answers, as a phone's browser does (the text returned is unzipped)."""
        self.port, self.recorder, self.gzip = port, recorder, gzip
        self.last_wire_bytes = 0
        #: the status of the last answer; None when the last request got none (a timeout, a dropped connection)
        self.last_status: int | None = None
        self.connection: http.client.HTTPConnection | None = None
        self.last_used = 0.0
        self.cookies: dict[str, str] = {}

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(self, kind: str, method: str, path: str, data: dict | None = None, expect=(200,), split=False,
                started: float | None = None):
        """(status, response, text), or None after a connection error, a timeout or an unexpected status.
        `split`: the latencies are kept apart per status ("poll 200", "poll 204"). A GET on a kept-alive
        connection that the server closed before answering is sent again once on a new connection, as
        browsers do (counted as a retry, not an error); a POST never is."""
        reused = self.connection is not None and time.monotonic() - self.last_used <= IDLE_RECONNECT
        if not reused:
            self.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        headers = {"Accept-Language": "en", **({"Accept-Encoding": "gzip"} if self.gzip else {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = started or time.monotonic()  # a retry's latency includes the failed attempt
        self.last_status = None
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            self.last_status = response.status
            raw = response.read()
            seconds = time.monotonic() - start  # the answer is here: unzipping and decoding are the client's work
            self.last_wire_bytes = len(raw)
            if response.getheader("Content-Encoding", "") == "gzip":
                raw = gzip.decompress(raw)
            text = raw.decode("utf-8", "replace")
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as error:
            self.close()
            if reused and method == "GET":
                self.recorder.retried()
                return self.request(kind, method, path, data, expect, split, start)
            self.recorder.error(kind, f"{method} {path}: {type(error).__name__}: {error}", type(error).__name__)
            return None
        except (OSError, http.client.HTTPException) as error:
            self.recorder.error(kind, f"{method} {path}: {type(error).__name__}: {error}", type(error).__name__)
            self.close()
            return None
        self.last_used = time.monotonic()
        if response.getheader("Connection", "").lower() == "close" or response.will_close:
            self.close()
        for header in response.msg.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            self.cookies.update({name: morsel.value for name, morsel in cookie.items()})
        if split:
            kind = f"{kind} {response.status}"
        self.recorder.record(kind, seconds, response.status, self.last_wire_bytes)
        if response.status not in expect:
            self.recorder.error(kind, f"{method} {path}: status {response.status}", f"status {response.status}")
            return None
        return response.status, response, text


def viewer(port: int, recorder: Recorder, slug: str, poll_seconds: float, stop: threading.Event, seed: int) -> None:
    """A phone in the hall: the standings page (and its CSS and scripts, once), then a poll of its live
    region every interval; after a failed page load, the page again at the next interval (a reload)."""
    rng = random.Random(seed)
    client = Client(port, recorder, gzip=True)
    url = None
    wait = rng.uniform(0, poll_seconds)
    for _step in range(10_000):  # bounded; the stop event ends it long before
        if stop.wait(wait):
            break
        wait = poll_seconds * rng.uniform(0.9, 1.1)
        if url is None:
            answer = client.request("public page", "GET", f"/p/{slug}/standings/")
            if answer is None:
                continue
            url = poll_url(answer[2])
            if url is None:
                recorder.error("public page", "no live region to poll", "no live region")
                break
            for path in static_urls(answer[2]):
                client.request("static file", "GET", path)
            continue
        answer = client.request("poll", "GET", url, expect=(200, 204), split=True)
        if answer is not None and answer[0] == 200:
            url = poll_url(answer[2]) or url
    client.close()


def log_in(client: Client, username: str, password: str) -> bool:
    """The login page, then the login form posted with its CSRF token; False when either failed (recorded)."""
    answer = client.request("login page", "GET", "/accounts/login/")
    if answer is None:
        return False
    data = {"csrfmiddlewaretoken": form_value(answer[2], "csrfmiddlewaretoken") or "",
            "username": username, "password": password}
    return client.request("login", "POST", "/accounts/login/", data, expect=(302,)) is not None


def director(port: int, recorder: Recorder, slug: str, username: str, password: str, tables: list[tuple],
             outcomes: dict, stop: threading.Event, pause: float, logged_in: threading.Semaphore | None = None,
             go: threading.Event | None = None) -> None:
    """A director at the referee table: logs in once (then releases `logged_in` and waits for `go`: directors
    are logged in before the viewers come), then enters their lists of round 2 one after another."""
    client = Client(port, recorder)
    try:
        if not log_in(client, username, password):
            return
    finally:
        if logged_in is not None:
            logged_in.release()
    if go is not None:
        go.wait()
    for number, games, size in tables:
        if stop.is_set():
            break
        path = f"/manage/{slug}/schafkopf/rounds/2/tables/{number}/"
        answer = client.request("list page", "GET", path)
        if answer is None:
            outcomes[number] = "form not loaded"
            continue
        csrf, version = form_value(answer[2], "csrfmiddlewaretoken"), form_value(answer[2], "version")
        data = list_post_data(list_games(number, games, size), csrf=csrf or "", version=version or "0")
        outcomes[number] = "posted, no answer"
        answer = client.request("list save", "POST", path, data, expect=(302,))
        if answer is None:
            outcomes[number] = "refused or failed"
            continue
        outcomes[number] = "saved"
        client.request("next list page", "GET", urlsplit(answer[1].getheader("Location")).path)
        if pause and stop.wait(pause):
            break
    client.close()


def baseline(port: int, slug: str, server_pid: int) -> list[str]:
    """Single requests to the idle server, one after another: wall time and the server's CPU time for each
    (CPU time depends much less on what else the machine runs). The first public page computes the
    standings (cold); then they come from the workers' shared cache; a poll with the newest fingerprint is
    answered 204. Sizes: the page's HTML and the bytes sent (gzipped, as a phone accepts it)."""
    recorder = Recorder()
    client = Client(port, recorder, gzip=True)
    figures = defaultdict(list)

    def measure(kind: str, path: str, expect: tuple):
        cpu, start = cpu_seconds(server_pid), time.monotonic()
        answer = client.request(kind, "GET", path, expect=expect)
        figures[kind].append((time.monotonic() - start, cpu_seconds(server_pid) - cpu,
                              len(answer[2].encode()) if answer else 0, client.last_wire_bytes if answer else 0))
        return answer

    for _ in range(6):
        page = measure("public page", f"/p/{slug}/standings/", (200,))
        if page and poll_url(page[2]):
            measure("poll 204", poll_url(page[2]), (204,))
        client.close()
    lines = []
    for kind, values in figures.items():
        first, rest = values[0], sorted(values[1:])
        lines.append(f"{kind}: first {first[0] * 1000:.0f} ms wall / {first[1] * 1000:.0f} ms server CPU, "
                     f"then median {rest[len(rest) // 2][0] * 1000:.0f} ms wall / "
                     f"{sorted(v[1] for v in rest)[len(rest) // 2] * 1000:.0f} ms CPU ({first[2] // 1024} KiB, "
                     f"{first[3] // 1024} KiB sent)")
    return lines + recorder.errors


# --- building and checking ----------------------------------------------------------------------------------


def build_tournament(players: int, directors: int, password: str, entered: float) -> tuple:
    """Players imported, 2 rounds drawn, `entered` of round 1's lists entered, standings published,
    `directors` director accounts; round 2's tables as (number, games, size) and the build's seconds."""
    from django.contrib.auth import get_user_model

    from bench.schafkopf import build, timed
    from bench.schafkopf import director as bench_director
    from scoring.games.schafkopf import services
    from scoring.games.schafkopf.config import settings_of
    from scoring.games.schafkopf.demo import random_list
    from scoring.seated.queries import seated_tables
    from tournament.models import Role, TournamentRole
    from tournament.services.publishing import set_publication

    tournament, figures = build(players, SLUG, results=False)
    user = bench_director()
    settings = settings_of(tournament)
    tables = seated_tables(tournament)
    rng = random.Random(7)
    first = tables[1][: int(len(tables[1]) * entered)]

    def enter_round_one():
        for table in first:
            entries = random_list(rng, settings.games_at(table.size), table.size)
            services.enter_sheet(table.seats[0].table, by=user, mode="games", entries=entries)

    _nothing, figures["round 1"] = timed(enter_round_one)
    figures["round 1 lists"] = len(first)
    set_publication(tournament, by=user, kinds=["schedule", "standings", "results"])
    for number in range(1, directors + 1):
        account = get_user_model().objects.create_user(f"director{number}", password=password)
        TournamentRole.objects.create(tournament=tournament, user=account, role=Role.DIRECTOR)
    round_two = [(table.number, settings.games_at(table.size), table.size) for table in tables[2]]
    return tournament, round_two, figures


def check(tournament, round_two: list[tuple], outcomes: dict) -> dict:
    """Lists answered "saved" but missing or different in the database; lists stored more than once."""
    from django.db.models import Count

    from scoring.models import ScoreSheet
    from tournament.models import AuditEntry

    sizes = {number: (games, size) for number, games, size in round_two}
    sheets = {
        sheet.table.number: sheet
        for sheet in ScoreSheet.objects.filter(tournament=tournament, table__round__number=2)
        .select_related("table").annotate(revision_count=Count("revisions"))
    }
    saved = [number for number, outcome in outcomes.items() if outcome == "saved"]
    lost, different = [], []
    for number in saved:
        sheet = sheets.get(number)
        if sheet is None:
            lost.append(number)
        elif grid_of(sheet.entries) != grid_of(list_games(number, *sizes[number])):
            different.append(number)
    return {
        "saved": len(saved),
        "stored": len(sheets),
        "lost": lost,
        "different": different,
        "twice": [n for n, s in sheets.items() if s.revision_count != 1 or s.version != 1],
        "stored without success": sorted(set(sheets) - set(saved)),
        "audit entries": AuditEntry.objects.filter(tournament=tournament, action="sheet.entry").count(),
        "outcomes": {outcome: list(outcomes.values()).count(outcome) for outcome in set(outcomes.values())},
    }


# --- main -----------------------------------------------------------------------------------------------------


def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--directors", type=int, default=5)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--pause", type=float, default=0, help="seconds a director waits between lists")
    parser.add_argument("--poll", type=float, help="seconds between polls (default: PUBLIC_POLL_SECONDS)")
    parser.add_argument("--server", choices=("gunicorn", "waitress"), default="gunicorn",
                        help="gunicorn as on a server (docs/deploy.md), or waitress as on a laptop (`serve`)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docs/deploy.md: 3)")
    parser.add_argument("--threads", type=int, help="threads per gunicorn worker (docs/deploy.md: 4, gthread; "
                        "1: sync workers), or waitress's threads (serve's default: 8)")
    parser.add_argument("--servers", type=int, default=1,
                        help="app servers (gunicorn) behind nginx with docs/server.md's configuration, sharing "
                             "PostgreSQL and a Redis cache, each with its own data and temporary folders")
    parser.add_argument("--entered", type=float, default=0.5, help="share of round 1's lists entered beforehand")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 200 players, 20 viewers, 2 directors, "
                        "20 s, polls every 3 s")
    options = parser.parse_args(argv)
    if options.threads is None:
        options.threads = 4 if options.server == "gunicorn" else 8
    if options.quick:
        options.seconds, options.viewers, options.directors, options.players = 20, 20, 2, 200
        options.poll = options.poll or 3
    return options


def server_command(options: argparse.Namespace) -> tuple[list[str], str]:
    """The server's command line (with `{port}`) and how it is described in the figures."""
    if options.server == "waitress":
        # the serving process `serve` starts on a laptop (config/serving.py), without its supervisor
        return ([sys.executable, "-m", "django", "serve", "--child", "--host", "127.0.0.1", "--port", "{port}",
                 "--threads", str(options.threads)], f"waitress, 1 process × {options.threads} threads")
    worker_class = "gthread" if options.threads > 1 else "sync"
    return ([str(Path(sys.executable).parent / "gunicorn"), "config.wsgi", "--bind", "127.0.0.1:{port}",
             "--workers", str(options.workers), "--threads", str(options.threads), "--timeout", "30",
             "--graceful-timeout", "20"],
            f"gunicorn, {options.workers} {worker_class} workers × {options.threads} threads")


KINDS = ("public page", "static file", "poll 200", "poll 204", "login page", "login", "list page", "list save",
         "next list page")


def report(recorder: Recorder, result: dict, run: dict) -> int:
    print()
    print("\n".join(latency_lines(recorder, KINDS, sizes=True)))
    errors_5xx = server_errors(recorder)
    requests = sum(len(v) for v in recorder.latencies.values())
    print(f"\nrequests   {requests} answered in {run['seconds']:.0f} s, "
          f"{errors_5xx} with 5xx; {len(recorder.errors)} errors (connection, timeout, unexpected status); "
          f"{recorder.retries} GETs sent again after the server closed a kept-alive connection")
    for line in error_lines(recorder):
        print(line)
    print(f"lists      {result['saved']} saved (answer 302), {result['stored']} stored in round 2; "
          f"lost {len(result['lost'])}, stored differently {len(result['different'])}, "
          f"stored more than once {len(result['twice'])}, stored without a success answer "
          f"{len(result['stored without success'])}; outcomes {result['outcomes']}")
    print(f"audit      {result['audit entries']} sheet entries in the audit log (round 1 and 2)")
    for name in ("lost", "different", "twice", "stored without success"):
        if result[name]:
            print(f"  {name}: tables {result[name][:20]}")
    print(f"server log {run['log']}")
    others = {"PostgreSQL": run["cpu postgres"], "this client": run["cpu client"]}
    if run.get("cpu proxy") is not None:
        others.update(nginx=run["cpu proxy"], Redis=run["cpu redis"])
        print("spread     " + ", ".join(f"{upstream}: {count}" for upstream, count in sorted(run["spread"].items())))
    print(cpu_line(run["cpu server"], requests, **others))
    print(load_line(run["load before"], run["loads"], run["load after"]))
    failed = errors_5xx or recorder.errors or result["lost"] or result["different"] or result["twice"]
    return 1 if failed else 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["tables"]:  # the other scenario: every table sends its list from a phone (bench/load_tables.py)
        from bench.load_tables import main as tables

        return tables(argv[1:])
    options = parse(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
    postgres = Postgres(folder)
    redis = Redis(folder) if options.servers > 1 else None
    proxy = Proxy(folder, ROOT / "docs" / "server.md") if options.servers > 1 else None
    servers: list[Server] = []
    collectstatic = None
    try:
        database_url = postgres.start()
        environment = {
            "DATABASE_URL": database_url, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0", "STATIC_ROOT": str(folder / "static"),
            "BACKUP_DIR": str(folder / "backups"), "BACKUP_AFTER_ROUND": "0", "LOG_LEVEL": "WARNING",
            "PUBLIC_CACHE_DIR": str(folder / "public-cache"),  # the workers' shared cache, as deployed
        }
        if redis:  # several servers: the cache in Redis, behind the proxy (docs/server.md)
            environment.update(REDIS_URL=redis.start(), BEHIND_PROXY="1")
        os.environ.update(environment)
        from bench.schafkopf import calibration, setup_django, timed

        setup_django("", str(folder))
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connections

        _nothing, seconds = timed(call_command, "migrate", verbosity=0)
        print(f"setup      PostgreSQL on 127.0.0.1:{postgres.port}, migrate {seconds:.1f} s")
        # collectstatic (DEBUG off serves the compressed, hashed files) takes a while: meanwhile, the build
        collectstatic = subprocess.Popen([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                                         cwd=ROOT, env=os.environ.copy())
        password = secrets.token_urlsafe(16)
        tournament, round_two, figures = build_tournament(options.players, options.directors, password,
                                                          options.entered)
        print(f"tournament {options.players} players imported ({figures['import']:.1f} s), 2 rounds drawn "
              f"({figures['draw_service']:.1f} s), {figures['round 1 lists']} lists of round 1 entered "
              f"({figures['round 1']:.1f} s), standings published; {len(round_two)} tables in round 2")
        connections.close_all()
        if collectstatic.wait(timeout=600) != 0:
            raise RuntimeError("collectstatic failed")

        command, described = server_command(options)
        for number in range(1, options.servers + 1):
            own = folder / f"server{number}"  # what one host has to itself: its data and temporary folders
            (own / "tmp").mkdir(parents=True)
            env = {"DATA_DIR": str(own), "TMPDIR": str(own / "tmp")} if options.servers > 1 else {}
            servers.append(Server(command, folder / f"server{number}.log", ROOT, env))
        ports = [server.start() for server in servers]
        port = proxy.start(ports, Path(settings.STATIC_ROOT)) if proxy else ports[0]
        if proxy:
            described = (f"nginx (docs/server.md's configuration) on 127.0.0.1:{port} before {options.servers} "
                         f"servers on {', '.join(map(str, ports))}, each {described}; the cache in Redis")
        poll_seconds = options.poll or settings.PUBLIC_POLL_SECONDS
        print(f"server     127.0.0.1:{port}, {described}; "
              f"{options.viewers} viewers polling every {poll_seconds:g} s, {options.directors} directors "
              f"({'as fast as answered' if not options.pause else f'{options.pause:g} s between lists'}), "
              f"{options.seconds:g} s")
        print(f"machine    `sum(range(10**6))` takes {calibration() * 1000:.0f} ms here")
        for line in baseline(ports[0], SLUG, servers[0].pid):  # one server alone, without the proxy
            print(f"alone      {line}")

        recorder, outcomes, stop, loads = Recorder(), {}, threading.Event(), []
        shares = [round_two[d::options.directors] for d in range(options.directors)]
        # The directors log in first (a password hash is half a second of CPU: in the hall they are logged in
        # before the phones come), then the viewers arrive and the directors start entering.
        logged_in, go = threading.Semaphore(0), threading.Event()
        directors = [threading.Thread(target=director, args=(port, recorder, SLUG, f"director{d + 1}", password,
                                                             shares[d], outcomes, stop, options.pause, logged_in, go),
                                      daemon=True) for d in range(options.directors)]
        for thread in directors:
            thread.start()
        for _director in directors:
            logged_in.acquire(timeout=2 * REQUEST_TIMEOUT)
        threads = [threading.Thread(target=load_sampler, args=(loads, stop), daemon=True)]
        threads += [threading.Thread(target=viewer, args=(port, recorder, SLUG, poll_seconds, stop, seed),
                                     daemon=True) for seed in range(options.viewers)]
        load_before = os.getloadavg()[0]
        for server in servers:
            server.measure()
        cpu_proxy, cpu_redis = (proxy.cpu() if proxy else 0.0), cpu_seconds(redis.pid if redis else None)
        cpu_postgres, cpu_client = cpu_seconds(postgres.postmaster()), time.process_time()
        start = time.monotonic()
        go.set()
        for thread in threads:
            thread.start()
        threads += directors
        stop.wait(options.seconds)
        stop.set()
        for thread in threads:  # every thread ends after its request in flight (at most REQUEST_TIMEOUT)
            thread.join(timeout=max(1.0, start + options.seconds + 3 * REQUEST_TIMEOUT - time.monotonic()))
        run = {
            "seconds": time.monotonic() - start, "loads": loads, "load before": load_before,
            "load after": os.getloadavg()[0], "cpu client": time.process_time() - cpu_client,
            "cpu server": sum(server.cpu() for server in servers),
            "cpu postgres": cpu_seconds(postgres.postmaster()) - cpu_postgres,
            "cpu proxy": (proxy.cpu() - cpu_proxy) if proxy else None,
            "cpu redis": (cpu_seconds(redis.pid) - cpu_redis) if redis else None,
            "spread": proxy.spread() if proxy else None,
        }
        still = sum(thread.is_alive() for thread in threads)
        if still:
            recorder.error("client", f"{still} threads still waiting for an answer at the end", "unfinished")
        run["log"] = "; ".join(f"server {number}: {server.stop()}" for number, server in enumerate(servers, 1))
        return report(recorder, check(tournament, round_two, outcomes), run)
    finally:
        tear_down(folder, collectstatic, *servers, proxy, redis, postgres=postgres)


if __name__ == "__main__":
    sys.exit(main())
