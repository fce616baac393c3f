"""What both load scenarios (bench/load.py, bench/load_tables.py) do around the load itself: a throw-away
PostgreSQL, the server process started, waited for, measured and stopped, its log counted, and the figures
printed the same way.

Everything here listens on 127.0.0.1 only and lives in the scenario's temporary folder.
"""

from __future__ import annotations

import http.client
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path


def percentile(values, fraction: float) -> float:
    """The nearest-rank percentile (fraction 0.5 → p50, 0.95 → p95): a value that was measured."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    if not 0 < fraction <= 1:
        raise ValueError("fraction must be in (0, 1]")
    rank = max(1, math.ceil(round(len(ordered) * fraction, 9)))  # round: 0.95 * 20 is 19, not 19.000…01
    return ordered[rank - 1]


def summary(values) -> dict:
    return {"count": len(values), "p50": percentile(values, 0.5), "p95": percentile(values, 0.95),
            "p99": percentile(values, 0.99), "max": max(values)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of a process and its descendants, alive or ended (from /proc)."""
    if pid is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    while pids:
        current = pids.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(value) for value in fields[11:15]) / tick  # utime, stime, cutime, cstime
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except (OSError, IndexError, ValueError):
            continue
        pids.extend(int(child) for child in children)
    return total


def load_sampler(samples: list, stop: threading.Event) -> None:
    """The load average every 5 s until `stop`."""
    while not stop.wait(5):
        samples.append(os.getloadavg()[0])


def stop_process(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)


def tear_down(folder: Path, process: subprocess.Popen | None, *running, postgres: Postgres | None = None) -> None:
    """After a scenario, also one whose set-up failed: the servers and their helpers (`running`, each with `stop()`;
    None for one not started) stopped in that order, the static files' process stopped, Django's connections
    closed, the throw-away PostgreSQL stopped, the temporary folder removed."""
    for thing in running:
        if thing is not None:
            thing.stop()
    stop_process(process)
    try:
        from django.db import connections

        connections.close_all()
    except Exception:  # noqa: BLE001 (Django may not be set up when setup failed)
        pass
    if postgres is not None:
        postgres.stop()
    shutil.rmtree(folder, ignore_errors=True)


