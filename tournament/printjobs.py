"""Long printouts as jobs: made outside the request, their state, progress and file in the database
(`PrintJob`), so that every serving process shows a job's progress and any worker makes it (docs/architecture.md,
"Work outside the request").

The runner is Django's tasks framework (the `django-tasks` backport until Django 6) with its database backend
(`django-tasks-db`): a queue in the app's own database, so a laptop needs no other service and several servers
share one queue. `start_job` records the job and enqueues `run_print_job` once its transaction commits; the
laptop's server runs the worker in a thread (`start_worker_thread`), a server runs `manage.py print_worker`.

A job renders its document as `documents.pdf` does (the same fragments, frames, batches and joining), batch by
batch, and stores each finished batch (`PrintJobPart`), its heartbeat and its progress as it goes. A worker that
dies (a crash, `kill -9`, a power cut) leaves the job running with an old heartbeat: the next worker to look
(`requeue_dead_jobs`, at every turn of the worker's loop and when the director's page asks) takes it over and goes
on from the batches already made, if the document still prints the same; otherwise it starts again.

`key` is the hash of the document's HTML (its pages, underlays and page frame, without the time it was made):
a job is up to date while its document would print exactly the same; a re-draw or a substitute makes it stale,
and the print button starts a new one. Right after a draw, the round's sheets are queued (`prepare_after_draw`),
so that they are usually ready before the director asks.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
import secrets
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections, models, transaction
from django.db.models.functions import Coalesce
from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django_tasks import task

from documents import MultiSheetDocument, PrintDocument, TableDocument
from documents.base import tables_of, venue_locale
from documents.pdf import (
    BATCH_PAGES,
    PdfUnavailable,
    assemble,
    batch_bounds,
    frame_context,
    frame_html,
    page_count,
    pdf_available,
    process_context,
    render_tables_fragment,
    static_dir,
    underlay_htmls,
    worker_count,
    write_pdf,
)
from scoring.games import game_of

from .backup import crash_point
from .models import PrintJob, PrintJobPart, Tournament

logger = logging.getLogger(__name__)

#: a printout of one page per context with at least this many pages is made as a job (about two seconds of
#: layout on a quiet laptop); so is a table of at least JOB_MIN_ROWS rows (the ranking of a field of 1,000)
JOB_MIN_PAGES = BATCH_PAGES
JOB_MIN_ROWS = 1000
QUEUE = "printouts"

#: why a job failed, as the director reads it
ERRORS = {
    "pdf-unavailable": _("This computer cannot make PDFs: WeasyPrint needs the Pango library (see the installation "
                         "guide)."),
    "gone": _("This printout no longer exists (the round or the document was removed)."),
    "failed": _("The printout could not be made. The server's log says why; try again."),
}

Clock = Callable[[], datetime.datetime]


def job_sized(document) -> bool:
    """Whether rendering `document` takes more than a moment: then the print button makes it as a job."""
    if isinstance(document, PrintDocument):
        return document.pages is not None and len(document.pages) >= JOB_MIN_PAGES
    if isinstance(document, TableDocument | MultiSheetDocument):
        rows = [table.rows for table in tables_of(document)]
        return all(isinstance(r, Sequence) for r in rows) and sum(len(r) for r in rows) >= JOB_MIN_ROWS
    return False


def document_of(tournament: Tournament, name: str, params: dict):
    """The document a job renders, built now by the tournament's game; None when it has none of that name."""
    with venue_locale(tournament):
        return game_of(tournament).document(tournament, name, params)


# --- what a job lays out -------------------------------------------------------------------------------------


@dataclass
class Plan:
    """A document's PDF as batches of HTML to lay out, and how to join them (the steps of `documents.pdf`)."""

    key: str
    batches: list[list[str]]  # each batch's page fragments
    frame: dict[str, Any]
    numbered: bool  # one page per fragment: each batch numbers its pages in the whole printout's count
    underlays: dict[Any, str] = field(default_factory=dict)
    underlay_keys: list | None = None

    def html(self, index: int, pages: list[int] | None = None) -> str:
        """Batch `index` as a whole HTML; `pages`: each batch's true page count (else one per fragment)."""
        if not self.numbered:
            return frame_html(self.frame, self.batches[index])
        pages = pages or [len(batch) for batch in self.batches]
        return frame_html(self.frame, self.batches[index], first_page=1 + sum(pages[:index]),
                          total_pages=sum(pages))

    @property
    def total(self) -> int:
        return sum(len(batch) for batch in self.batches) if self.numbered else 1


