"""The hall in a real browser: the server `HOST=0.0.0.0 make run` starts (`manage.py serve --host 0.0.0.0`),
reached over a network address, as the other laptops and the phones reach it.

The test makes its own network: a network namespace joined to this one by a veth pair, with addresses from
198.18.0.0/15 (reserved for network tests). The server runs inside the namespace, where that address is its only
network address; the browser, outside, opens the address the server printed. No traffic goes anywhere but to the
namespace the test made. Without root or iproute2 the test is skipped, saying why.
"""

import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT, ARTIFACTS
from tests.browser.helpers import keep_screenshot
from tests.server_output import ServerOutput

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.browser]

#: the settings the server must not inherit from the test's environment
FOREIGN = ("DATABASE_URL", "SQLITE_PATH", "SECRET_KEY", "DEBUG", "HALL", "ALLOWED_HOSTS", "PUBLIC_BASE_URL",
           "DJANGO_ALLOW_ASYNC_UNSAFE", "STATIC_ROOT", "DATA_DIR", "BACKUP_DIR", "PUBLIC_CACHE_DIR", "REDIS_URL")


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


def free_subnet(tag: int) -> str:
    """A 198.18.N subnet no interface or route of this machine uses yet. A namespace left behind by an earlier,
    killed run keeps its veth and route; a second /30 of the same numbers would send the browser there (nothing
    listens: connection refused)."""
    used = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True).stdout
    used += subprocess.run(["ip", "-4", "route", "show"], capture_output=True, text=True).stdout
    taken = {int(n) for n in re.findall(r"198\.18\.(\d+)\.", used)}
    for step in range(250):
        number = (tag + step) % 250 + 1
        if number not in taken:
            return f"198.18.{number}"
    pytest.skip("every 198.18.N subnet of this machine is in use")


def wait_until_reachable(server: "Server", address: str, port: int, timeout: float = 60) -> None:
    """Connect from outside the namespace until the server accepts, as a phone would; fail with its output."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((address, port), timeout=5):
                return
        except OSError as error:
            if server.process.poll() is not None or time.monotonic() > deadline:
                routes = subprocess.run(["ip", "-4", "route", "show"], capture_output=True, text=True).stdout
                pytest.fail(f"{address}:{port} not reachable ({error}); server exit code {server.process.poll()};"
                            f" routes:\n{routes}\nserver output:\n" + "\n".join(server.output))
            time.sleep(0.2)


@pytest.fixture
def hall_network():
    """(namespace, its address): a network namespace of the test's own, reachable from here over a veth pair."""
    if os.geteuid() != 0:
        pytest.skip("creating a network namespace needs root")
    if shutil.which("ip") is None:
        pytest.skip("creating a network namespace needs iproute2 (`ip`)")
    tag = os.getpid() % 100_000
    namespace, outside, inside = f"tmhall{tag}", f"tmh{tag}a", f"tmh{tag}b"
    subnet = free_subnet(tag)

    def remove():
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        subprocess.run(["ip", "link", "del", outside], capture_output=True)

    remove()
    try:
        ip("netns", "add", namespace)
        ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        ip("link", "set", inside, "netns", namespace)
        ip("addr", "add", f"{subnet}.1/30", "dev", outside)
        ip("link", "set", outside, "up")
        ip("-n", namespace, "addr", "add", f"{subnet}.2/30", "dev", inside)
        ip("-n", namespace, "link", "set", inside, "up")
        ip("-n", namespace, "link", "set", "lo", "up")
    except subprocess.CalledProcessError as error:
        remove()
        pytest.skip(f"this environment cannot create a network namespace: {error.stderr.strip()}")
    yield namespace, f"{subnet}.2"
    remove()


