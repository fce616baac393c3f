"""After the draw the director opens the printouts by keyboard, presses a long printout's button, sees the job wait,
then its progress, then the download (issue 27). The print worker runs in a thread as `manage.py serve` runs it;
its second batch waits for the test (an event, not the clock), so that the progress in between is seen for sure.
Screenshots (SCREENSHOTS=1) land in test-artifacts/print-job-*.png."""

import threading

import pytest
from playwright.sync_api import expect

from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS, browser  # noqa: F401  (real-browser fixtures)
from tests.browser.helpers import keep_screenshot, login_by_keyboard, page_of, tab_to
from tests.pdf_text import page_texts
from tournament import printjobs
from tournament.services.participants import add_participant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def job_page(browser):  # noqa: F811
    with page_of(browser, width=1280, height=800, accept_downloads=True) as page:
        yield page


def shot(page, name: str) -> None:
    keep_screenshot(page, ARTIFACTS / f"print-job-{name}.png", full_page=True)


def test_the_director_sees_a_long_printout_progress_and_downloads_it(live_server, job_page, director,
                                                                     make_tournament, monkeypatch, settings):
    settings.PRINT_JOB_WAIT_SECONDS = 3600  # a busy machine's slow steps never make it "no worker"
    monkeypatch.setattr(printjobs, "JOB_MIN_PAGES", 4)  # four score lists are "long" here
    monkeypatch.setattr(printjobs, "BATCH_PAGES", 2)
    monkeypatch.setattr(printjobs, "worker_count", lambda: 1)  # batches laid out in the worker's thread
    second_batch = threading.Event()
    batches = []
    lay_out = printjobs.write_pdf

    def gated(html, root):
        if "counter(page)" in html:
            batches.append(html)
            if len(batches) == 2:
                second_batch.wait(timeout=300)
        return lay_out(html, root)

    monkeypatch.setattr(printjobs, "write_pdf", gated)
    page, url = job_page, live_server.url
    tournament = make_tournament(director, name="Print evening", game="schafkopf")
    for number in range(1, 17):
        add_participant(tournament, by=director, number=number, first_name=f"Sepp{number}", last_name="Maier")
    seated_services.draw_seating(tournament, by=director, seed=7)  # queues each round's score lists

    login_by_keyboard(page, url, director, f"/manage/{tournament.slug}/schafkopf/printouts/")
    shot(page, "01-printouts")
    tab_to(page, "a.button[href$='/printouts/score-lists-1.pdf']", limit=80)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Score lists of round 1 (one page per table)")
    expect(page.locator("#printjob-text")).to_have_text("Waiting to be made …")
    shot(page, "02-waiting")

    stop = threading.Event()
    worker = threading.Thread(target=printjobs.work, kwargs={"stop": stop, "interval": 0.2}, daemon=True)
    worker.start()
    try:
        expect(page.locator("#printjob-text")).to_have_text("Being made: 2 of 4 pages.")
        expect(page.locator("#printjob-progress")).to_have_attribute("value", "2")
        expect(page.locator("#printjob-ready")).to_be_hidden()
        shot(page, "03-progress")
        second_batch.set()
        expect(page.locator("#printjob-text")).to_have_text("Ready: 4 pages.")
        expect(page.locator("#printjob-open")).to_be_focused()  # Enter opens it
        shot(page, "04-ready")
        page.keyboard.press("Tab")
        expect(page.locator("#printjob-ready a.pdf-download")).to_be_focused()
        with page.expect_download() as download:
            page.keyboard.press("Enter")
    finally:
        second_batch.set()
        stop.set()
        worker.join(timeout=300)
    pdf = download.value
    assert pdf.suggested_filename == "print-evening-score-lists-round-1.pdf"
    pages = page_texts(pdf.path())
    assert len(pages) == 4 and "Page 4 of 4" in pages[-1]