def plan_of(document, *, tournament: Tournament, made_at: datetime.datetime) -> Plan:
    """How `document` is laid out, in the tournament's language: as `render_pdf` lays it out (one HTML), or, for
    a printout of one page per context, as `render_in_batches` does (batches of BATCH_PAGES pages)."""
    with venue_locale(tournament):
        frame = frame_context(tournament=tournament, title=document.title, landscape=document.landscape,
                              qr_page=document.qr_page)
        underlays, keys = {}, None
        if isinstance(document, PrintDocument):
            contexts = document.page_contexts()
            numbered = document.pages is not None
            bounds = batch_bounds(len(contexts), BATCH_PAGES) if numbered else [(0, len(contexts))]
            starts = {start for start, _end in bounds} if numbered else set()
            fragments = [render_to_string(document.template_name, {**c, "first": c["first"] or i in starts})
                         for i, c in enumerate(contexts)]
            batches = [fragments[start:end] for start, end in bounds]
            underlays = underlay_htmls(document, tournament=tournament)
            keys = [context.get("underlay") for context in contexts]
        else:
            numbered, batches = False, [[render_tables_fragment(document)]]
        digest = hashlib.sha256()
        for part in [frame_html({**frame, "printed_at": ""}, []), *sum(batches, []), *underlays.values()]:
            digest.update(part.encode())
            digest.update(b"\0")
        # the time on every page is the job's: a job taken over by another worker prints the same on all pages
        frame["printed_at"] = formats.date_format(timezone.localtime(made_at), "SHORT_DATETIME_FORMAT")
    return Plan(digest.hexdigest(), batches, frame, numbered, underlays, keys)


def filename_of(tournament: Tournament, document) -> str:
    return f"{tournament.slug}-{document.filename_stem}.pdf"


# --- starting a job and reading its state -------------------------------------------------------------------


def up_to_date(tournament: Tournament, name: str, params: dict, document) -> PrintJob | None:
    """The newest job of this document that is waiting, being made, or made, whose key is the document's as it
    prints now (a job still waiting has no key yet: it will make the document as it is when it runs)."""
    jobs = PrintJob.objects.filter(tournament=tournament, document=name, params=params,
                                   state__in=[PrintJob.State.QUEUED, PrintJob.State.RUNNING, PrintJob.State.DONE])
    newest = jobs.defer("content").order_by("-created_at", "-id").first()
    if newest is None:
        return None
    if newest.state == PrintJob.State.QUEUED and not newest.key:
        return newest
    key = plan_of(document, tournament=tournament, made_at=newest.created_at).key
    return newest if newest.key == key else None


def outdated(job: PrintJob) -> str:
    """Why `job`'s file is not the printout as it prints now: "gone" (its document no longer exists), "changed"
    (the tournament changed since: the document would print differently, or a newer job of it was started);
    "" while it is current. As the print button decides (`up_to_date`): it lays the document out as HTML."""
    document = document_of(job.tournament, job.document, job.params)
    if document is None:
        return "gone"
    current = up_to_date(job.tournament, job.document, job.params, document)
    return "" if current is not None and current.pk == job.pk else "changed"


def start_job(tournament: Tournament, name: str, params: dict | None = None, *, document=None,
              clock: Clock = timezone.now) -> PrintJob:
    """The job making this document: an up-to-date one, or a new one queued (enqueued once committed)."""
    params = params or {}
    document = document if document is not None else document_of(tournament, name, params)
    if document is not None:
        existing = up_to_date(tournament, name, params, document)
        if existing is not None:
            if not existing.filename:  # queued by the draw: named once a page shows it
                existing.filename = filename_of(tournament, document)
                PrintJob.objects.filter(pk=existing.pk, filename="").update(filename=existing.filename)
            return existing
    job = PrintJob.objects.create(tournament=tournament, document=name, params=params, created_at=clock(),
                                  filename=filename_of(tournament, document) if document is not None else "")
    transaction.on_commit(lambda: run_print_job.enqueue(job.pk))
    return job


def prepare_after_draw(tournament: Tournament, *, clock: Clock = timezone.now) -> list[PrintJob]:
    """Queue the printouts a draw makes (each round's score sheets or slips), to have them ready before the
    director asks. Call inside the draw's transaction: they are enqueued when it commits."""
    jobs = []
    for name, params in game_of(tournament).printouts_after_draw(tournament):
        job = PrintJob.objects.filter(tournament=tournament, document=name, params=params,
                                      state=PrintJob.State.QUEUED, key="").first()
        if job is None:  # a job still waiting makes the document as the draw left it
            job = PrintJob.objects.create(tournament=tournament, document=name, params=params, created_at=clock())
            transaction.on_commit(lambda pk=job.pk: run_print_job.enqueue(pk))
        jobs.append(job)
    return jobs


