"""The application's run time on every system: the settings in a clone and installed, the console command, the
hall choice, the serving child (waitress) with its restart, and the supervisor (config/serving.py,
tournament/management/commands/serve.py, tournament_manager/).

The end-to-end tests start `python -m tournament_manager serve` as a director's laptop does, with an empty data
folder, on a free port of 127.0.0.1, and wait for what it prints (no fixed sleeps).
"""

import http.client
import io
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from config import serving
from tests.server_output import ServerOutput
from tournament.management.commands.serve import listen_host, local_url
from tournament_manager import __version__
from tournament_manager.cli import build_parser, serve_arguments, split_manage

ROOT = Path(__file__).resolve().parents[2]
#: settings the processes started here must not inherit from the test's environment
FOREIGN = ("DATABASE_URL", "SQLITE_PATH", "SECRET_KEY", "DEBUG", "HALL", "ALLOWED_HOSTS", "PUBLIC_BASE_URL",
           "DJANGO_ALLOW_ASYNC_UNSAFE", "STATIC_ROOT", "DATA_DIR", "BACKUP_DIR", "PUBLIC_CACHE_DIR", "REDIS_URL",
           "HTTPS", "DJANGO_SETTINGS_MODULE", "SETUP_IN_BROWSER")


def clean_environment(**extra: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in FOREIGN}
    env.update(PYTHONUNBUFFERED="1", **extra)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- settings: a clone and an installed copy -------------------------------------------------------------------

LAYOUT = """
import json, config.settings as s
print(json.dumps({"installed": s.INSTALLED, "resources": str(s.RESOURCE_DIR), "data": str(s.DATA_DIR),
                  "templates": [str(d) for d in s.TEMPLATES[0]["DIRS"]], "static": [str(d) for d in s.STATICFILES_DIRS],
                  "locale": [str(d) for d in s.LOCALE_PATHS], "static_root": str(s.STATIC_ROOT),
                  "backups": str(s.BACKUP_DIR), "key": (s.DATA_DIR / "secret_key").exists(), "debug": s.DEBUG}))
"""


def layout_of(folder: Path, **extra: str) -> dict:
    import json

    result = subprocess.run([sys.executable, "-c", LAYOUT], cwd=folder, capture_output=True, text=True,
                            env=clean_environment(PYTHONPATH=str(folder), **extra))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def installed_copy(tmp_path: Path) -> Path:
    """config/ as the wheel installs it: beside the package tournament_manager/ (with the resources), no manage.py."""
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "config", site / "config", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tournament_manager", site / "tournament_manager",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("templates", "static", "locale"):
        (site / "tournament_manager" / name).mkdir()
    return site


