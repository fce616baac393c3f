"""Long printouts as jobs (tournament/printjobs.py): queued by the draw, made batch by batch with progress, the
file the same as the one rendered in the request, a stale job redone, a dead worker's job taken over and resumed.
A fake clock: nothing here waits on the wall clock."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from documents import render
from scoring.games.schafkopf.documents import PRINTOUTS
from scoring.seated import services as seated_services
from tests.pdf_text import page_texts
from tournament import printjobs
from tournament.models import PrintJob, PrintJobPart, Seat
from tournament.services.participants import add_participant

pytestmark = pytest.mark.django_db

#: the time a printout is made, printed in its running header: the job prints its own creation time
PRINTED = re.compile(r"Printed .*? (?=Page \d+ of)")


class FakeClock:
    def __init__(self):
        self.now = timezone.now().replace(microsecond=0)

    def __call__(self):
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def drawn(director, make_tournament):
    """Sixteen players at four tables, two rounds: each round's score lists are four pages."""
    tournament = make_tournament(director, name="Job cup", game="schafkopf")
    for number in range(1, 17):
        add_participant(tournament, by=director, number=number, first_name=f"Anna{number}",
                        last_name=f"Huber{number}")
    seated_services.draw_seating(tournament, by=director, seed=7)
    return tournament


@pytest.fixture(autouse=True)
def small_batches(monkeypatch):
    """Batches of two pages: the four pages of a round's score lists are two batches."""
    monkeypatch.setattr(printjobs, "BATCH_PAGES", 2)


def texts(pdf: bytes) -> list[str]:
    return [PRINTED.sub("Printed <time> ", " ".join(text.split())) for text in page_texts(pdf)]


def is_batch(html: str) -> bool:
    """A batch of pages, not the grid laid under them (which has no page numbers)."""
    return "counter(page)" in html


def direct(tournament, name) -> bytes:
    return render(PRINTOUTS.documents(tournament)[name](), "pdf", tournament=tournament)


def content(job: PrintJob) -> bytes:
    return bytes(PrintJob.objects.get(pk=job.pk).content)


def test_the_draw_queues_every_rounds_score_lists(drawn):
    jobs = PrintJob.objects.filter(tournament=drawn).order_by("pk")
    assert [(job.document, job.state) for job in jobs] == [("score-lists-1", "queued"), ("score-lists-2", "queued")]


def test_a_job_makes_the_file_the_request_makes_and_shows_its_progress(drawn, clock, monkeypatch):
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-1")
    seen = []
    lay_out = printjobs.write_pdf

    def watched(html, root):
        if is_batch(html):
            seen.append(PrintJob.objects.values_list("state", "done", "total").get(pk=job.pk))
        return lay_out(html, root)

    monkeypatch.setattr(printjobs, "write_pdf", watched)
    made = printjobs.run_job(job.pk, clock=clock, parallel=False)
    assert (made.state, made.done, made.total, made.filename) == ("done", 4, 4, "job-cup-score-lists-round-1.pdf")
    assert seen == [("running", 0, 4), ("running", 2, 4)]  # the second batch starts after the first is stored
    assert made.started_at == made.finished_at == clock.now and made.error == ""
    expected = texts(direct(drawn, "score-lists-1"))
    assert len(expected) == 4 and texts(content(made)) == expected
    assert "Page 3 of 4" in expected[2]
    assert not PrintJobPart.objects.filter(job=job).exists()  # the batches go once the file is whole


def test_an_up_to_date_job_is_reused_and_a_stale_one_redone(drawn, director, clock):
    first = PrintJob.objects.get(tournament=drawn, document="score-lists-2")
    printjobs.run_job(first.pk, clock=clock, parallel=False)
    assert printjobs.start_job(drawn, "score-lists-2", clock=clock).pk == first.pk  # nothing changed
    # a substitute plays a seat of round 2: its score lists print differently, the job is stale
    late = add_participant(drawn, by=director, number=40, first_name="Late", last_name="Comer")
    seat = Seat.objects.filter(table__round__number=2, table__round__stage__tournament=drawn).first()
    seated_services.set_substitute(seat, late, by=director)
    clock.advance(60)
    second = printjobs.start_job(drawn, "score-lists-2", clock=clock)
    assert second.pk != first.pk and second.state == "queued"
    printjobs.run_job(second.pk, clock=clock, parallel=False)
    assert texts(content(second)) == texts(direct(drawn, "score-lists-2"))
    assert any("Late Comer" in page for page in texts(content(second)))
    assert not PrintJob.objects.filter(pk=first.pk).exists()  # the stale file is gone once the new one is made


def test_a_job_queued_before_a_redraw_makes_the_new_draw(drawn, director, clock):
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-1")
    seated_services.draw_seating(drawn, by=director, seed=8)
    # the redraw finds the job still waiting and leaves it: it makes the document as it is when it runs
    assert PrintJob.objects.filter(tournament=drawn, document="score-lists-1").count() == 1
    printjobs.run_job(job.pk, clock=clock, parallel=False)
    assert texts(content(job)) == texts(direct(drawn, "score-lists-1"))


