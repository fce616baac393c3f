"""The install proof (issue 23): the sdist and the wheel are built as a user's `python -m build` builds them, the wheel
is installed into a fresh virtual environment outside the checkout, and the console command serves the app from
there with an empty data folder: first-start set-up over HTTP, login, a score-list PDF and an Excel file of a demo
tournament, a stop and a second start with the same password.

Marked `install`: it needs the package index (pip's cache makes a second run quick) and a minute or two; `make test`
runs it, the PostgreSQL run of .ci/run leaves it out (the installed app runs on its own SQLite). The build and the
venv are made once per run, under a lock: with pytest-xdist the tests here may land on two workers, which then
share them instead of building twice at once.
"""

import fcntl
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, Request, build_opener

import polib
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from hatch_build import runtime_requirements

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"config", "tournament", "scoring", "documents", "tournament_manager"}

pytestmark = pytest.mark.install

#: parts of the proof that need another branch of issue 23; each runs by itself once that is merged
AWAITS_CLI = pytest.mark.skipif(not (ROOT / "tournament_manager" / "cli.py").exists(),
                                reason="awaits app-runtime's tournament_manager/cli.py (the console command)")


def awaits_setup_page():
    from django.urls import NoReverseMatch, reverse

    try:
        reverse("setup")
    except NoReverseMatch:
        pytest.skip("awaits app-firststart's first-start set-up page (/setup/, URL name 'setup')")


@dataclass
class Installation:
    sdist: Path
    wheel: Path  # built from the sdist, as `python -m build` does
    tree_wheel: Path  # built straight from the checkout
    venv: Path
    home: Path  # HOME of the installed app's processes: nothing lands in the real user's folders

    def bin(self, name: str) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin") / name

    def environment(self) -> dict:
        """A user's environment: none of the test run's settings (DATA_DIR, DJANGO_SETTINGS_MODULE, ...)."""
        keep = {"PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"}
        environment = {key: value for key, value in os.environ.items() if key in keep}
        return {**environment, "HOME": str(self.home), "PYTHONDONTWRITEBYTECODE": "1"}

    def run(self, *command, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run(command, cwd=cwd, env=self.environment(), capture_output=True, text=True,
                              timeout=600, **kwargs)


def run(*command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, command))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def build_and_install(folder: Path) -> dict:
    """Builds the sdist and from it the wheel (isolated, as a user builds), a wheel straight from the checkout, and
    installs the wheel into a new venv: {what: path}."""
    dist, tree = folder / "dist", folder / "tree"
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    run(sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT), env=environment)
    # from the checkout with the build backend installed here (the same pinned hatchling and polib)
    run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tree), str(ROOT), env=environment)
    venv = folder / "venv"
    run(sys.executable, "-m", "venv", str(venv))
    (wheel,) = dist.glob("*.whl")
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    run(str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel), cwd=folder)
    (sdist,) = dist.glob("*.tar.gz")
    (tree_wheel,) = tree.glob("*.whl")
    return {"sdist": str(sdist), "wheel": str(wheel), "tree_wheel": str(tree_wheel), "venv": str(venv)}


