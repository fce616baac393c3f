"""Benchmark of a 2,000-player Schafkopf tournament: figures printed, never asserted.

Run from the repository root: `.venv/bin/python bench/schafkopf.py [--players 2000]`.
It builds the tournament in a throw-away SQLite database (or the one DATABASE_URL names) through
the same services a director uses, then times:

- draw: the seating draw of every round (the pure draw, and the service that also stores it);
- entry: all lists entered game by game through `services.enter_sheet` (30 or 40 games each);
- standings: the standings page, server time through Django's test client, and its query count
  at this size and at a tenth of it (the count must not grow with the players);
- pdf: the score lists of round 1 as one PDF, in a process of its own (time and peak memory);
- xlsx: the Excel export (every round, the ranking, every game).

It writes nothing into the checkout: the automatic backups after each round and the public pages' cache go to
the throw-away folder (with `--database PATH`, to `PATH.files/`). It can run twice in a row on the same
DATABASE_URL: an earlier run's tournaments are deleted first.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLUG = "bench-schafkopf"


def setup_django(database: str, folder: str) -> None:
    """Settings for the bench: its database, and everything it writes (the automatic backup after each
    round, the public pages' cache) in `folder`, the throw-away folder, never in the checkout."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = database
    os.environ["BACKUP_DIR"] = str(Path(folder) / "backups")
    os.environ["PUBLIC_CACHE_DIR"] = str(Path(folder) / "public-cache")
    import django

    django.setup()


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def cpu_timed(function, *args, **kwargs):
    """Wall and CPU seconds: on a shared machine the CPU time is the steadier figure."""
    cpu = time.process_time()
    result, wall = timed(function, *args, **kwargs)
    return result, wall, time.process_time() - cpu


def director():
    from django.contrib.auth import get_user_model

    user, _created = get_user_model().objects.get_or_create(username="bench", defaults={"is_superuser": True})
    return user


def discard(slug: str) -> None:
    """Delete an earlier run's tournament (a reused PostgreSQL or DATABASE_URL database): its rounds first,
    as a seat protects its participant from being deleted with the tournament."""
    from django.db import transaction

    from tournament.models import Round, Tournament

    with transaction.atomic():
        Round.objects.filter(stage__tournament__slug=slug).delete()
        Tournament.objects.filter(slug=slug).delete()


def build(players: int, slug: str, *, results: bool) -> tuple:
    """A tournament of `players` imported, drawn and (with `results`) every list entered; the timings."""
    import datetime
    import random

    from scoring.games.schafkopf.demo import enter_random_results, player_list
    from scoring.seated import services as seated_services
    from tournament.models import Tournament
    from tournament.services.participants import import_participants
    from tournament.services.tournaments import create_tournament

    discard(slug)
    user = director()
    tournament = create_tournament(by=user, name=slug, game="schafkopf", date=datetime.date(2026, 5, 1))
    Tournament.objects.filter(pk=tournament.pk).update(slug=slug)
    tournament.refresh_from_db()
    rng = random.Random(1)
    report, seconds_import = timed(import_participants, tournament, "players.csv", player_list(rng, players), by=user,
                                   confirm_duplicates=True)
    assert report.ok, report.rejected
    draw, seconds_draw = timed(seated_services.draw_seating, tournament, by=user, seed=2026)
    figures = {"import": seconds_import, "draw_service": seconds_draw, "repeats": draw.params["repeated_pairs"]}
    if results:
        _nothing, figures["entry"] = timed(enter_random_results, tournament, user, rng)
    return tournament, figures


def bench_pure_draw(players: int) -> float:
    from tournament.draw.seating import draw_seating

    timings = [timed(draw_seating, list(range(1, players + 1)), 2, seed=seed)[1] for seed in range(3)]
    return min(timings)


def standings_page(tournament, repeats: int = 5, *, cold: bool) -> tuple[float, float, int]:
    """Median wall and CPU seconds of the page, and its queries. `cold`: as after every change (a new
    list, a correction: the page's cache is keyed by the newest audit entry), else a reload."""
    from django.core.cache import caches
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(director())
    url = reverse("tournament:schafkopf:standings", args=[tournament.slug])
    client.get(url)  # load templates and translations once
    timings, cpu_timings = [], []
    for _ in range(repeats):
        if cold:
            caches["public"].clear()
        with CaptureQueriesContext(connection) as queries:
            response, seconds, cpu = cpu_timed(client.get, url)
        assert response.status_code == 200
        timings.append(seconds)
        cpu_timings.append(cpu)
    return statistics.median(timings), statistics.median(cpu_timings), len(queries)


def run_pdf(database: str, folder: str, players: int) -> None:
    """In its own process: the round-1 score lists as one PDF, with time, CPU and peak memory of this
    process and its worker processes together (sampled from /proc), and the file read back."""
    setup_django(database, folder)
    from documents import render
    from scoring.games.schafkopf.documents import documents
    from tournament.models import Tournament

    tournament = Tournament.objects.get(slug=SLUG)
    from procstat import MemorySampler

    from documents import pdf as _renderer  # noqa: F401  (WeasyPrint's import is not the printout's time)

    sampler = MemorySampler()
    sampler.start()
    document, seconds_build = timed(documents(tournament)["score-lists-1"])
    data, seconds_render = timed(render, document, "pdf", tournament=tournament)
    sampler.stop()
    cpu = sampler.cpu_seconds()
    pages = len(document.pages)
    print(f"pdf        {pages} score lists: {seconds_build + seconds_render:6.1f} s wall, {cpu:.1f} s CPU "
          f"(all processes; {seconds_build:.1f} s data), peak {sampler.peak / 2**20:.0f} MiB together "
          f"(this process alone {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB), "
          f"{len(data) / 1024:.0f} KiB")
    check_pdf(data, pages)


def check_pdf(data: bytes, pages: int) -> None:
    """Read the PDF back: page count, every page's table in order, the title, bookmarks, fonts."""
    import io
    import re

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    texts = [page.extract_text() for page in reader.pages]
    tables = [int(found.group(1)) if (found := re.search(r"table (\d+)", text)) else None for text in texts]
    numbered = all(f"{n} of {len(texts)}" in " ".join(text.split()) for n, text in enumerate(texts, start=1))
    # distinct embedded fonts: one set per batch, each a subset of the glyphs that batch uses
    fonts = {font.idnum for page in reader.pages for font in page["/Resources"]["/Font"].values()}
    print(f"pdf check  {len(reader.pages)} pages (expected {pages}), tables in order: "
          f"{tables == sorted(tables) and None not in tables}, page numbers X of {len(texts)}: {numbered}, "
          f"title {reader.metadata.title!r}, {len(reader.outline)} bookmarks, {len(fonts)} embedded font objects")


def calibration() -> float:
    """A plain-Python yardstick, to compare this machine with others (best of 5)."""
    return min(timed(sum, range(10**6))[1] for _ in range(5))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--database", metavar="PATH",
                        help="keep the SQLite database here and reuse the tournament on the next run (skips the "
                             "draw and entry figures)")
    parser.add_argument("--only", choices=("standings", "xlsx", "pdf"), action="append",
                        help="measure only this (repeatable); default: everything")
    parser.add_argument("--pdf", nargs=2, metavar=("DATABASE", "FOLDER"), help=argparse.SUPPRESS)  # the PDF child
    options = parser.parse_args()
    if options.pdf:
        run_pdf(*options.pdf, options.players)
        return
    if options.database:
        # the kept database's backups and cache go beside it, in <database>.files/
        database = Path(options.database).resolve()
        run(options, str(database), str(database.with_name(database.name + ".files")))
        return
    with tempfile.TemporaryDirectory() as folder:
        run(options, str(Path(folder) / "bench.sqlite3"), folder)