def wait_until_up(port: int, process: subprocess.Popen, seconds: float = 240) -> None:
    """Until the server answers its login page; on a busy machine `serve`'s start (collecting and compressing the
    static files) alone can take more than a minute."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError("the server stopped while starting: see its log")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/accounts/login/")
            if connection.getresponse().status == 200:
                connection.close()
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"the server did not answer within {seconds:.0f} s")


class Server:
    """The server under test: a command started in the checkout with the process's environment, its output in
    `log`; `cpu()` is its CPU time (with its workers') since the start of the load (`measure()`)."""

    def __init__(self, command: list[str], log: Path, cwd: Path, env: dict[str, str] | None = None):
        self.command, self.log_path, self.cwd = command, log, cwd
        #: what this server's environment has besides the process's (its own data and temporary folders)
        self.env = env or {}
        self.process: subprocess.Popen | None = None
        self.port = 0
        self._cpu_start = 0.0
        self._stopped: str | None = None

    def start(self) -> int:
        """Start it on a free port of 127.0.0.1 (the command's `{port}`), wait until it answers; the port."""
        self.port = free_port()
        command = [part.replace("{port}", str(self.port)) for part in self.command]
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(command, cwd=self.cwd, env={**os.environ, **self.env}, stdout=log,
                                            stderr=log)
        wait_until_up(self.port, self.process)
        return self.port

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def measure(self) -> None:
        self._cpu_start = cpu_seconds(self.pid)

    def cpu(self) -> float:
        return cpu_seconds(self.pid) - self._cpu_start

    def stop(self) -> str:
        """Stop it; what its log says went wrong, in a line (the log's tail is printed after a traceback). Once:
        stopping it again answers the same line."""
        if self._stopped is None:
            stop_process(self.process)
            text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
            if "Traceback" in text:
                print(text[-4000:])
            self._stopped = (f"{text.count('Traceback')} tracebacks, {text.count('WORKER TIMEOUT')} worker "
                             f"timeouts, {text.count('Internal Server Error')} internal server errors in its log")
        return self._stopped


def as_postgres(command: list[str]) -> list[str]:
    """initdb and pg_ctl refuse to run as root: run them as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Postgres:
    """A throw-away cluster in `folder`, listening on 127.0.0.1 only (the approach of .ci/with-postgres.sh)."""

    def __init__(self, folder: Path):
        self.bin = Path(sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))[-1])
        self.data = folder / "pg"
        self.port = free_port()
        self.started = False

    def start(self) -> str:
        self.data.mkdir()
        if os.geteuid() == 0:
            self.data.parent.chmod(0o711)  # the postgres user passes through the temporary folder
            shutil.chown(self.data, "postgres")
        subprocess.run(as_postgres([str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                                    "-E", "UTF8", "--locale=C.UTF-8"]),
                       check=True, stdout=subprocess.DEVNULL, timeout=120)
        options = f"-k {self.data} -p {self.port} -c listen_addresses=127.0.0.1 -c max_connections=60"
        subprocess.run(as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.data / "log"),
                                    "-o", options, "-w", "start"]), check=True, stdout=subprocess.DEVNULL, timeout=120)
        self.started = True
        subprocess.run([str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-qc",
                        "CREATE DATABASE tournament"], check=True, timeout=60)
        return f"postgres://postgres@127.0.0.1:{self.port}/tournament"

    def postmaster(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        if self.started:
            subprocess.run(as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"]),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
            self.started = False


class Redis:
    """A throw-away Redis on 127.0.0.1 (Debian's `redis-server`): the cache servers share (docs/server.md)."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> str:
        if not shutil.which("redis-server"):
            raise RuntimeError("several servers share their cache in Redis: apt-get install redis-server")
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return f"redis://127.0.0.1:{self.port}/0"
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("redis-server did not answer within 30 s")

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def stop(self) -> None:
        stop_process(self.process)


def proxy_config(documented: str, *, port: int, upstreams: list[int], static_root: Path, log: Path) -> str:
    """The reference nginx configuration of docs/server.md made to run here: the same maps, log format, static
    location and proxy headers, listening on 127.0.0.1 without TLS and passing to `upstreams`. Fails loudly when
    the documented configuration no longer has the shape this expects (so the bench tests what the docs say)."""
    steps = [
        (r"upstream tournament \{.*?\n\}", "upstream tournament {\n" + "".join(
            f"    server 127.0.0.1:{p} max_fails=3 fail_timeout=10s;\n" for p in upstreams) + "}"),
        (r"listen 443 ssl;", f"listen 127.0.0.1:{port};"),
        (r"\n\s*ssl_certificate(_key)? [^;]+;", ""),
        (r"server_name [^;]+;", "server_name 127.0.0.1;"),
        (r"access_log \S+ tournament;", f"access_log {log} tournament;"),
        (r"alias /srv/turnier/static/;", f"alias {static_root}/;"),
        (r"\n\s*server \{\s*listen 80;.*?\n\}", ""),  # the redirect to HTTPS: no TLS here
    ]
    text = documented
    for pattern, replacement in steps:
        text, count = re.subn(pattern, lambda _match, r=replacement: r, text, flags=re.S)
        if not count:
            raise RuntimeError(f"docs/server.md's nginx configuration has no {pattern!r} any more: update bench")
    return text


def documented_proxy(docs: Path) -> str:
    """The ```nginx block of docs/server.md."""
    found = re.search(r"```nginx\n(.*?)```", docs.read_text(), flags=re.S)
    if not found:
        raise RuntimeError(f"{docs} has no nginx configuration")
    return found.group(1)


class Proxy:
    """nginx (Debian's `nginx-light` or `nginx`) in front of several servers, with docs/server.md's configuration."""

    def __init__(self, folder: Path, docs: Path):
        self.folder, self.docs, self.port = folder / "nginx", docs, free_port()
        self.process: subprocess.Popen | None = None

    def start(self, upstreams: list[int], static_root: Path) -> int:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(nginx).exists():
            raise RuntimeError("the proxy is nginx: apt-get install nginx-light")
        self.folder.mkdir()
        site = proxy_config(documented_proxy(self.docs), port=self.port, upstreams=upstreams,
                            static_root=static_root, log=self.folder / "access.log")
        # the folders nginx would take from /var/lib/nginx (not writable as a user, busy when one runs already)
        temp = "".join(f"{kind}_temp_path {self.folder / kind};\n    " for kind in
                       ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # as root, nginx's worker would be `nobody`, who cannot read a temporary folder: the bench's own user
        user = "user root;\n" if os.geteuid() == 0 else ""
        (self.folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'} warn;\n"
            f"events {{ worker_connections 1024; }}\n"
            f"http {{\n    include /etc/nginx/mime.types;\n    {temp}\n{site}\n}}\n")
        subprocess.run([nginx, "-t", "-q", "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
                       check=True, timeout=30)
        self.process = subprocess.Popen([nginx, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"),
                                         "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until_up(self.port, self.process)
        return self.port

    def cpu(self) -> float:
        """nginx's CPU time: its master and worker."""
        return cpu_seconds(self.process.pid if self.process else None)

    def spread(self) -> dict[str, int]:
        """How many requests each upstream answered (the access log's last field)."""
        counts: dict[str, int] = {}
        log = self.folder / "access.log"
        for line in log.read_text(errors="replace").splitlines() if log.exists() else ():
            upstream = line.rsplit(" ", 1)[-1]
            counts[upstream] = counts.get(upstream, 0) + 1
        return counts

    def stop(self) -> None:
        stop_process(self.process)


# --- the figures, printed the same way by both scenarios ------------------------------------------------------


def latency_lines(recorder, kinds: tuple[str, ...], *, sizes: bool = False) -> list[str]:
    """The table of p50/p95/p99/max per kind of request, with the statuses (and the bytes sent)."""
    width = max(len(kind) for kind in kinds) + 2
    lines = [f"{'request':<{width}}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}   statuses"]
    for kind in kinds:
        values = recorder.latencies.get(kind)
        if not values:
            continue
        figures = summary(values)
        statuses = ", ".join(f"{status}: {count}" for status, count in sorted(recorder.statuses[kind].items()))
        sent = f"; {recorder.wire_bytes[kind] / 2**20:.1f} MiB sent" if sizes else ""
        lines.append(f"{kind:<{width}}{figures['count']:>7}{figures['p50'] * 1000:>9.0f}{figures['p95'] * 1000:>9.0f}"
                     f"{figures['p99'] * 1000:>9.0f}{figures['max'] * 1000:>9.0f}   {statuses}{sent}")
    return lines


def server_errors(recorder) -> int:
    """Answers with a 5xx status."""
    return sum(count for statuses in recorder.statuses.values() for status, count in statuses.items() if status >= 500)


def error_lines(recorder) -> list[str]:
    """The errors counted by what went wrong, and the first few as examples."""
    return ([f"  {count:>5} × {what}" for what, count in sorted(recorder.error_counts.items())]
            + [f"  e.g. {line}" for line in recorder.errors[:5]])


def cpu_line(server_cpu: float, requests: int, **others: float) -> str:
    """The server's CPU time during the load, per request answered, and the other processes' (the database,
    this client)."""
    per_request = f" ({server_cpu / requests * 1000:.1f} ms per request answered)" if requests else ""
    rest = "".join(f", {name} {seconds:.1f} s" for name, seconds in others.items())
    return f"CPU        server {server_cpu:.1f} s{per_request}{rest} during the run"


def load_line(before: float, samples: list[float], after: float) -> str:
    return (f"load       average {before:.1f} before, {max(samples, default=0):.1f} highest during the run "
            f"(sampled every 5 s), {after:.1f} after, on {os.cpu_count()} CPUs")