@pytest.fixture(scope="session")
def installation(tmp_path_factory) -> Installation:
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    folder = shared / "install"
    with open(shared / "install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        outcome = folder / "outcome.json"
        if not outcome.exists():
            folder.mkdir(exist_ok=True)
            try:
                made = build_and_install(folder)
            except BaseException as error:  # the other worker reports the same failure instead of trying again
                outcome.write_text(json.dumps({"error": str(error)}))
                raise
            outcome.write_text(json.dumps(made))
        made = json.loads(outcome.read_text())
    if "error" in made:
        pytest.fail(f"building or installing failed on another worker:\n{made['error']}")
    home = tmp_path_factory.mktemp("home")
    return Installation(home=home, **{key: Path(value) for key, value in made.items()})


def test_the_wheel_built_from_the_sdist_holds_what_the_checkout_builds(installation):
    """`python -m build` builds the wheel from the sdist: the sdist must carry everything the wheel is made of."""
    with zipfile.ZipFile(installation.wheel) as from_sdist, zipfile.ZipFile(installation.tree_wheel) as from_tree:
        names = sorted(name for name in from_sdist.namelist() if not name.endswith(".dist-info/RECORD"))
        assert names == sorted(name for name in from_tree.namelist() if not name.endswith(".dist-info/RECORD"))
        differing = [name for name in names if from_sdist.read(name) != from_tree.read(name)]
        assert differing == []


def test_the_wheel_holds_the_packages_and_their_files_and_nothing_else(installation):
    with zipfile.ZipFile(installation.wheel) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(next(name for name in names if name.endswith(".dist-info/METADATA"))).decode()
        entry_points = wheel.read(next(name for name in names if name.endswith(".dist-info/entry_points.txt")))
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == PACKAGES  # no manage.py, tests, bench, tools, docs, locale/ or templates/ beside the packages
    for needed in ["tournament_manager/templates/base.html", "tournament_manager/static/fonts/DejaVuSans.ttf",
                   "tournament_manager/static/print/print.css", "tournament_manager/locale/de/LC_MESSAGES/django.mo",
                   "tournament_manager/locale/da/LC_MESSAGES/django.mo", "tournament/migrations/0001_initial.py",
                   "scoring/migrations/0001_initial.py", "config/formats/en/formats.py"]:
        assert needed in names
    assert not [name for name in names if name.endswith((".po", ".pyc"))]
    for folder in ("templates", "static"):  # every file of the checkout's folder, in the package
        files = {f"tournament_manager/{path.relative_to(ROOT).as_posix()}" for path in (ROOT / folder).rglob("*")
                 if path.is_file()}
        assert {name for name in names if name.startswith(f"tournament_manager/{folder}/")} == files
    assert b"tournament-manager = tournament_manager.cli:main" in entry_points
    # the pins of requirements.txt, gunicorn, psycopg and redis in the extra `server` only
    base, optional = runtime_requirements(ROOT, {"server": ["gunicorn", "psycopg", "redis"]})
    expected = base + [f'{line}; extra == "server"' for line in optional["server"]]
    assert {comparable(line) for line in re.findall(r"^Requires-Dist: (.+)$", metadata, re.MULTILINE)} == {
        comparable(line) for line in expected}


def comparable(line: str) -> tuple:
    requirement = Requirement(line)
    return (canonicalize_name(requirement.name), str(requirement.specifier), tuple(sorted(requirement.extras)),
            str(requirement.marker))


def test_the_installed_package_carries_its_files_outside_the_checkout(installation, tmp_path):
    """Imported from the venv in another folder, the packages come from the venv, not from this checkout, and the
    installed catalogues translate."""
    probe = ("import json, tournament_manager, tournament, scoring, documents, config; "
             "print(json.dumps({m.__name__: m.__file__ for m in (tournament_manager, tournament, scoring, "
             "documents, config)}))")
    done = installation.run(str(installation.bin("python")), "-c", probe, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    files = {name: Path(path) for name, path in json.loads(done.stdout).items()}
    assert all(installation.venv in path.parents for path in files.values()), files
    package = files["tournament_manager"].parent
    for needed in ["templates/base.html", "static/fonts/DejaVuSans.ttf", "static/fonts/DejaVuSans-Bold.ttf",
                   "locale/de/LC_MESSAGES/django.mo"]:
        assert (package / needed).is_file(), needed
    assert (files["tournament"].parent / "migrations" / "0001_initial.py").is_file()
    script = installation.bin("tournament-manager")  # the console command, calling the entry point
    assert script.is_file() and "from tournament_manager.cli import main" in script.read_text()
    entry = next(entry for entry in polib.pofile(str(ROOT / "locale" / "da" / "LC_MESSAGES" / "django.po"))
                 if entry.translated() and not entry.msgctxt and not entry.msgid_plural and entry.msgid)
    probe = ("import gettext, sys; print(gettext.translation('django', sys.argv[1], ['da']).gettext(sys.argv[2]))")
    done = installation.run(str(installation.bin("python")), "-c", probe, str(package / "locale"), entry.msgid,
                            cwd=tmp_path)
    assert done.stdout.rstrip("\n") == entry.msgstr


@AWAITS_CLI
def test_the_console_command_answers_outside_the_checkout(installation, tmp_path):
    version = installation.run(str(installation.bin("tournament-manager")), "--version", cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert "0.1.0" in version.stdout
    usage = installation.run(str(installation.bin("tournament-manager")), "--help", cwd=tmp_path)
    assert usage.returncode == 0 and "serve" in usage.stdout


# --- the app served by the installed command -----------------------------------------------------------------------

class NoRedirects(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer to look at


class Browser:
    """A user's browser on the laptop: cookies, forms with their CSRF token, no JavaScript."""

    def __init__(self, base: str):
        self.base = base
        self.opener = build_opener(HTTPCookieProcessor(CookieJar()), NoRedirects())

    def request(self, path: str, data: dict | None = None) -> tuple[int, dict, bytes]:
        body = urlencode(data).encode() if data is not None else None
        try:
            with self.opener.open(Request(self.base + path, data=body), timeout=600) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except HTTPError as answer:  # 3xx (not followed) and 4xx/5xx
            return answer.code, dict(answer.headers), answer.read()

    def get(self, path: str) -> tuple[int, dict, bytes]:
        return self.request(path)

    def submit(self, path: str, fields: dict) -> tuple[int, dict, bytes]:
        """Opens the form at `path` and sends it with `fields` and the page's CSRF token."""
        status, _headers, page = self.get(path)
        assert status == 200, (path, status, page[:500])
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, f"no CSRF token in the form at {path}"
        return self.request(path, {"csrfmiddlewaretoken": token.group(1).decode(), **fields})

    def log_in(self, username: str, password: str) -> None:
        status, headers, _ = self.submit("/accounts/login/", {"username": username, "password": password})
        assert status == 302 and headers["Location"].startswith("/manage/"), (status, headers)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`tournament-manager serve` started as a user starts it, from a folder of its own."""

    def __init__(self, installation: Installation, port: int, data: Path, cwd: Path, log: Path):
        self.log = log
        self.process = subprocess.Popen(
            [str(installation.bin("tournament-manager")), "serve", "--port", str(port), "--no-browser",
             "--data-dir", str(data)],
            cwd=cwd, env=installation.environment(), stdout=log.open("ab"), stderr=subprocess.STDOUT,
            start_new_session=True)
        self.port = port

    def wait_until_serving(self, limit: float = 300) -> None:
        """First start migrates and collects the static files before it serves: waits for the port to answer (or
        the process to end), checking twice a second."""
        for _ in range(int(limit * 2)):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                pass
            try:
                code = self.process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                continue
            pytest.fail(f"the server ended with code {code} before serving:\n{self.log.read_text()[-4000:]}")
        pytest.fail(f"the server did not answer in {limit} s:\n{self.log.read_text()[-4000:]}")

    def stop(self) -> None:
        """As a director stops it (Ctrl+C in its terminal), then makes sure nothing of it is left."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
                pytest.fail(f"the server did not stop on Ctrl+C:\n{self.log.read_text()[-4000:]}")


@pytest.fixture
def serve(installation, tmp_path):
    started = []

    def start(port: int, data: Path) -> Server:
        server = Server(installation, port, data, cwd=tmp_path, log=tmp_path / "server.log")
        started.append(server)
        server.wait_until_serving()
        return server

    yield start
    for server in started:
        if server.process.poll() is None:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait()


def check_pdf(data: bytes) -> int:
    from pypdf import PdfReader

    assert data.startswith(b"%PDF")
    pages = len(PdfReader(io.BytesIO(data)).pages)
    assert pages > 0
    return pages


def check_excel(data: bytes) -> None:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data))
    rows = [row for sheet in book.worksheets for row in sheet.iter_rows(values_only=True) if any(row)]
    assert len(rows) > 1  # a heading and at least one participant


def demo_printouts(browser: Browser) -> list[str]:
    """The printout links of the Schafkopf demo (it has score lists), found as a director finds them."""
    status, _headers, page = browser.get("/manage/")
    assert status == 200
    for slug in sorted(set(re.findall(r'href="/manage/([^"/]+)/"', page.decode()))):
        status, _headers, printouts = browser.get(f"/manage/{slug}/schafkopf/printouts/")
        if status == 200:
            return re.findall(r'href="([^"]+\.(?:pdf|xlsx))"', printouts.decode())
    pytest.fail("no Schafkopf demo tournament among the director's tournaments")


@AWAITS_CLI
def test_first_start_set_up_printouts_and_a_second_start(installation, serve, tmp_path):
    awaits_setup_page()
    data, port = tmp_path / "data", free_port()
    data.mkdir()  # empty: the very first start
    password = "Hall-of-Fame-2026"
    server = serve(port, data)
    browser = Browser(f"http://127.0.0.1:{port}")

    # no account yet: the one-time set-up page chooses the director and the password, with the demo tournaments
    status, headers, _ = browser.submit("/setup/", {"username": "anna", "password1": password,
                                                    "password2": password, "demo": "on"})
    assert status in (302, 303), (status, headers)
    assert browser.get("/setup/")[0] in (302, 403, 404)  # once an account exists, never again

    director = Browser(browser.base)
    director.log_in("anna", password)
    links = demo_printouts(director)
    score_lists = next(link for link in links if re.search(r"/score-lists-\d+\.pdf$", link))
    status, headers, pdf = director.get(score_lists)
    assert status == 200 and headers["Content-Type"] == "application/pdf"
    check_pdf(pdf)
    excel = next(link for link in links if link.endswith(".xlsx"))
    status, headers, xlsx = director.get(excel)
    assert status == 200 and "spreadsheetml" in headers["Content-Type"]
    check_excel(xlsx)
    assert (data / "db.sqlite3").is_file()  # the data folder given, not the checkout or the user's folders

    server.stop()
    assert server.process.returncode is not None
    serve(port, data)  # the same port again: nothing of the first server is left holding it
    again = Browser(browser.base)
    again.log_in("anna", password)
    assert again.get("/setup/")[0] in (302, 403, 404)