class Server(ServerOutput):
    """`manage.py serve --host 0.0.0.0` inside the namespace, its output read line by line."""

    def __init__(self, namespace: str, folder: Path):
        env = {name: value for name, value in os.environ.items() if name not in FOREIGN}
        env.update(DATA_DIR=str(folder / "data"), STATIC_ROOT=str(folder / "static"),
                   BACKUP_DIR=str(folder / "backups"), PYTHONUNBUFFERED="1")
        super().__init__(subprocess.Popen(
            ["ip", "netns", "exec", namespace, sys.executable, "manage.py", "serve", "--host", "0.0.0.0",
             "--port", "8000", "--no-demo", "--threads", "4"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))

    def stop(self):
        self.process.terminate()  # serve's supervisor (`ip netns exec` became it): it stops its serving child
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def hall_server(hall_network, tmp_path):
    namespace, address = hall_network
    server = Server(namespace, tmp_path)
    yield server, address, tmp_path
    server.stop()


WATCH_CSP = """document.addEventListener('securitypolicyviolation',
  e => (window.cspViolations = window.cspViolations || []).push(e.violatedDirective + ' ' + e.blockedURI));"""


def test_the_hall_reaches_the_laptop_over_its_network_address(browser, hall_server):
    server, address, folder = hall_server
    password = server.wait_for(r"^\s*password:\s+(\S+)").group(1)
    url = server.wait_for(r"Open (http://\S+) on the other laptops and phones").group(1)
    assert url == f"http://{address}:8000"  # the printed address is the namespace's network address
    server.wait_for(r"Serving on http://0\.0\.0\.0:8000 \(waitress")
    wait_until_reachable(server, address, 8000)
    assert stat.S_IMODE((folder / "data" / "secret_key").stat().st_mode) == 0o600

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB", is_mobile=True)
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    console = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    failed = []
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))
    try:
        # a page loads, in production settings
        response = page.goto(url + "/")
        assert response.status == 200
        assert "script-src 'self';" in response.headers["content-security-policy"] + ";"
        body = page.content()
        assert "DisallowedHost" not in body and "Traceback" not in body

        # its style sheet is served (whitenoise, hashed name, compressed) and applied
        href = page.locator("link[rel=stylesheet]").first.get_attribute("href")
        assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", href), href
        css = page.request.get(url + href, headers={"Accept-Encoding": "gzip"})
        assert css.status == 200 and css.headers["content-type"].startswith("text/css")
        assert "max-age" in css.headers.get("cache-control", "")
        rules = page.evaluate("() => [...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0)")
        assert rules > 20

        # DEBUG is off: no debug page for an unknown address, nor for a host that is not allowed
        missing = page.goto(url + "/no-such-page/")
        assert missing.status == 404
        assert "URLconf" not in page.content() and "Django tried these URL patterns" not in page.content()
        foreign = page.request.get(url + "/", headers={"Host": "attacker.example"})
        assert foreign.status == 400
        assert "DisallowedHost" not in foreign.text() and "ALLOWED_HOSTS" not in foreign.text()

        # the director logs in from the other machine (CSRF over plain HTTP on the hall's network)
        page.goto(url + "/accounts/login/")
        page.locator("#id_username").fill("director")
        page.locator("#id_password").fill(password)
        page.locator("#id_password").press("Enter")
        expect(page.get_by_role("button", name="Log out director")).to_be_visible()
        session = next(c for c in context.cookies() if c["name"] == "sessionid")
        assert session["expires"] == -1  # ends with the browser
        assert page.goto(url + "/manage/new/").status == 200
        assert page.locator("form").count() >= 1
        keep_screenshot(page, ARTIFACTS / "hall-over-the-network-director.png", full_page=True)
        assert page.goto(url + "/admin/").status == 200  # the admin's own scripts and styles, under the same policy
        expect(page.locator("#site-name")).to_be_visible()

        keep_screenshot(page, ARTIFACTS / "hall-over-the-network.png", full_page=True)
        assert page.evaluate("() => window.cspViolations || []") == []
        assert not [line for line in console if "Content Security Policy" in line or line.startswith("error")
                    and "Failed to load resource" not in line], console
        # nothing failed to load but the page asked for on purpose (and the browser's own favicon.ico)
        assert {u.removeprefix(url) for u in failed} <= {"/no-such-page/", "/favicon.ico"}, failed
    finally:
        context.close()
