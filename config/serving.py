"""Serving the app on a laptop (`serve`, tournament/management/commands/serve.py): the hall choice, the restart a
view asks for, the waitress server in the serving child process, and the supervisor that starts that child again.

The same on Windows, macOS and Linux: the child is a plain `subprocess.Popen` of the same Python (no fork, no
exec), the server is waitress in the child's own process, and the only signals used are SIGINT (Ctrl-C) and
SIGTERM, which Windows has too.

Hall switch contract (docs/deploy.md, "In the hall"): the choice lives in DATA_DIR/hall.json as {"hall": true|false}
(`set_hall`, `hall_wanted`); a view that changed it calls `request_restart()`, which returns at once; the serving
child stops accepting, answers the requests under way (that view's own answer among them) and exits with
RESTART_EXIT_CODE, and the supervisor starts it again with the choice read again.
"""

from __future__ import annotations

import errno
import json
import os
import select
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

#: the serving child's exit code for "start me again" (after a hall switch)
RESTART_EXIT_CODE = 3
#: how long a restart waits for the requests under way (a long printout) before it cuts them
#: connections open at once. A hall's phones and viewers each keep one alive between requests; with waitress's
#: default of 100, a 500-table hall's 101st connection waited until an idle one was closed: new phones' pages took
#: 17 s at the median (docs/performance.md) while the server's CPU was idle. Windows' select() watches at most
#: 512 sockets (elsewhere poll() has no such bound).
CONNECTION_LIMIT = 1000 if hasattr(select, "poll") else 500
#: a kept-alive connection with nothing asked for this long is closed (and its place freed): a viewer polling every
#: 15 s keeps its own, a phone that sent its list and went quiet lets go; the browser connects again when it asks
IDLE_SECONDS = 45
RESTART_GRACE_SECONDS = 60
#: after a restart is asked, the server still accepts for this long: the page that asked ("Restarting…") loads its
#: script and style sheet, which then wait for the restarted server (without them the page would wait for ever)
RESTART_SETTLE_SECONDS = 2.0


# --- the hall choice -------------------------------------------------------------------------------------------


def hall_file() -> Path:
    from django.conf import settings

    return Path(settings.DATA_DIR) / "hall.json"


def set_hall(on: bool) -> None:
    """Keep the director's hall choice for the next start (written beside and moved into place: never half a file)."""
    path = hall_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    draft.write_text(json.dumps({"hall": bool(on)}))
    os.replace(draft, path)


def hall_wanted() -> bool:
    """The director's hall choice; no choice (or a file that cannot be read) is loopback, the safe default."""
    try:
        return json.loads(hall_file().read_text()).get("hall") is True
    except (OSError, ValueError, AttributeError):
        return False


# --- the restart a view asks for ---------------------------------------------------------------------------------

_restart = threading.Event()
_stop = threading.Event()
#: wakes the serving loop (waitress's trigger); None when this process is not `serve`'s serving child
_wake: Callable[[], None] | None = None


def request_restart() -> bool:
    """Ask the serving child to restart (with the hall choice read again); returns at once. The child stops
    accepting, answers the requests under way and exits with RESTART_EXIT_CODE; the supervisor starts it again
    within a few seconds. False, and nothing happens, when this process is not served by `serve` (gunicorn on a
    server, a test's live server)."""
    wake = _wake
    if wake is None:
        return False
    _restart.set()
    wake()
    return True


# --- the serving child ---------------------------------------------------------------------------------------------


class PortInUse(OSError):
    """The port is taken (another server, or this one already running)."""

    def __init__(self, host: str, port: int):
        super().__init__(f"Port {port} is already in use on this computer (is the tournament manager running "
                         f"already?). Stop the other program, or choose another port, e.g. --port {port + 1}.")
        self.host, self.port = host, port


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port), or PortInUse. On POSIX with SO_REUSEADDR, so that a restart binds again at
    once beside the old connections' TIME_WAIT; not on Windows, where that option would let a second server bind
    a port in use (and where TIME_WAIT does not block a new bind: asyncio makes the same choice)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if os.name != "nt":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        # Windows: WSAEADDRINUSE, or WSAEACCES for a port another program holds exclusively
        if error.errno == errno.EADDRINUSE or getattr(error, "winerror", None) in {10048, 10013}:
            raise PortInUse(host, port) from error
        raise
    return sock


def check_port_free(host: str, port: int) -> None:
    """PortInUse when (host, port) cannot be bound now."""
    listening_socket(host, port).close()


def _stop_on_signal(signum, frame) -> None:
    _stop.set()
    if _wake is not None:
        _wake()


