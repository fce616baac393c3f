"""Benchmark of a large Voms tournament: standings page, slips PDF, Excel export. Prints figures, asserts nothing.

Run from the repository root: `.venv/bin/python bench/voms.py` (about a minute). It builds, in a throw-away
SQLite database, 200 teams in 8 pools with every pool result and a played-out knockout, and the same with
50 teams, then measures:

- the standings page (Django test client, server time, median of 10) and its number of queries, for 50
  and for 200 teams: the count must not grow with the number of teams. Twice: after a change (the page's
  cache emptied before each request) and reloaded (served from the cache under the newest audit entry);
- all slips of round 1 as one PDF (build + render; the first run also loads WeasyPrint's fonts);
- the standings as an Excel workbook (build + render).

Set-up uses the services for teams, the draw and the knockout; the 2,400 pool slips are written in bulk
(with `derive_slip`, the one recompute path, computing what each is worth), because entering them one by
one re-reads every earlier slip to check for disqualifications and would take minutes.
"""

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEAMS, POOLS, REPEATS = 200, 8, 10


def setup_django(database: Path) -> None:
    # Before django.setup(): the settings read the database path once. The public pages' cache (where the
    # standings page is cached; files by default, as the server processes share it) and any automatic backup go to
    # the throw-away folder.
    os.environ["SQLITE_PATH"] = str(database)
    os.environ["PUBLIC_CACHE_DIR"] = str(database.parent / "public-cache")
    os.environ["BACKUP_DIR"] = str(database.parent / "backups")  # the automatic backup after a round, if any
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_director():
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from tournament.permissions import DIRECTORS_GROUP

    user = get_user_model().objects.create_user("bench", password="pw-Bench-1", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    return user


def build_tournament(director, *, teams: int, pools: int, seed: int = 7):
    import datetime

    from scoring.games.voms.demo import random_game
    from scoring.games.voms.services import pools as voms_pools
    from tournament.services.participants import register_team
    from tournament.services.tournaments import create_tournament

    rng = random.Random(seed)
    tournament = create_tournament(by=director, name=f"Voms bench {teams}", game="voms",
                                   date=datetime.date(2026, 6, 20), venue="Nuuk", language="da")
    for number in range(1, teams + 1):
        register_team(tournament, by=director, name="",
                               players=[f"Player {number}a Nielsen", f"Player {number}b Kleist"])
    voms_pools.draw_pools(tournament, by=director, pools=pools, seed=seed)
    enter_pool_results(tournament, director, rng, random_game)
    play_knockout(tournament, director, rng, random_game)
    return tournament


def enter_pool_results(tournament, director, rng, random_game) -> None:
    from scoring.games.voms import entries as voms_entries
    from scoring.games.voms import queries as voms_queries
    from scoring.models import ScoreSheet
    from tournament.models import Match, Stage

    derive = voms_entries.derive_slip(voms_queries.rules_settings(tournament))
    stage = Stage.objects.get(tournament=tournament, kind=Stage.Kind.POOLS)
    sheets = []
    for match in Match.objects.filter(stage=stage, team_b__isnull=False):
        entries = [voms_entries.slip_entry(absent="b") if rng.random() < 0.01 else random_game(rng)]
        sheets.append(ScoreSheet(tournament=tournament, match=match, entries=entries, derived=derive(entries, "games"),
                                 entered_by=director))
    ScoreSheet.objects.bulk_create(sheets, batch_size=500)


def play_knockout(tournament, director, rng, random_game) -> None:
    from scoring.games.voms.services import knockout as voms_knockout
    from scoring.games.voms.standings import pool_tables
    from tournament.draw.bracket import Qualifier

    qualifiers = [Qualifier(pool=t.pool.index, place=row.rank, team=row.participant)
                  for t in pool_tables(tournament) for row in t.rows if row.rank <= 2]
    knockout = voms_knockout.create_knockout(tournament, by=director, qualifiers=qualifiers, third_place=True,
                                        semifinal="bracket")
    while pending := [m for m in knockout.matches.select_related("sheet") if m.team_a_id and m.team_b_id
                      and not (hasattr(m, "sheet") and m.sheet.derived.get("finished"))]:
        for match in pending:
            sheet = getattr(match, "sheet", None)
            games = [*(sheet.entries if sheet else []), random_game(rng)]
            voms_knockout.record_series(match, by=director, games=games,
                                        expected_version=sheet.version if sheet else None)


def measure_standings_page(client, tournament, *, cold: bool) -> tuple[float, float, int]:
    """Median server time and CPU time in ms over REPEATS requests, and the number of queries of one request.

    The page is cached under the tournament's newest audit entry: `cold` empties the cache before each
    request (what the first request after a slip or a correction costs), otherwise every request but the
    warm-up is a reload of an unchanged tournament.
    """
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournament.public.cache import public_cache

    url = reverse("tournament:voms:standings", args=[tournament.slug])
    client.get(url)  # warm: template loading and the user's session are not what is measured
    times, cpu = [], []
    for _ in range(REPEATS):
        if cold:
            public_cache().clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200, response.status_code
    if cold:
        public_cache().clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(times), statistics.median(cpu), len(queries)


def timed(action, repeats: int = 3) -> tuple[float, float, float, bytes]:
    """Seconds of the first run, the median of the following runs (wall clock and CPU), and the last result.

    The CPU time is printed too because this machine is shared: other processes stretch the wall clock.
    """
    wall, cpu = [], []
    for _ in range(repeats + 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = action()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall[0], statistics.median(wall[1:]), statistics.median(cpu[1:]), result


def pdf_page_count(data: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader

    return len(PdfReader(BytesIO(data)).pages)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        from django.test import Client

        from documents import render
        from scoring.games.voms.documents import build
        from tournament.models import Match

        print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
        director = make_director()
        client = Client()
        client.force_login(director)
        tournaments = {}
        for teams in (50, TEAMS):
            start = time.perf_counter()
            tournaments[teams] = build_tournament(director, teams=teams, pools=POOLS)
            games = Match.objects.filter(stage__tournament=tournaments[teams], team_b__isnull=False).count()
            print(f"set-up {teams:3} teams in {POOLS} pools, {games:5} games: {time.perf_counter() - start:6.1f} s")

        for cold in (True, False):
            for teams, tournament in tournaments.items():
                median_ms, cpu_ms, queries = measure_standings_page(client, tournament, cold=cold)
                print(f"standings page  {teams:3} teams, {'after a change' if cold else 'reloaded      '}: "
                      f"{median_ms:6.1f} ms ({cpu_ms:5.1f} ms CPU, median of {REPEATS}), {queries} queries")

        big = tournaments[TEAMS]
        slips = round_one_slips(big)
        first, warm, cpu, data = timed(lambda: render(build(big, "slips", round_number=1), "pdf", tournament=big))
        print(f"slips round 1   {slips} slips, {pdf_page_count(data)} pages: "
              f"first {first:5.2f} s, then {warm:5.2f} s ({cpu:5.2f} s CPU)")
        first, warm, cpu, data = timed(lambda: render(build(big, "standings"), "xlsx", tournament=big))
        print(f"standings xlsx  {TEAMS} teams, {len(data) / 1024:.0f} KiB: "
              f"first {first:5.2f} s, then {warm:5.2f} s ({cpu:5.2f} s CPU)")
        print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")


def round_one_slips(tournament) -> int:
    from tournament.models import Match

    return Match.objects.filter(stage__tournament=tournament, round__number=1, team_b__isnull=False).count()


if __name__ == "__main__":
    main()