def run(options, database: str, folder: str) -> None:
    """Build (or, with --database, reuse) the tournament and measure."""
    only = set(options.only or ("standings", "xlsx", "pdf"))
    setup_django(database, folder)
    from django.core.management import call_command

    from tournament.models import Tournament

    call_command("migrate", verbosity=0)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; {options.players} players, 2 rounds")
    # reuse a kept database's tournaments (--database) only if an earlier run finished building both
    reuse = bool(options.database) and Tournament.objects.filter(slug__in=(SLUG, f"{SLUG}-small")).count() == 2
    if reuse:
        tournament = Tournament.objects.get(slug=SLUG)
        small = Tournament.objects.get(slug=f"{SLUG}-small")
        tables = tournament.sheets.count()
        print(f"reusing    {database}: {tables} lists")
    else:
        print(f"draw       pure {bench_pure_draw(options.players):.2f} s")
        tournament, figures = build(options.players, SLUG, results=True)
        print(f"draw       service (draw, store, audit) {figures['draw_service']:.2f} s, "
              f"{figures['repeats']} repeated pairs; import {figures['import']:.2f} s")
        tables = tournament.sheets.count()
        print(f"entry      {tables} lists game by game: {figures['entry']:.1f} s "
              f"({1000 * figures['entry'] / tables:.1f} ms a list)")
        small, _small_figures = build(options.players // 10, f"{SLUG}-small", results=True)
    if "standings" in only:
        for cold, label in ((True, "after a change"), (False, "reload")):
            seconds, cpu, queries = standings_page(tournament, cold=cold)
            _small_seconds, _small_cpu, small_queries = standings_page(small, repeats=1, cold=cold)
            print(f"standings  page, {label}: {1000 * seconds:.0f} ms server time ({1000 * cpu:.0f} ms CPU), "
                  f"{queries} queries ({small_queries} at {options.players // 10} players)")
    if "xlsx" in only:
        from documents import render
        from scoring.games.schafkopf.documents import documents

        data, xlsx_seconds, xlsx_cpu = cpu_timed(
            lambda: render(documents(tournament)["results"](), "xlsx", tournament=tournament)
        )
        print(f"xlsx       results (rounds, ranking, {tables * 30 // 1000}k+ games): {xlsx_seconds:.2f} s wall, "
              f"{xlsx_cpu:.2f} s CPU, {len(data) / 1024:.0f} KiB")
    print(f"machine    `sum(range(10**6))` takes {calibration() * 1000:.0f} ms here")
    if "pdf" in only:
        subprocess.run([sys.executable, __file__, "--pdf", database, folder, "--players", str(options.players)],
                       check=True)


if __name__ == "__main__":
    main()
