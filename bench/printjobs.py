"""Benchmark: how long after the seating draw the round's score lists are ready as a print job (issue 27).

Run from the repository root: `.venv/bin/python bench/printjobs.py [--players 2000]`. Figures printed, never
asserted. In a throw-away SQLite database it imports the players and starts a print worker process
(`manage.py print_worker`, as a server runs it beside gunicorn; the laptop's server runs the same loop in a
thread), then draws the seating through the director's service, which queues each round's score lists, and
reads the jobs' progress from the database until round 1's and round 2's files are made: the seconds from the
draw's commit to "ready" (and to each reported batch), what the print button then costs (it checks that the
job is up to date: every page's HTML rendered and hashed), the CPU of the worker and its layout processes, and
the file read back (its pages). The load average is printed with the figures: on a shared machine wall times
stretch with it.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from procstat import tree_usage  # noqa: E402
from schafkopf import ROOT, SLUG, build, setup_django, timed  # noqa: E402


class CpuSampler:
    """CPU seconds of a process and all its descendants, sampled: the layout processes of a job end with it, and
    /proc forgets them, so each one's last sample counts."""

    def __init__(self, pid: int):
        self.pid, self.ticks = pid, {}

    def sample(self) -> float:
        self.ticks.update(tree_usage(self.pid)[1])
        return sum(self.ticks.values()) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        run(options.players, str(Path(folder) / "bench.sqlite3"), folder)


def run(players: int, database: str, folder: str) -> None:
    setup_django(database, folder)
    from django.core.management import call_command

    from tournament.models import PrintJob

    call_command("migrate", verbosity=0)
    environment = {**os.environ, "SQLITE_PATH": database, "BACKUP_DIR": str(Path(folder) / "backups"),
                   "PUBLIC_CACHE_DIR": str(Path(folder) / "public-cache")}
    worker = subprocess.Popen([sys.executable, "manage.py", "print_worker", "--interval", "0.5"], cwd=ROOT,
                              env=environment, stdout=subprocess.PIPE, text=True)
    worker.stdout.readline()  # "The print worker runs": it is up
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs; {players} players ({players // 4} tables), 2 rounds")
    try:
        (tournament, figures), _seconds = timed(build, players, SLUG, results=False)
        cpu = CpuSampler(worker.pid)
        drawn_at, cpu_at_draw = time.perf_counter(), cpu.sample()
        print(f"draw       service {figures['draw_service']:.2f} s (queues the score lists of both rounds)")
        jobs = {job.document: job.pk for job in PrintJob.objects.filter(tournament=tournament)}
        seen, ready = {}, {}
        while len(ready) < len(jobs):
            cpu_now = cpu.sample()
            for job in PrintJob.objects.filter(pk__in=jobs.values()).only("document", "state", "done", "total"):
                moment = time.perf_counter() - drawn_at
                if (job.document, job.done) not in seen and job.state == "running" and job.done:
                    seen[(job.document, job.done)] = moment
                if job.state in ("done", "failed") and job.document not in ready:
                    ready[job.document] = (moment, job.state, job.total, cpu_now - cpu_at_draw)
            time.sleep(1)
        for name in sorted(ready, key=lambda n: ready[n][0]):
            moment, state, total, used = ready[name]
            steps = ", ".join(f"{done} at {at:.1f} s" for (document, done), at in sorted(seen.items(),
                                                                                        key=lambda i: i[1])
                              if document == name)
            print(f"job        {name}: {state} {moment:.1f} s after the draw ({total} pages; batches: {steps}); "
                  f"worker CPU since the draw {used:.1f} s")
        from tests.pdf_text import page_texts
        from tournament.printjobs import start_job

        again, seconds = timed(start_job, tournament, "score-lists-1")
        print(f"button     after it is ready: {seconds:.2f} s to find the job up to date "
              f"({'the same job' if again.pk == jobs['score-lists-1'] else 'a new job!'})")

        made = PrintJob.objects.get(pk=jobs["score-lists-1"])
        print(f"file       {made.filename}: {len(page_texts(bytes(made.content)))} pages, "
              f"{len(made.content) / 1024:.0f} KiB; load average now {os.getloadavg()[0]:.1f}")
    finally:
        worker.terminate()
        worker.wait(timeout=300)


if __name__ == "__main__":
    main()