def serve(application, sock: socket.socket, *, threads: int, grace: float = RESTART_GRACE_SECONDS,
          settle: float = RESTART_SETTLE_SECONDS) -> int:
    """Serve `application` with waitress on the bound `sock` until Ctrl-C or SIGTERM (0) or `request_restart()`
    (RESTART_EXIT_CODE: still accepting for `settle` seconds, then once the requests under way are answered, at
    most `grace` seconds later)."""
    global _wake
    from waitress import create_server, wasyncore
    from waitress.channel import HTTPChannel

    server = create_server(application, sockets=[sock], threads=threads, ident="tournament-manager",
                           connection_limit=CONNECTION_LIMIT, asyncore_use_poll=True, channel_timeout=IDLE_SECONDS,
                           cleanup_interval=15)
    channels = server._map  # the listening socket, the trigger and every connection: waitress's socket map
    loop = {"timeout": server.adj.asyncore_loop_timeout, "map": channels, "use_poll": server.adj.asyncore_use_poll,
            "count": 1}
    _restart.clear()
    _stop.clear()
    # a flag, not KeyboardInterrupt: a second signal cannot cut the shutdown short
    previous = {name: signal.signal(getattr(signal, name), _stop_on_signal) for name in ("SIGINT", "SIGTERM")}
    _wake = server.pull_trigger
    try:
        settled_at = None
        while not _stop.is_set():
            if _restart.is_set():
                if settled_at is None:
                    settled_at = time.monotonic() + settle
                elif time.monotonic() >= settled_at:
                    break
            wasyncore.loop(**loop)
        if _stop.is_set():
            return 0
        wasyncore.dispatcher.close(server)  # stop accepting (the trigger stays: the workers wake the loop with it)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and not _stop.is_set():
            open_channels = [channel for channel in list(channels.values()) if isinstance(channel, HTTPChannel)]
            if not open_channels:
                break
            for channel in open_channels:
                if not (channel.requests or channel.total_outbufs_len or channel.request is not None):
                    channel.will_close = True  # idle (kept alive): closed by the loop; its browser connects again
            wasyncore.loop(**loop)
        return RESTART_EXIT_CODE
    finally:
        _wake = None
        server.task_dispatcher.shutdown(timeout=5)
        wasyncore.close_all(channels)
        for name, handler in previous.items():
            signal.signal(getattr(signal, name), handler)


# --- the supervisor ------------------------------------------------------------------------------------------------


class Supervisor:
    """Runs the serving child: `command(restarted)` gives its argv and environment (read anew at each start, e.g.
    the hall choice), `started(child, restarted)` is told of each start. The child is started again while it exits
    with RESTART_EXIT_CODE; any other exit code ends the supervisor with it. Ctrl-C or SIGTERM stops both: the
    child is asked to stop (SIGTERM; on Windows the console's Ctrl-C reaches it too), then, after `stop_seconds`,
    killed."""

    def __init__(self, command: Callable[[bool], tuple[list[str], dict[str, str]]],
                 started: Callable[[subprocess.Popen, bool], None] | None = None, stop_seconds: float = 30):
        self.command, self.started, self.stop_seconds = command, started, stop_seconds
        self.child: subprocess.Popen | None = None
        self.starts = 0
        self._stopping = False

    def _interrupt(self, signum, frame) -> None:
        if not self._stopping:  # once: a second Ctrl-C must not cut the child's stop short
            self._stopping = True
            raise KeyboardInterrupt

    def run(self) -> int:
        previous = {name: signal.signal(getattr(signal, name), self._interrupt) for name in ("SIGINT", "SIGTERM")}
        try:
            restarted = False
            while True:
                argv, environment = self.command(restarted)
                self.child = subprocess.Popen(argv, env=environment)
                self.starts += 1
                if self.started is not None:
                    self.started(self.child, restarted)
                code = self.child.wait()
                if code != RESTART_EXIT_CODE:
                    return code
                restarted = True
        except KeyboardInterrupt:
            self._stopping = True
            self.stop_child()
            return 0
        finally:
            self.stop_child()
            for name, handler in previous.items():
                signal.signal(getattr(signal, name), handler)

    def stop_child(self) -> None:
        child = self.child
        if child is None or child.poll() is not None:
            return
        if os.name == "nt":
            # the console's Ctrl-C reached the child too, and terminate() would cut its stop short (TerminateProcess)
            try:
                child.wait(timeout=5)
                return
            except subprocess.TimeoutExpired:
                pass
        child.terminate()
        try:
            child.wait(timeout=self.stop_seconds)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
