"""The API's reference page in a real browser: Swagger UI from the package's own files, under the site's
Content-Security-Policy, with nothing asked of another host (the hall may have no network)."""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from scoring.games.schafkopf.demo import create_demo as schafkopf_demo
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot
from tournament.services.publishing import set_publication

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_reference_page_works_offline_and_tries_a_call(live_server, page, director):
    tournament = schafkopf_demo(director, seed=1, results=True, players=16)
    set_publication(tournament, by=director, kinds=["standings"])
    hosts, problems = set(), []
    page.on("request", lambda request: hosts.add(urlsplit(request.url).netloc))
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.goto(f"{live_server.url}/api/v1/docs")
    expect(page.locator(".swagger-ui .title")).to_contain_text("Tournament manager")
    standings = page.locator(".opblock-summary-path", has_text="/api/v1/tournaments/{slug}/standings")
    expect(standings).to_be_visible()
    keep_screenshot(page, ARTIFACTS / "api-docs.png", full_page=True)
    # the schema it shows is ours, and a call from the page works (Try it out, the slug, Execute)
    standings.click()
    page.get_by_role("button", name="Try it out").click()
    page.get_by_placeholder("slug").fill(tournament.slug)
    page.get_by_role("button", name="Execute").click()
    answer = page.locator(".live-responses-table tbody .response")
    expect(answer.locator(".response-col_status")).to_contain_text("200")
    expect(answer).to_contain_text('"rank": 1')
    keep_screenshot(page, ARTIFACTS / "api-docs-tried.png", full_page=True)
    assert hosts == {urlsplit(live_server.url).netloc}, hosts
    assert not problems, problems
