"""Real-browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium), never a downloaded browser."""

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]


_started: dict = {}


@pytest.fixture(scope="session")
def browser(request):
    """One Chromium for the whole session, even when other conftests import this fixture too
    (a second sync Playwright inside the first one's event loop would fail)."""
    from playwright.sync_api import sync_playwright

    if "browser" not in _started:
        if not Path(CHROMIUM).exists():
            pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test`, which installs Debian's chromium.")
        playwright = sync_playwright().start()
        _started["browser"] = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)

        def stop():
            _started.pop("browser").close()
            playwright.stop()

        request.session.config.add_cleanup(stop)
    return _started["browser"]


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