def test_installed_the_resources_come_from_the_package_and_the_data_from_the_users_data_folder(tmp_path):
    site = installed_copy(tmp_path)
    home = tmp_path / "home"
    found = layout_of(site, HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"))
    package = site / "tournament_manager"
    data = home / ".local" / "share" / "tournament-manager"  # platformdirs on Linux
    assert found["installed"] is True
    assert found["resources"] == str(package)
    assert found["templates"] == [str(package / "templates")]
    assert found["static"] == [str(package / "static")]
    assert found["locale"] == [str(package / "locale")]
    assert found["data"] == str(data)
    assert found["static_root"] == str(data / "static") and found["backups"] == str(data / "backups")
    assert found["key"] is True and found["debug"] is False
    # the variable (and so --data-dir) wins
    elsewhere = tmp_path / "club-laptop"
    again = layout_of(site, HOME=str(home), DATA_DIR=str(elsewhere))
    assert again["data"] == str(elsewhere) and again["static_root"] == str(elsewhere / "static")


def test_a_clone_keeps_its_folders_and_data(tmp_path):
    found = layout_of(ROOT, DATA_DIR=str(tmp_path / "data"))
    assert found["installed"] is False
    assert found["resources"] == str(ROOT)
    assert found["templates"] == [str(ROOT / "templates")] and found["locale"] == [str(ROOT / "locale")]
    assert found["static"] == [str(ROOT / "static")]
    assert found["static_root"] == str(ROOT / "staticfiles") and found["backups"] == str(ROOT / "backups")
    assert found["debug"] is False


def test_the_printouts_read_their_fonts_from_the_static_sources_the_settings_name(settings, tmp_path):
    from documents.pdf import static_dir

    settings.STATICFILES_DIRS = [tmp_path]
    assert static_dir() == tmp_path


# --- the console command -----------------------------------------------------------------------------------------


def parsed(*argv: str):
    head, rest = split_manage(list(argv))
    return build_parser().parse_args(head), rest


def test_the_bare_command_serves_on_loopback_and_opens_the_browser():
    options, rest = parsed()
    assert options.command is None and rest == []
    assert serve_arguments(options) == ["serve", "--port", "8000", "--setup-in-browser", "--open-browser"]


def test_serve_options_become_the_serve_commands():
    options, _ = parsed("serve", "--port", "8080", "--hall", "--no-browser", "--no-demo", "--data-dir", "x")
    assert serve_arguments(options) == ["serve", "--port", "8080", "--setup-in-browser", "--hall", "--no-demo"]
    assert options.data_dir == Path("x")
    options, _ = parsed("--data-dir", "y", "serve", "--host", "0.0.0.0")
    assert options.data_dir == Path("y")  # before the command too
    assert serve_arguments(options)[-3:] == ["--host", "0.0.0.0", "--open-browser"]


def test_manage_passes_everything_after_it_to_django():
    options, rest = parsed("--data-dir", "d", "manage", "changepassword", "--help", "director")
    assert options.command == "manage" and options.data_dir == Path("d")
    assert rest == ["changepassword", "--help", "director"]


def test_bad_arguments_and_the_version(capsys):
    with pytest.raises(SystemExit) as ended:
        parsed("serve", "--port", "eight")
    assert ended.value.code == 2 and "invalid int value" in capsys.readouterr().err
    with pytest.raises(SystemExit) as ended:
        parsed("--version")
    assert ended.value.code == 0 and capsys.readouterr().out.strip() == f"tournament-manager {__version__}"
    assert re.fullmatch(r"\d+\.\d+.*", __version__)


def test_the_console_command_runs_manage_commands_in_the_data_folder_given(tmp_path):
    result = subprocess.run([sys.executable, "-m", "tournament_manager", "--data-dir", str(tmp_path / "d"), "manage",
                             "shell", "-v0", "-c", "from django.conf import settings; print(settings.DATA_DIR)"],
                            cwd=ROOT, env=clean_environment(), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "d")


# --- where it listens -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("given, hall, expected", [
    (None, False, "127.0.0.1"), ("127.0.0.1", False, "127.0.0.1"), ("::1", False, "::1"),
    ("0.0.0.0", False, "127.0.0.1"),  # the hall switched off from the app: back to loopback
    (None, True, "0.0.0.0"), ("127.0.0.1", True, "0.0.0.0"),  # `make run` after the app's switch
    ("192.168.1.20", True, "192.168.1.20"),
])
def test_where_the_server_listens(given, hall, expected):
    assert listen_host(given, hall=hall) == expected


def test_this_computer_opens_a_server_on_every_address_by_loopback():
    assert local_url("0.0.0.0", 8000) == "http://127.0.0.1:8000"
    assert local_url("::", 8000) == "http://[::1]:8000"
    assert local_url("10.0.0.2", 81) == "http://10.0.0.2:81"


# --- the hall choice ------------------------------------------------------------------------------------------------


