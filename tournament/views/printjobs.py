"""A print job's page: its progress while a worker makes it, then its file (tournament/printjobs.py).

The page polls its state (`JobStateView`, JSON) with static/tournament/printjob.js and shows a `<progress>`
with its text, which screen readers announce (a polite live region); without JavaScript the "check again" link
reloads it. A job nobody took up for a while (no print worker runs) says so and offers to make the file in the
request itself ("make it now"), so that a page never waits on a worker that is not there.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import content_disposition_header, url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from documents import CONTENT_TYPES
from documents.response import document_response
from scoring.games import game_of

from ..models import PrintJob
from ..permissions import DirectorRequiredMixin
from ..printjobs import (
    error_message,
    job_sized,
    outdated,
    requeue_dead_jobs,
    run_job,
    start_job,
    waiting_for_worker,
)


def printout_response(request, document, file_format: str, *, tournament, name: str, params: dict | None = None):
    """A print button's answer: a long PDF's job page (an up-to-date job, or a new one), else the file at once."""
    if file_format != "pdf" or not job_sized(document):
        return document_response(request, document, file_format, tournament=tournament)
    job = start_job(tournament, name, params or {}, document=document)
    back = request.headers.get("Referer", "")
    back = back if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}) else ""
    return redirect(job_url(job) + (f"?{urlencode({'back': back})}" if back else ""))


def job_url(job: PrintJob, what: str = "printjob") -> str:
    return reverse(f"tournament:{what}", args=[job.tournament.slug, job.pk])


def job_state(job: PrintJob) -> dict:
    """What the page shows of a job, as its polling reads it."""
    total = job.total or 0
    if job.state == PrintJob.State.DONE:
        text = _("Ready: %(pages)s pages.") % {"pages": total} if job.total > 1 else _("Ready.")
    elif job.state == PrintJob.State.FAILED:
        text = error_message(job)
    elif job.state == PrintJob.State.RUNNING and total and job.done >= total:
        text = _("All %(total)s pages laid out: the file is being put together …") % {"total": total}
    elif job.state == PrintJob.State.RUNNING and total:
        text = _("Being made: %(done)s of %(total)s pages.") % {"done": job.done, "total": total}
    elif job.state == PrintJob.State.RUNNING:
        text = _("Being made …")
    elif waiting_for_worker(job):
        text = _("Waiting for the printer worker: none has taken this printout up yet. Make it now here instead, "
                 "or start the print worker (see the server guide).")
    else:
        text = _("Waiting to be made …")
    return {"state": job.state, "done": job.done, "total": total, "text": text,
            "waiting": waiting_for_worker(job), "file": job_url(job, "printjob_file")}


class JobMixin(DirectorRequiredMixin):
    def job(self) -> PrintJob:
        return get_object_or_404(PrintJob.objects.defer("content").select_related("tournament"),
                                 pk=self.kwargs["job"], tournament=self.tournament)


class JobPageView(JobMixin, TemplateView):
    template_name = "tournament/printjob.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        job = self.job()
        back = self.request.GET.get("back", "")
        if not url_has_allowed_host_and_scheme(back, allowed_hosts={self.request.get_host()}):
            back = reverse("tournament:detail", args=[self.tournament.slug])
        label = game_of(self.tournament).document_label(self.tournament, job.document, job.params)
        # a bookmarked page of an old job: its file is not offered as if it were the printout as it is now
        stale = "" if job.state == PrintJob.State.FAILED else outdated(job)
        context.update(job=job, job_state=job_state(job), back=back, label=label, outdated=stale)
        return context


class JobStateView(JobMixin, View):
    def get(self, request, *args, **kwargs):
        requeue_dead_jobs()  # a worker that died: the next worker takes its jobs over
        return JsonResponse(job_state(self.job()))


class MakeHereView(JobMixin, View):
    """No print worker took the job up: the request makes it itself (the job is claimed, so that a worker
    starting meanwhile does not make it too)."""

    def post(self, request, *args, **kwargs):
        job = self.job()
        if job.state == PrintJob.State.QUEUED:
            run_job(job.pk, worker="request")
        return redirect(job_url(job))


class CurrentJobView(JobMixin, View):
    """An out-of-date job's page: the job making the printout as it is now (an up-to-date one, or a new one)."""

    def post(self, request, *args, **kwargs):
        job = self.job()
        if outdated(job) != "changed":
            return redirect(job_url(job))  # current after all, or gone: its page says which
        return redirect(job_url(start_job(self.tournament, job.document, job.params)))


class JobFileView(JobMixin, View):
    def get(self, request, *args, **kwargs):
        job = get_object_or_404(PrintJob.objects.select_related("tournament"), pk=self.kwargs["job"],
                                tournament=self.tournament)
        if job.state != PrintJob.State.DONE or job.content is None:
            return redirect(job_url(job))  # not made (yet): its page says how far it is
        attachment = request.GET.get("download") == "1"
        return HttpResponse(bytes(job.content), content_type=CONTENT_TYPES["pdf"],
                            headers={"Content-Disposition": content_disposition_header(attachment, job.filename)})
