"""Benchmark of the desk's hot paths, one call at a time: figures printed, never asserted.

Run from the repository root: `.venv/bin/python bench/hotpaths.py [--players 200] [--teams 40]`.
In a throw-away SQLite database (everything it writes goes to a throw-away folder) it goes through an
evening the way the desk does, one service call per registration and per result:

- Schafkopf: `add_participant` for every player, the seating draw, then every score list of every round
  through `enter_sheet` (which saves the sheet and moves the tournament's status);
- Voms: `register_team` for every team, the pool draw, then every pool slip through `record_slip`.

For each kind of call it prints the number of calls, milliseconds per call (median, and the mean of the
first and the last tenth, which shows whether the cost grows with what is registered already) and the
queries per call (mean and most). CPU time is the steadier figure on a shared machine; the "cpu" column
is the process's CPU milliseconds per call.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django(folder: Path) -> None:
    os.environ["SQLITE_PATH"] = str(folder / "bench.sqlite3")
    os.environ["BACKUP_DIR"] = str(folder / "backups")
    os.environ["PUBLIC_CACHE_DIR"] = str(folder / "public-cache")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class Calls:
    """Wall and CPU time and queries of each call of one kind."""

    def __init__(self, name: str):
        self.name, self.wall, self.cpu, self.queries = name, [], [], []

    def __call__(self, function, *args, **kwargs):
        from django.db import connection

        # queries counted as they run, not logged: Django's query log formats every statement's SQL, a cost the
        # server does not have (a tenth of a query-heavy request's CPU)
        count = [0]

        def counted(execute, sql, params, many, context):
            count[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):
            start, start_cpu = time.perf_counter(), time.process_time()
            result = function(*args, **kwargs)
            self.wall.append((time.perf_counter() - start) * 1000)
            self.cpu.append((time.process_time() - start_cpu) * 1000)
        self.queries.append(count[0])
        return result

    def line(self) -> str:
        tenth = max(len(self.wall) // 10, 1)
        first, last = statistics.mean(self.wall[:tenth]), statistics.mean(self.wall[-tenth:])
        return (f"{self.name:<28} {len(self.wall):>5} {statistics.median(self.wall):8.2f} "
                f"{statistics.median(self.cpu):8.2f} {first:8.2f} {last:8.2f} "
                f"{statistics.mean(self.queries):8.1f} {max(self.queries):6d}")


HEADER = (f"{'call':<28} {'calls':>5} {'ms med':>8} {'cpu med':>8} {'first10%':>8} {'last10%':>8} "
          f"{'queries':>8} {'most':>6}")


def director():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("bench", is_superuser=True)


def schafkopf_evening(user, players: int, rng) -> list:
    import datetime

    from scoring.games.schafkopf import services
    from scoring.games.schafkopf.demo import random_list, seated_tables
    from scoring.seated import services as seated_services
    from tournament.services.participants import add_participant
    from tournament.services.tournaments import create_tournament

    tournament = create_tournament(by=user, name="Hot paths Schafkopf", game="schafkopf",
                                   date=datetime.date(2026, 5, 1))
    add = Calls("schafkopf add_participant")
    for number in range(1, players + 1):
        add(add_participant, tournament, by=user, first_name=f"Anna{number}", last_name=f"Huber{number % 37}",
            club=f"Club {number % 11}")
    draw = Calls("schafkopf draw_seating")
    draw(seated_services.draw_seating, tournament, by=user, seed=2026)
    enter = Calls("schafkopf enter_sheet")
    settings = services.settings_of(tournament)
    for tables in seated_tables(tournament).values():
        for table in tables:
            entries = random_list(rng, settings.games_at(table.size), table.size)
            enter(services.enter_sheet, table.seats[0].table, by=user, mode="games", entries=entries)
    tournament.refresh_from_db()
    assert tournament.status == "finished", tournament.status
    return [add, draw, enter]


def voms_pools(user, teams: int, pools: int, rng) -> list:
    import datetime

    from scoring.games.voms.demo import random_game
    from scoring.games.voms.services.pools import draw_pools
    from scoring.games.voms.services.slips import record_slip
    from tournament.models import Match, Stage
    from tournament.services.participants import register_team
    from tournament.services.tournaments import create_tournament

    tournament = create_tournament(by=user, name="Hot paths Voms", game="voms", date=datetime.date(2026, 6, 20))
    register = Calls("voms register_team")
    for number in range(1, teams + 1):
        register(register_team, tournament, by=user, name="",
                 players=[f"Player {number}a Nielsen", f"Player {number}b Kleist"])
    draw = Calls("voms draw_pools")
    draw(draw_pools, tournament, by=user, pools=pools, seed=7)
    slip = Calls("voms record_slip")
    stage = Stage.objects.get(tournament=tournament, kind=Stage.Kind.POOLS)
    for match in Match.objects.filter(stage=stage, team_b__isnull=False).select_related(
            "stage__tournament", "round").order_by("round__number", "table_number"):
        slip(record_slip, match, by=user, entry=random_game(rng))
    tournament.refresh_from_db()
    # every pool game in: the knockout still to be built is a result still missing (voms.services.progress)
    assert tournament.status == "running", tournament.status
    return [register, draw, slip]


def main() -> None:
    import random

    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--teams", type=int, default=40)
    parser.add_argument("--pools", type=int, default=4)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-hotpaths-") as folder:
        setup_django(Path(folder))
        from django.conf import settings

        settings.DEBUG = False
        user = director()
        rng = random.Random(1)
        start = time.process_time()
        figures = schafkopf_evening(user, options.players, rng) + voms_pools(user, options.teams, options.pools, rng)
        total = time.process_time() - start
    print(f"{options.players} Schafkopf players, {options.teams} Voms teams in {options.pools} pools")
    print(HEADER)
    for calls in figures:
        print(calls.line())
    print(f"CPU seconds, everything: {total:.1f}")


if __name__ == "__main__":
    main()