class WorkerDied(BaseException):
    """A worker's death in the middle of a job (as `kill -9`): nothing of the job's own code runs after it."""


def test_a_dead_workers_job_is_taken_over_and_goes_on_from_its_finished_batches(drawn, clock, monkeypatch, settings):
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-1")
    lay_out = printjobs.write_pdf
    calls = []

    def dies_at_the_second_batch(html, root):
        calls.append(html)
        if sum(map(is_batch, calls)) == 2:
            raise WorkerDied
        return lay_out(html, root)

    monkeypatch.setattr(printjobs, "write_pdf", dies_at_the_second_batch)
    with pytest.raises(WorkerDied):
        printjobs.run_job(job.pk, worker="first", clock=clock, parallel=False)
    left = PrintJob.objects.get(pk=job.pk)
    assert (left.state, left.worker, left.done) == ("running", "first", 2)
    assert list(PrintJobPart.objects.filter(job=job).values_list("index", flat=True)) == [0]

    monkeypatch.setattr(printjobs, "write_pdf", lambda html, root: calls.append(html) or lay_out(html, root))
    clock.advance(settings.PRINT_JOB_DEAD_SECONDS - 1)
    assert printjobs.requeue_dead_jobs(clock=clock) == []
    assert printjobs.run_job(job.pk, worker="second", clock=clock, parallel=False) is None  # not dead yet
    clock.advance(2)
    assert printjobs.requeue_dead_jobs(clock=clock) == [job.pk]
    assert PrintJob.objects.get(pk=job.pk).state == "queued"
    assert printjobs.requeue_dead_jobs(clock=clock) == []  # queued once
    made = printjobs.run_job(job.pk, worker="second", clock=clock, parallel=False)
    assert (made.state, made.worker, made.done) == ("done", "second", 4)
    # the second worker laid out only the batch the first had not finished (and the score lists' grid)
    assert sum(map(is_batch, calls)) == 3
    assert texts(content(made)) == texts(direct(drawn, "score-lists-1"))


def test_a_job_of_a_document_no_longer_there_fails_with_a_message(drawn, clock):
    job = PrintJob.objects.create(tournament=drawn, document="score-lists-9", created_at=clock())
    made = printjobs.run_job(job.pk, clock=clock, parallel=False)
    assert made.state == "failed" and made.error == "gone"
    assert printjobs.error_message(made) == "This printout no longer exists (the round or the document was removed)."


@pytest.fixture
def print_button(client, director, drawn, monkeypatch):
    monkeypatch.setattr(printjobs, "JOB_MIN_PAGES", 4)
    client.force_login(director)
    return reverse("tournament:schafkopf:download", args=[drawn.slug, "score-lists-1", "pdf"])


def test_the_print_button_of_a_long_printout_opens_its_job(client, drawn, print_button, clock):
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-1")
    answer = client.get(print_button)
    assert answer.status_code == 302 and answer["Location"] == reverse("tournament:printjob", args=[drawn.slug, job.pk])
    page = client.get(answer["Location"]).content.decode()
    assert '<progress id="printjob-progress" max="1" value="0"' in page and "Waiting to be made" in page
    file_url = reverse("tournament:printjob_file", args=[drawn.slug, job.pk])
    assert client.get(file_url)["Location"] == answer["Location"]  # no file yet: its page says how far it is
    printjobs.run_job(job.pk, clock=clock, parallel=False)
    state = client.get(reverse("tournament:printjob_state", args=[drawn.slug, job.pk])).json()
    assert (state["state"], state["done"], state["total"], state["text"]) == ("done", 4, 4, "Ready: 4 pages.")
    assert client.get(print_button)["Location"].endswith(f"/printouts/{job.pk}/")  # up to date: the same job
    file = client.get(state["file"] + "?download=1")
    assert file["Content-Type"] == "application/pdf" and "attachment" in file["Content-Disposition"]
    assert texts(file.content) == texts(direct(drawn, "score-lists-1"))


def test_a_short_printout_is_made_in_the_request(client, drawn, director):
    client.force_login(director)
    answer = client.get(reverse("tournament:schafkopf:download", args=[drawn.slug, "score-lists-1", "pdf"]))
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"  # 4 pages: no job


def test_without_a_worker_the_page_says_so_and_the_request_makes_it(client, drawn, print_button, settings):
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-1")
    PrintJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - datetime.timedelta(
        seconds=settings.PRINT_JOB_WAIT_SECONDS + 1))
    page = client.get(reverse("tournament:printjob", args=[drawn.slug, job.pk])).content.decode()
    assert "Waiting for the printer worker" in page and 'id="printjob-here" method="post"' in page
    assert 'id="printjob-here" method="post" action="/manage/job-cup/printouts/' in page
    answer = client.post(reverse("tournament:printjob_here", args=[drawn.slug, job.pk]))
    assert answer.status_code == 302
    assert PrintJob.objects.get(pk=job.pk).state == "done"