def waiting_for_worker(job: PrintJob, *, clock: Clock = timezone.now) -> bool:
    """A job nobody took up for PRINT_JOB_WAIT_SECONDS: no print worker runs (the page says so)."""
    waiting_since = job.heartbeat_at or job.created_at  # a job queued again after its worker died: since then
    return (job.state == PrintJob.State.QUEUED
            and clock() - waiting_since > datetime.timedelta(seconds=settings.PRINT_JOB_WAIT_SECONDS))


def error_message(job: PrintJob) -> str:
    return str(ERRORS.get(job.error, ERRORS["failed"])) if job.state == PrintJob.State.FAILED else ""


def dead(clock: Clock = timezone.now) -> models.Q:
    """Running jobs whose worker has not reported for PRINT_JOB_DEAD_SECONDS: it died."""
    limit = clock() - datetime.timedelta(seconds=settings.PRINT_JOB_DEAD_SECONDS)
    return models.Q(state=PrintJob.State.RUNNING, heartbeat_at__lte=limit)


def requeue_dead_jobs(*, clock: Clock = timezone.now) -> list[int]:
    """Queue again the jobs of workers that died (once each: they wait again); the worker that runs them goes
    on from their finished batches."""
    requeued = []
    for pk in PrintJob.objects.filter(dead(clock)).values_list("pk", flat=True):
        if PrintJob.objects.filter(dead(clock), pk=pk).update(state=PrintJob.State.QUEUED, heartbeat_at=clock()):
            run_print_job.enqueue(pk)
            requeued.append(pk)
    return requeued


# --- running a job -------------------------------------------------------------------------------------------


def claim(pk: int, worker: str, *, clock: Clock) -> bool:
    """Take the job for `worker`: a waiting one, or a running one whose worker died."""
    now = clock()
    return bool(PrintJob.objects.filter(pk=pk).filter(models.Q(state=PrintJob.State.QUEUED) | dead(clock))
                .update(state=PrintJob.State.RUNNING, worker=worker, heartbeat_at=now,
                        started_at=Coalesce("started_at", models.Value(now))))


def still_mine(pk: int, worker: str, clock: Clock, **changes) -> bool:
    """Report progress (and the heartbeat); False when another worker has taken the job over meanwhile."""
    return bool(PrintJob.objects.filter(pk=pk, worker=worker, state=PrintJob.State.RUNNING)
                .update(heartbeat_at=clock(), **changes))


def run_job(pk: int, *, worker: str | None = None, clock: Clock = timezone.now,
            parallel: bool = True) -> PrintJob | None:
    """Make job `pk` if it is this worker's to make (waiting, or its worker died); the job as it ended, or None
    when it was not to be made here. Several batches are laid out by the cores' worker processes (`parallel`,
    as `documents.pdf.render_in_batches` does), else here one after another."""
    worker = worker or secrets.token_hex(8)
    if not claim(pk, worker, clock=clock):
        return None
    job = PrintJob.objects.select_related("tournament").defer("content").get(pk=pk)
    try:
        document = document_of(job.tournament, job.document, job.params)
        if document is None:
            return finish(job, worker, clock, state=PrintJob.State.FAILED, error="gone")
        if not pdf_available():
            raise PdfUnavailable
        plan = plan_of(document, tournament=job.tournament, made_at=job.created_at)
        if plan.key != job.key:  # new, or its document changed since the parts were made: from the start
            PrintJobPart.objects.filter(job=job).delete()
            if not still_mine(pk, worker, clock, key=plan.key, total=plan.total, done=0,
                              filename=filename_of(job.tournament, document)):
                return None
        content = lay_out(job, plan, worker, clock=clock, parallel=parallel)
        if content is None:
            return None  # taken over by another worker
        return finish(job, worker, clock, state=PrintJob.State.DONE, content=content, done=plan.total)
    except PdfUnavailable:
        return finish(job, worker, clock, state=PrintJob.State.FAILED, error="pdf-unavailable")
    except Exception:
        logger.exception("Print job %s (%s of %s) failed", pk, job.document, job.tournament.slug)
        return finish(job, worker, clock, state=PrintJob.State.FAILED, error="failed")