def test_the_hall_choice_is_kept_in_the_data_folder(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    assert serving.hall_wanted() is False  # no choice yet: loopback
    serving.set_hall(True)
    assert serving.hall_wanted() is True
    assert (tmp_path / "hall.json").read_text() == '{"hall": true}'
    serving.set_hall(False)
    assert serving.hall_wanted() is False
    assert [path.name for path in tmp_path.iterdir()] == ["hall.json"]  # no draft left
    for broken in ("{", '{"hall": "yes"}', "[]"):
        (tmp_path / "hall.json").write_text(broken)
        assert serving.hall_wanted() is False


# --- the serving child: a restart asked by a view ------------------------------------------------------------------


def test_a_restart_answers_the_request_under_way_then_ends_with_the_restart_code():
    """The view that asks for the restart gets its whole answer, the server then stops accepting and `serve` returns
    3. Run in this (the main) thread, as in the serving child; the client is a thread."""
    slow_started, answered = threading.Event(), threading.Event()

    def application(environ, start_response):
        if environ["PATH_INFO"] == "/restart/":
            assert serving.request_restart() is True
            body = b"restarting"
        elif environ["PATH_INFO"] == "/script.js":
            body = b"/* the waiting page's script */"
        else:  # /slow/: still working when the restart is asked, and after the restart's answer
            slow_started.set()
            answered.wait(10)
            body = b"x" * 100_000
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]

    sock = serving.listening_socket("127.0.0.1", 0)
    sock.listen()  # the client may connect before waitress listens
    port = sock.getsockname()[1]
    results = {}

    def client():
        try:
            slow = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            slow.request("GET", "/slow/")  # under way when the restart is asked
            assert slow_started.wait(10)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/restart/")
            response = connection.getresponse()
            results["restart"] = (response.status, response.read())
            # what the "Restarting…" page loads next (its script) is still answered: the server settles first
            late = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            late.request("GET", "/script.js")
            results["late"] = late.getresponse().status
            answered.set()
            response = slow.getresponse()
            results["slow"] = (response.status, len(response.read()))
        except Exception as error:  # noqa: BLE001 (reported by the assertion below)
            results["error"] = error
            answered.set()
            signal.raise_signal(signal.SIGTERM)  # ends `serve` (its handler) instead of leaving it waiting

    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    thread = threading.Thread(target=client)
    thread.start()
    try:
        code = serving.serve(application, sock, threads=2, grace=20)
    finally:
        thread.join(10)
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers  # given back
    assert "error" not in results, results
    assert code == serving.RESTART_EXIT_CODE
    assert results["restart"] == (200, b"restarting")
    assert results["slow"] == (200, 100_000)
    assert results["late"] == 200
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # no longer accepting
    assert serving.request_restart() is False  # outside a serving child nothing happens


def test_a_new_phone_is_answered_while_150_others_keep_their_connections_open():
    """A hall's phones and viewers keep their connections alive between requests. waitress stops accepting at its
    connection limit (100 by default): the 101st phone's page waited until an idle connection was closed."""
    def application(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
        return [b"ok"]

    sock = serving.listening_socket("127.0.0.1", 0)
    sock.listen()
    port = sock.getsockname()[1]
    results, kept = {}, []

    def client():
        try:
            for _ in range(150):  # connected, each asked once and kept alive, as a phone's browser keeps it
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("GET", "/")
                connection.getresponse().read()
                kept.append(connection)
            late = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            late.request("GET", "/")
            results["late"] = late.getresponse().status
        except Exception as error:  # noqa: BLE001 (reported by the assertion below)
            results["error"] = error
        finally:
            signal.raise_signal(signal.SIGTERM)  # ends `serve` (its handler)

    thread = threading.Thread(target=client)
    thread.start()
    try:
        assert serving.serve(application, sock, threads=2) == 0
    finally:
        thread.join(20)
        for connection in kept:
            connection.close()
    assert results == {"late": 200}


def test_a_busy_port_is_said_in_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(serving.PortInUse, match=rf"^Port {port} is already in use .* --port {port + 1}\.$"):
            serving.check_port_free("127.0.0.1", port)


# --- the supervisor -------------------------------------------------------------------------------------------------


def test_the_supervisor_starts_the_child_again_while_it_asks_for_a_restart(tmp_path):
    """A child that exits 3 is started again (its command made anew: the hall choice read again); any other exit
    code ends the supervisor with it."""
    counter = tmp_path / "starts"
    child = ("import pathlib, sys; p = pathlib.Path(sys.argv[1]); n = int(p.read_text() or 0) + 1 if p.exists() "
             "else 1; p.write_text(str(n)); sys.exit(3 if n < 3 else 7)")
    commands, starts = [], []

    def command(restarted):
        commands.append(restarted)
        return [sys.executable, "-c", child, str(counter)], clean_environment()

    supervisor = serving.Supervisor(command, started=lambda process, restarted: starts.append(restarted))
    assert supervisor.run() == 7
    assert commands == [False, True, True] and starts == [False, True, True]
    assert counter.read_text() == "3"


# --- end to end: the console command on a laptop ------------------------------------------------------------------


class Running(ServerOutput):
    """`python -m tournament_manager serve …` with its output read line by line."""

    def __init__(self, *arguments: str, env: dict[str, str]):
        super().__init__(subprocess.Popen([sys.executable, "-m", "tournament_manager", "serve", *arguments], cwd=ROOT,
                                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))

    def stop(self, how: int = signal.SIGINT) -> int:
        """Ctrl-C (SIGINT), or SIGTERM (`terminate()`, a service manager's stop), to the supervisor alone."""
        if self.process.poll() is None:
            self.process.send_signal(how)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"the server did not stop on signal {how}")