def test_another_directors_job_is_not_found(client, drawn, make_director):
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-1")
    client.force_login(make_director("other"))
    assert client.get(reverse("tournament:printjob_state", args=[drawn.slug, job.pk])).status_code == 404


def test_the_tournament_file_carries_no_print_job(drawn, clock):
    from tournament.transfer import export_tournament, tournament_models

    printjobs.run_job(PrintJob.objects.get(tournament=drawn, document="score-lists-1").pk, clock=clock,
                      parallel=False)
    assert not {"tournament.printjob", "tournament.printjobpart"} & {plan.label for plan in tournament_models()}
    assert b"printjob" not in export_tournament(drawn)  # a file made from the tournament, made again where imported


def test_the_jobs_page_is_headed_by_the_documents_name_on_the_printouts_page(client, drawn, director, clock):
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-1")
    printjobs.run_job(job.pk, clock=clock, parallel=False)
    client.force_login(director)
    page = client.get(reverse("tournament:printjob", args=[drawn.slug, job.pk])).content.decode()
    assert "<h1>Score lists of round 1 (one page per table)</h1>" in page
    assert "job-cup-score-lists-round-1.pdf" not in page  # the file's name is the download's
    file = client.get(reverse("tournament:printjob_file", args=[drawn.slug, job.pk]) + "?download=1")
    assert 'filename="job-cup-score-lists-round-1.pdf"' in file["Content-Disposition"]
    page = client.get(reverse("tournament:printjob", args=[drawn.slug, job.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "<h1>Punktelisten der Runde 1 (eine Seite je Tisch)</h1>" in page.content.decode()


def test_a_job_whose_pages_are_all_laid_out_says_the_file_is_being_put_together(client, drawn, director):
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-1")
    PrintJob.objects.filter(pk=job.pk).update(state="running", done=2, total=4)
    client.force_login(director)
    state_url = reverse("tournament:printjob_state", args=[drawn.slug, job.pk])
    assert client.get(state_url).json()["text"] == "Being made: 2 of 4 pages."
    PrintJob.objects.filter(pk=job.pk).update(done=4)
    assert client.get(state_url).json()["text"] == "All 4 pages laid out: the file is being put together …"


def test_a_voms_jobs_label_names_its_round(director, make_tournament):
    from scoring.games import game_of

    voms = make_tournament(director, name="Slip cup", game="voms")
    assert str(game_of(voms).document_label(voms, "slips", {"round": 2})) == "Match slips, round 2"
    assert str(game_of(voms).document_label(voms, "schedule", {})) == "Schedule"
    assert game_of(voms).document_label(voms, "nothing", {}) is None


def test_an_old_jobs_page_says_its_file_is_out_of_date_and_makes_the_current_one(client, drawn, director, clock):
    # a bookmarked page of a job made before a substitute offered the old file as if it were current (issue 27)
    job = PrintJob.objects.get(tournament=drawn, document="score-lists-2")
    printjobs.run_job(job.pk, clock=clock, parallel=False)
    client.force_login(director)
    page_url = reverse("tournament:printjob", args=[drawn.slug, job.pk])
    page = client.get(page_url).content.decode()
    assert 'id="printjob-open"' in page and "Out of date" not in page  # nothing changed: the file is current
    late = add_participant(drawn, by=director, number=40, first_name="Late", last_name="Comer")
    seat = Seat.objects.filter(table__round__number=2, table__round__stage__tournament=drawn).first()
    seated_services.set_substitute(seat, late, by=director)
    page = client.get(page_url).content.decode()
    assert "Out of date:" in page and "the tournament changed since this file was made" in page
    assert 'id="printjob-open"' not in page and 'id="printjob-old"' in page  # the old file only as such
    assert f'action="{reverse("tournament:printjob_current", args=[drawn.slug, job.pk])}"' in page
    answer = client.post(reverse("tournament:printjob_current", args=[drawn.slug, job.pk]))
    current = PrintJob.objects.get(tournament=drawn, document="score-lists-2", state="queued")
    assert answer.status_code == 302 and answer["Location"] == reverse("tournament:printjob",
                                                                       args=[drawn.slug, current.pk])
    assert "Out of date" not in client.get(answer["Location"]).content.decode()
    # a newer job of the document is being made: the old page still says so, and leads to the newer one
    assert "Out of date:" in client.get(page_url).content.decode()
    assert client.post(reverse("tournament:printjob_current", args=[drawn.slug, job.pk]))["Location"] == \
        answer["Location"]
    with translation.override("de"):
        assert "Veraltet:" in client.get(page_url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