def lay_out(job: PrintJob, plan: Plan, worker: str, *, clock: Clock, parallel: bool) -> bytes | None:
    """Lay out the batches not made yet, storing each as it is done; then join them. None: taken over."""
    made = dict(PrintJobPart.objects.filter(job=job).values_list("index", "pages"))
    todo = [index for index in range(len(plan.batches)) if index not in made]
    if parallel and len(todo) > 1 and worker_count() > 1:
        with ProcessPoolExecutor(min(worker_count(), len(todo)), mp_context=process_context()) as pool:
            return _lay_out(job, plan, worker, made, todo, clock=clock, submit=pool.submit)
    return _lay_out(job, plan, worker, made, todo, clock=clock, submit=_Later)


def _lay_out(job, plan: Plan, worker: str, made: dict, todo: list[int], *, clock: Clock, submit) -> bytes | None:
    root = static_dir()
    futures = {index: submit(write_pdf, plan.html(index), root) for index in todo}
    laid_under = {key: submit(write_pdf, html, root) for key, html in plan.underlays.items()}
    for index in todo:
        data = futures[index].result()
        pages = page_count(data) if plan.numbered else 1
        with transaction.atomic():
            if not still_mine(job.pk, worker, clock, done=models.F("done") + len(plan.batches[index])):
                return None
            PrintJobPart.objects.create(job=job, index=index, pages=pages, content=data)
        made[index] = pages
        crash_point("print-job-after-batch")
    parts = [bytes(c) for c in PrintJobPart.objects.filter(job=job).order_by("index").values_list("content",
                                                                                                   flat=True)]
    if plan.numbered:
        laid_out = [made[index] for index in range(len(plan.batches))]
        if laid_out != [len(batch) for batch in plan.batches]:
            # a batch ran over its pages: every batch once more with the true page numbers (as render_in_batches)
            parts = [write_pdf(plan.html(index, laid_out), root) for index in range(len(plan.batches))]
    underlays = {key: future.result() for key, future in laid_under.items()}
    return assemble(parts, underlays, plan.underlay_keys if underlays else None)


class _Later:
    """Work done here when its result is asked for, one batch after another: what a pool's future gives."""

    def __init__(self, function, *args):
        self.function, self.args = function, args

    def result(self):
        return self.function(*self.args)


def finish(job: PrintJob, worker: str, clock: Clock, *, state: str, **changes) -> PrintJob | None:
    """End the job (made or failed), unless another worker has taken it over; a made job replaces the older
    files of the same document."""
    with transaction.atomic():
        if not still_mine(job.pk, worker, clock, state=state, finished_at=clock(), **changes):
            return None
        PrintJobPart.objects.filter(job=job).delete()
        if state == PrintJob.State.DONE:
            PrintJob.objects.filter(tournament=job.tournament_id, document=job.document, params=job.params,
                                    state__in=[PrintJob.State.DONE, PrintJob.State.FAILED],
                                    created_at__lt=job.created_at).delete()
    return PrintJob.objects.defer("content").get(pk=job.pk)


@task(queue_name=QUEUE)
def run_print_job(pk: int) -> str:
    """The task: make job `pk` (nothing when another worker makes it or made it)."""
    job = run_job(pk)
    return job.state if job else "not mine"


# --- the worker ----------------------------------------------------------------------------------------------


def work(*, stop: threading.Event, interval: float = 1.0) -> None:
    """The print worker's loop: take over the jobs of dead workers, run every task waiting, wait; until `stop`."""
    from django_tasks_db.management.commands.db_worker import Worker

    worker_id = f"print-{secrets.token_hex(6)}"
    while not stop.is_set():
        close_old_connections()
        try:
            requeue_dead_jobs()
            Worker(queue_names=[QUEUE], interval=0, batch=True, backend_name="default", startup_delay=False,
                   max_tasks=None, worker_id=worker_id, excluded_queue_names=[]).run()
        except Exception:  # noqa: BLE001 (the worker must outlive a database hiccup; tried again next turn)
            logger.exception("The print worker's turn failed")
        stop.wait(interval)
    connections.close_all()


def start_worker_thread() -> threading.Thread | None:
    """The laptop's server: the print worker in a thread of the serving process (PRINT_WORKER_THREAD)."""
    if not settings.PRINT_WORKER_THREAD:
        return None
    thread = threading.Thread(target=work, kwargs={"stop": threading.Event()}, name="print-worker", daemon=True)
    thread.start()
    return thread
