"""The links page of a round with seats' links (two agreeing reports count), in Chromium at a laptop's 1366 pixels
and a phone's 390 (no live server: the page and its static files are served to the browser from the test client and
the static folders): each row's place, "1 · seat 1", stays on one line (issue 27: it wrapped after "1 ·"), and on
the phone the table scrolls in its own region, not the page."""

import pytest
from django.urls import reverse

from scoring.results.links import issue_links
from tests.browser.conftest import ARTIFACTS, browser  # noqa: F401
from tests.browser.helpers import keep_screenshot, served_page
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

#: the number of lines the place of each row takes: its text's boxes whose tops lie a line apart (a bold number's
#: box starts a pixel or two higher than the words beside it)
PLACE_LINES = """() => [...document.querySelectorAll('table.tl-links tbody tr td:first-child')].map(cell => {
  const range = document.createRange(); range.selectNodeContents(cell);
  const tops = [...range.getClientRects()].map(box => box.top).sort((a, b) => a - b);
  return tops.filter((top, i) => i === 0 || top - tops[i - 1] > 8).length; })"""


@pytest.mark.parametrize("width", [1366, 390])
def test_each_seats_place_stays_on_one_line(drawn, director, client, browser, width):  # noqa: F811
    drawn.agreeing_reports_count = True
    drawn.save()
    issue_links(Round.objects.get(stage__tournament=drawn, number=1), by=director)
    client.force_login(director)
    page_url = reverse("tournament:tablegames:links", args=[drawn.slug, 1])
    html = client.get(page_url).content.decode()
    assert 'id="table-1-seat-1"' in html

    with served_page(browser, page_url, html, width=width, height=900) as page:
        lines = page.evaluate(PLACE_LINES)
        page_width = page.evaluate("document.documentElement.scrollWidth")
        keep_screenshot(page, ARTIFACTS / f"links-seats-{width}.png", full_page=True)
    assert len(lines) == 12 and set(lines) == {1}, lines  # three tables of four seats
    assert page_width <= width + 1  # the page does not scroll sideways: the table scrolls in its own region