def get(port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def assert_no_debug_page(port: int) -> None:
    status, page = get(port, "/no-such-page/")
    assert status == 404
    assert "URLconf" not in page and "Django tried these URL patterns" not in page and "DEBUG = True" not in page


def test_the_console_command_serves_an_empty_data_folder_in_production_settings_and_stops_on_ctrl_c(tmp_path):
    port, data = free_port(), tmp_path / "data"
    server = Running("--port", str(port), "--no-browser", "--data-dir", str(data),
                     env=clean_environment(STATIC_ROOT=str(tmp_path / "static")))
    try:
        server.wait_for(rf"^Ready: http://127\.0\.0\.1:{port}/setup/$")  # no account yet: the set-up page
        assert_no_debug_page(port)
        assert get(port, "/setup/")[0] == 200
        assert get(port, "/accounts/login/")[0] == 302  # to the set-up page while no account exists
        assert (data / "db.sqlite3").exists() and (data / "secret_key").exists()
        assert not any("password:" in line for line in server.output)  # chosen in the browser, not printed
    finally:
        code = server.stop()
    assert code == 0
    assert not [line for line in server.output if "Traceback" in line], server.output
    serving.check_port_free("127.0.0.1", port)  # the serving child ended with it


def test_a_second_server_on_the_same_port_says_so_in_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "tournament_manager", "serve", "--port", str(port),
                                 "--no-browser", "--data-dir", str(tmp_path)], cwd=ROOT, env=clean_environment(),
                                capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and f"Port {port} is already in use" in lines[0], result.stderr


def test_the_hall_without_ip_on_the_path_announces_an_address_and_serves(tmp_path):
    """The Windows and macOS path: no iproute2. The address printed is one this computer has (or, off any network,
    the message that says so); the hall's settings keep DEBUG off whatever the environment says."""
    from config.network import local_addresses

    path = os.pathsep.join(folder for folder in os.environ.get("PATH", "").split(os.pathsep)
                           if folder and not Path(folder, "ip").exists())
    env = clean_environment(PATH=path, DEBUG="1", STATIC_ROOT=str(tmp_path / "static"))
    assert shutil.which("ip", path=path) is None
    port = free_port()
    server = Running("--port", str(port), "--hall", "--no-browser", "--data-dir", str(tmp_path / "data"), env=env)
    try:
        announced = server.wait_for(r"Open (http://\S+) on the other laptops|No network address found")
        addresses = local_addresses()
        if addresses:
            assert announced.group(1) in {f"http://{a if ':' not in a else f'[{a}]'}:{port}" for a in addresses}
        server.wait_for(rf"^Serving on http://0\.0\.0\.0:{port} ")
        server.wait_for(rf"^Ready: http://127\.0\.0\.1:{port}/")
        assert_no_debug_page(port)
    finally:
        assert server.stop(signal.SIGTERM) == 0
    serving.check_port_free("0.0.0.0", port)  # the serving child ended with it


def test_the_serve_command_prints_the_hall_address_from_public_base_url(settings):
    from tournament.management.commands.serve import Command

    settings.PUBLIC_BASE_URL = "http://turnier.lan:8000/"
    out = io.StringIO()
    assert Command(stdout=out).announce("0.0.0.0", 8000) == "http://turnier.lan:8000"
    assert "Open http://turnier.lan:8000 on the other laptops and phones." in out.getvalue()


@pytest.mark.django_db
def test_installed_the_lost_password_hint_names_the_console_command(settings, capsys):
    from django.core.management import call_command

    settings.INSTALLED = True
    call_command("bootstrap", "--no-demo")
    assert "Lost it? tournament-manager manage changepassword director" in capsys.readouterr().out
