"""Load scenario "tables": every table of a Schafkopf tournament sends its list from a phone through its private
link, while phones poll the public standings and assistants at the referee table confirm what arrives.

Run from the repository root: `.venv/bin/python bench/load.py tables [--tables 500] [--seconds 300]
[--viewers 200] [--assistants 2] [--resend 0.05] [--phone-threads 100] [--drain 240]`, or `--quick` for a smoke
run (20 tables, 10 viewers, 30 s).

What it does, all on 127.0.0.1 and in a temporary folder that is removed at the end:

1. a throw-away SQLite database, the secret key and the public pages' cache in that folder; migrate; the
   tournament built through the director's services (4 × `--tables` players imported, 2 rounds drawn, every
   list of round 1 entered, the standings published, a private link issued for every table of round 2,
   `--assistants` assistant accounts);
2. the hall set-up's production server, started as `HOST=0.0.0.0 make run` starts it (`manage.py serve` with
   HALL=1: DEBUG off, static files collected and served by whitenoise, waitress with `--threads` threads in
   serve's child process), but bound to 127.0.0.1;
3. every table sends round 2's list once, at a random moment of `--seconds` (the five minutes after a round
   ends): its phone opens the link (GET /t/<token>/), posts the list as the phone page's form posts it (the
   form's hidden fields, CSRF cookie and token, the 30 or 40 game rows) and follows the redirect; a share
   `--resend` of the tables sends the same form twice at the same moment from two connections (a double tap, a
   second phone of the table), which must store it once;
4. meanwhile `--viewers` phones poll the public standings as in the default scenario, and each assistant
   logs in, takes the next list that arrived, opens the table's list at the referee table and presses
   Confirm (the form on that page); a confirmation refused because the first entry changed is tried again;
5. after the window the assistants confirm what is still waiting (at most `--drain` seconds); then the server
   is stopped and the database counted: every list answered "sent" is stored, once, with exactly the games
   posted (as a first entry or, once confirmed, as the counted list with one revision); nothing is stored
   for a table whose phone was not answered; no table has two first entries in the audit log;
6. prints p50/p95/p99/max per kind of request, the counts, lost and doubled entries, and the load average.

Bounded: one send (and the share of resends) per table, polls at the page's interval, confirmations as many
as lists sent; every request times out after 30 s.
"""

from __future__ import annotations

import argparse
import html
import os
import queue
import random
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench._server import (
    Server,
    cpu_line,
    error_lines,
    latency_lines,
    load_line,
    load_sampler,
    server_errors,
    summary,
    tear_down,
)
from bench.load import ROOT, Client, Recorder, grid_of, list_games, log_in, viewer

SLUG = "bench-tables"
ROUND = 2
#: the phone page's list form, and the referee table's Confirm form
LIST_FORM = re.compile(r'<form\b[^>]*\bid="sk-list"[^>]*>(.*?)</form>', re.S)
FORM = re.compile(r"<form\b[^>]*>(.*?)</form>", re.S)


# --- pure parts (tests/ops/test_load_bench.py) ------------------------------------------------------------------


def hidden_fields(form_html: str) -> dict[str, str]:
    """The hidden inputs of a form (the CSRF token, a form key, a version) as the browser sends them."""
    fields = {}
    for tag in re.findall(r"<input\b[^>]*>", form_html):
        if re.search(r'\btype="hidden"', tag):
            name, value = re.search(r'\bname="([^"]*)"', tag), re.search(r'\bvalue="([^"]*)"', tag)
            if name:
                fields[html.unescape(name.group(1))] = html.unescape(value.group(1)) if value else ""
    return fields


def phone_post_data(page: str, entries: list[dict]) -> dict[str, str] | None:
    """What the phone page's list form posts for these games: its hidden fields and the game rows; None when
    the page has no list form (a refused link, a list that counts already)."""
    from scoring.games.schafkopf.forms import grid_values

    found = LIST_FORM.search(page)
    if found is None:
        return None
    data = hidden_fields(found.group(1))
    for number, entry in enumerate(entries, start=1):
        data.update({f"{key}{number}": value for key, value in grid_values(entry).items()})
    return data


def confirm_form(page: str) -> dict[str, str] | None:
    """The fields of the referee table's Confirm form in a list's page, or None when it has none."""
    for form in FORM.findall(page):
        fields = hidden_fields(form)
        if fields.get("action") == "confirm":
            return fields
    return None


def send_times(tables: list[int], seconds: float, resend: float, seed: int = 13) -> list[tuple[float, int, bool]]:
    """(when, table, twice) for every table, in time order: each table sends at a random moment of the window;
    a share `resend` of them sends the same form twice at once (a double tap, or a second phone of the table)."""
    rng = random.Random(seed)
    return sorted((rng.uniform(0, seconds), number, rng.random() < resend) for number in tables)


# --- the clients ---------------------------------------------------------------------------------------------------


class Phones:
    """Phone threads taking the sends in time order: each waits for its moment, opens the link, sends the list."""

    def __init__(self, port: int, recorder: Recorder, tokens: dict[int, str], sizes: dict[int, tuple[int, int]],
                 sends: list[tuple[float, int, bool]], arrived: queue.Queue, start: float):
        self.port, self.recorder, self.tokens, self.sizes = port, recorder, tokens, sizes
        self.sends, self.arrived, self.start = sends, arrived, start
        self.lock = threading.Lock()
        self.next = 0
        #: table → outcome of its send ("sent", or why not); `resends`: of the second copy of a form sent twice
        self.outcomes: dict[int, str] = {}
        self.resends: dict[int, str] = {}
        self.late: list[float] = []

    def take(self):
        with self.lock:
            if self.next >= len(self.sends):
                return None
            self.next += 1
            return self.sends[self.next - 1]

    def run(self, stop: threading.Event) -> None:
        while (send := self.take()) is not None:
            when, number, twice = send
            if stop.wait(max(0.0, self.start + when - time.monotonic())):
                return
            with self.lock:
                self.late.append(max(0.0, time.monotonic() - self.start - when))
            outcome = self.send(number, twice)
            with self.lock:
                self.outcomes[number] = outcome
            if outcome.startswith("sent"):
                self.arrived.put(number)

    def send(self, number: int, twice: bool) -> str:
        """One phone: opens the link, posts the list as its form does (`twice`: the same form from a second
        connection at the same moment), follows the redirect. When no answer comes (a timeout, a dropped
        connection), the person sends again once, as anyone would: the page anew, the list again."""
        outcome = self.attempt(number, twice, first=True)
        if outcome in ("page not loaded", "no answer"):
            self.recorder.retried()
            outcome = self.attempt(number, False, first=False)
            return "sent after a retry" if outcome == "sent" else outcome
        return outcome

    def attempt(self, number: int, twice: bool, *, first: bool) -> str:
        client = Client(self.port, self.recorder, gzip=True)
        other = again = None
        try:
            path = f"/t/{self.tokens[number]}/"
            answer = client.request("phone page", "GET", path)
            if answer is None:
                return "page not loaded"
            data = phone_post_data(answer[2], list_games(number, *self.sizes[number]))
            if data is None:
                self.recorder.error("phone page", f"table {number}: no list form", "no list form")
                return "no list form"
            if twice:
                other = Client(self.port, self.recorder, gzip=True)
                other.cookies = dict(client.cookies)
                again = threading.Thread(target=self.send_again, args=(other, number, path, data))
                again.start()
            # a second attempt may find the list counted already (confirmed meanwhile): the page shows it, 200
            answer = client.request("phone send", "POST", path, data, expect=(302,) if first else (200, 302))
            if again is not None:
                again.join(timeout=60)
            if answer is None:  # no answer at all (a timeout, a dropped connection), or a refusal with a status
                return "no answer" if client.last_status is None else "refused"
            if answer[0] == 302:
                client.request("phone after", "GET", urlsplit(answer[1].getheader("Location")).path)
            return "sent"
        finally:
            client.close()
            if other is not None:
                other.close()

    def send_again(self, client: Client, number: int, path: str, data: dict) -> None:
        # 302 as the first copy; 200 when the first was confirmed meanwhile (the page shows the counted list)
        answer = client.request("phone send", "POST", path, data, expect=(200, 302))
        outcome = "sent" if answer is not None else "no answer" if client.last_status is None else "refused"
        with self.lock:
            self.resends[number] = outcome


def assistant(port: int, recorder: Recorder, slug: str, username: str, password: str, arrived: queue.Queue,
              confirmed: dict, done: threading.Event, halt: threading.Event) -> None:
    """At the referee table: logs in, then confirms each list that arrives, in the order they arrived, until
    `done` is set and nothing is waiting, or `halt` (the time for confirming is over)."""
    client = Client(port, recorder)
    if not log_in(client, username, password):
        return
    for _step in range(100_000):  # bounded; `done` ends it long before
        if halt.is_set():
            break
        try:
            number = arrived.get(timeout=0.2)
        except queue.Empty:
            if done.is_set():
                break
            continue
        confirmed[number] = confirm(client, recorder, slug, number)
    client.close()


def confirm(client: Client, recorder: Recorder, slug: str, number: int, tries: int = 3) -> str:
    path = f"/manage/{slug}/schafkopf/rounds/{ROUND}/tables/{number}/"
    for _try in range(tries):
        answer = client.request("list page", "GET", path)
        if answer is None:
            return "page not loaded"
        fields = confirm_form(answer[2])
        if fields is None:
            recorder.error("list page", f"table {number}: no Confirm form", "no Confirm form")
            return "nothing to confirm"
        answer = client.request("confirm", "POST", path, fields, expect=(302,))
        if answer is None:
            return "refused or failed"
        if urlsplit(answer[1].getheader("Location")).path != path:  # on to the next list: it counts
            return "confirmed"
        recorder.retried()  # refused with a message (the first entry changed meanwhile): look again
    return "refused"


# --- building and checking ------------------------------------------------------------------------------------


def build_tournament(tables: int, assistants: int, password: str) -> tuple:
    """4 × `tables` players, 2 rounds drawn, round 1's lists entered, standings published, a link per table of
    round 2, the assistants; returns the tournament, {table: token}, {table: (games, size)} and the figures."""
    from django.contrib.auth import get_user_model

    from bench.schafkopf import build, timed
    from bench.schafkopf import director as bench_director
    from scoring.games.schafkopf import services
    from scoring.games.schafkopf.config import settings_of
    from scoring.games.schafkopf.demo import random_list
    from scoring.results.links import current_token, issue_links
    from scoring.seated.queries import seated_tables
    from tournament.models import Role, Round, TournamentRole
    from tournament.services.publishing import set_publication

    tournament, figures = build(4 * tables, SLUG, results=False)
    user = bench_director()
    settings = settings_of(tournament)
    seated = seated_tables(tournament)
    rng = random.Random(7)

    def enter_round_one():
        for table in seated[1]:
            entries = random_list(rng, settings.games_at(table.size), table.size)
            services.enter_sheet(table.seats[0].table, by=user, mode="games", entries=entries)

    _nothing, figures["round 1"] = timed(enter_round_one)
    set_publication(tournament, by=user, kinds=["schedule", "standings", "results"])
    round_two = Round.objects.get(stage__tournament=tournament, number=ROUND)
    links, figures["links"] = timed(issue_links, round_two, by=user)
    tokens = {link.table.number: current_token(link) for link in links}
    for number in range(1, assistants + 1):
        account = get_user_model().objects.create_user(f"assistant{number}", password=password)
        TournamentRole.objects.create(tournament=tournament, user=account, role=Role.ASSISTANT)
    sizes = {table.number: (settings.games_at(table.size), table.size) for table in seated[ROUND]}
    return tournament, tokens, sizes, figures


def check(tournament, sizes: dict[int, tuple[int, int]], outcomes: dict[int, str], confirmed: dict[int, str]) -> dict:
    """What the database holds for round 2 against what the phones and the assistants were answered."""
    from django.db.models import Count

    from scoring.models import PendingSheet, ScoreSheet
    from tournament.models import AuditEntry

    sheets = {sheet.table.number: sheet for sheet in
              ScoreSheet.objects.filter(tournament=tournament, table__round__number=ROUND)
              .select_related("table").annotate(revision_count=Count("revisions"))}
    pending = {p.table.number: p for p in
               PendingSheet.objects.filter(tournament=tournament, table__round__number=ROUND).select_related("table")}
    sent = {number for number, outcome in outcomes.items() if outcome.startswith("sent")}
    lost, different = [], []
    for number in sorted(sent):
        stored = sheets.get(number) or pending.get(number)
        if stored is None:
            lost.append(number)
        elif grid_of(stored.entries) != grid_of(list_games(number, *sizes[number])):
            different.append(number)
    first_entries = AuditEntry.objects.filter(tournament=tournament, action="sheet.first_entry")
    per_table = {}
    for repr_ in first_entries.values_list("object_repr", flat=True):
        per_table[repr_] = per_table.get(repr_, 0) + 1
    said_confirmed = {number for number, outcome in confirmed.items() if outcome == "confirmed"}
    return {
        "sent": len(sent),
        "stored": len(set(sheets) | set(pending)),
        "counted": len(sheets),
        "awaiting": len(pending),
        "lost": lost,
        "different": different,
        "twice": sorted([n for n, s in sheets.items() if s.revision_count != 1 or s.version != 1]
                        + [n for n in pending if n in sheets]),
        "first entries twice": sorted(name for name, count in per_table.items() if count > 1),
        "first entries": first_entries.count(),
        # told it was refused, yet stored: a real fault; stored while the phone got no answer: the phone did not
        # learn it was sent (it would see it on reload), nothing is lost
        "stored without success": sorted(n for n in set(sheets) | set(pending)
                                         if outcomes.get(n, "never sent") in ("refused", "no list form", "never sent")),
        "stored, phone had no answer": sorted(n for n in set(sheets) | set(pending)
                                              if outcomes.get(n) in ("no answer", "page not loaded")),
        "confirmed": len(said_confirmed),
        "confirmed but not counted": sorted(said_confirmed - set(sheets)),
        "confirmations": {outcome: list(confirmed.values()).count(outcome) for outcome in set(confirmed.values())},
        "outcomes": {outcome: list(outcomes.values()).count(outcome) for outcome in set(outcomes.values())},
    }


def failures(result: dict) -> list[str]:
    """The names of what must be empty: lost, doubled or unexplained entries."""
    return [name for name in ("lost", "different", "twice", "first entries twice", "stored without success",
                              "confirmed but not counted") if result[name]]


# --- running it ------------------------------------------------------------------------------------------------


def run_load(port: int, slug: str, tokens: dict, sizes: dict, *, seconds: float, viewers: int, poll: float,
             assistants: list[tuple[str, str]], resend: float, phone_threads: int, drain: float,
             recorder: Recorder | None = None) -> dict:
    """The load itself against a server on 127.0.0.1:`port`: phones sending, viewers polling, assistants
    confirming; returns the recorder and what each side was answered (the pure bookkeeping; the server and the
    database are the caller's)."""
    recorder = recorder or Recorder()
    arrived, confirmed, loads = queue.Queue(), {}, []
    stop_viewers, stop_phones, done, halt = threading.Event(), threading.Event(), threading.Event(), threading.Event()
    start = time.monotonic()
    phones = Phones(port, recorder, tokens, sizes, send_times(sorted(tokens), seconds, resend), arrived, start)
    phone_pool = [threading.Thread(target=phones.run, args=(stop_phones,), daemon=True)
                  for _ in range(phone_threads)]
    helpers = [threading.Thread(target=assistant, args=(port, recorder, slug, name, password, arrived, confirmed,
                                                        done, halt), daemon=True)
               for name, password in assistants]
    others = [threading.Thread(target=load_sampler, args=(loads, stop_viewers), daemon=True)]
    others += [threading.Thread(target=viewer, args=(port, recorder, slug, poll, stop_viewers, seed), daemon=True)
               for seed in range(viewers)]
    load_before = os.getloadavg()[0]
    for thread in [*phone_pool, *helpers, *others]:
        thread.start()
    for thread in phone_pool:  # every send is due within the window; one send is 3 requests of at most 30 s
        thread.join(timeout=max(1.0, start + seconds + 120 - time.monotonic()))
    stop_phones.set()
    window = time.monotonic() - start
    done.set()  # the assistants confirm what is still waiting, then stop
    for thread in helpers:
        thread.join(timeout=max(1.0, start + seconds + drain - time.monotonic()))
    halt.set()  # what is not confirmed by now stays awaiting confirmation (counted as such)
    for thread in helpers:
        thread.join(timeout=35)
    stop_viewers.set()
    for thread in others:
        thread.join(timeout=35)
    still = sum(thread.is_alive() for thread in [*phone_pool, *helpers, *others])
    if still:
        recorder.error("client", f"{still} threads still busy at the end", "unfinished")
    return {"recorder": recorder, "outcomes": phones.outcomes, "resends": phones.resends, "confirmed": confirmed,
            "late": phones.late, "window": window, "seconds": time.monotonic() - start, "loads": loads,
            "load before": load_before, "load after": os.getloadavg()[0]}


KINDS = ("phone page", "phone send", "phone after", "public page", "static file", "poll 200", "poll 204",
         "login page", "login", "list page", "confirm")


def report(run: dict, result: dict, server: dict) -> int:
    recorder = run["recorder"]
    print()
    print("\n".join(latency_lines(recorder, KINDS)))
    errors_5xx = server_errors(recorder)
    requests = sum(len(v) for v in recorder.latencies.values())
    late = summary(run["late"]) if run["late"] else None
    print(f"\nrequests   {requests} answered in {run['seconds']:.0f} s "
          f"(sends within {run['window']:.0f} s), {errors_5xx} with 5xx; {len(recorder.errors)} errors; "
          f"{recorder.retries} retries (GET on a closed kept-alive connection, confirmation looked at again)")
    if late:
        print(f"phones     sends started late by p95 {late['p95'] * 1000:.0f} ms, max {late['max'] * 1000:.0f} ms "
              f"(all phone threads busy)")
    for line in error_lines(recorder):
        print(line)
    resends = {o: list(run["resends"].values()).count(o) for o in set(run["resends"].values())}
    print(f"lists      {result['sent']} sent (answer 302), {len(run['resends'])} sent twice ({resends}); "
          f"{result['stored']} stored: {result['counted']} counted, {result['awaiting']} awaiting confirmation")
    print(f"           lost {len(result['lost'])}, stored differently {len(result['different'])}, doubled "
          f"{len(result['twice'])}, two first entries {len(result['first entries twice'])}, stored although the "
          f"phone was refused {len(result['stored without success'])}, stored while the phone got no answer "
          f"{len(result['stored, phone had no answer'])}; phone outcomes {result['outcomes']}")
    print(f"confirmed  {result['confirmed']} by the assistants ({result['confirmations']}), confirmed but not "
          f"counted {len(result['confirmed but not counted'])}; {result['first entries']} first entries in the "
          f"audit log")
    for name in failures(result):
        print(f"  {name}: {result[name][:20]}")
    print(f"server log {server['log']}")
    print(cpu_line(server["cpu"], requests, **{"this client": server["cpu client"]}))
    print(load_line(run["load before"], run["loads"], run["load after"]))
    return 1 if errors_5xx or recorder.errors or failures(result) else 0


def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/load.py tables", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="tables of 4 (4 × this many players)")
    parser.add_argument("--seconds", type=float, default=300, help="the window in which every table sends")
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--poll", type=float, help="seconds between polls (default: PUBLIC_POLL_SECONDS)")
    parser.add_argument("--assistants", type=int, default=2)
    parser.add_argument("--resend", type=float, default=0.05, help="share of tables that send their list twice")
    parser.add_argument("--phone-threads", type=int, default=100, help="phones sending at the same moment, at most")
    parser.add_argument("--drain", type=float, default=240,
                        help="seconds after the window for the assistants to confirm what is still waiting")
    parser.add_argument("--threads", type=int, default=8, help="waitress's threads (the hall's: 8)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 20 tables (a quarter sent twice), 10 viewers, 30 s, polls every 3 s")
    options = parser.parse_args(argv)
    if options.quick:
        options.tables, options.viewers, options.seconds, options.drain, options.resend = 20, 10, 30, 60, 0.25
        options.poll = options.poll or 3
    return options


def main(argv=None) -> int:
    options = parse(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-tables-"))
    server = collect = None
    try:
        environment = {
            "HALL": "1", "DATA_DIR": str(folder / "data"), "SQLITE_PATH": str(folder / "data" / "db.sqlite3"),
            "STATIC_ROOT": str(folder / "static"), "BACKUP_DIR": str(folder / "backups"),
            "PUBLIC_CACHE_DIR": str(folder / "data" / "public-cache"), "LOG_LEVEL": "WARNING",
        }
        for name in ("DATABASE_URL", "SECRET_KEY", "REDIS_URL", "PUBLIC_BASE_URL"):
            os.environ.pop(name, None)  # the hall's set-up: SQLite, the key generated in data/
        os.environ.update(environment)
        from bench.schafkopf import calibration, timed

        sys.path.insert(0, str(ROOT))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connections

        _nothing, seconds = timed(call_command, "migrate", verbosity=0)
        print(f"setup      SQLite in {folder}, migrate {seconds:.1f} s")
        # collecting the static files (as `serve` does in the hall) takes a while: meanwhile, the build
        collect = subprocess.Popen([sys.executable, "manage.py", "shell", "-c",
                                    "from tournament.management.commands.serve import Command; "
                                    "Command().collect_static()"], cwd=ROOT, env=os.environ.copy(),
                                   stdout=subprocess.DEVNULL)
        password = secrets.token_urlsafe(16)
        tournament, tokens, sizes, figures = build_tournament(options.tables, options.assistants, password)
        print(f"tournament {4 * options.tables} players imported ({figures['import']:.1f} s), 2 rounds drawn "
              f"({figures['draw_service']:.1f} s), round 1's {len(sizes)} lists entered ({figures['round 1']:.1f} s), "
              f"standings published, {len(tokens)} links issued for round {ROUND} ({figures['links']:.1f} s)")
        # The draw queued every round's score sheets for the print worker (`serve` runs it). In the hall they are
        # printed before play, long before the tables send; left queued, the worker would lay out 2 rounds of PDFs
        # during the run and their CPU would count as the sending hall's. Their own figure: docs/performance.md
        # ("500 score lists ready after the draw").
        from tournament.models import PrintJob

        dropped, _kinds = PrintJob.objects.filter(tournament=tournament).delete()
        print(f"print jobs {dropped} rows of the draw's print jobs removed (printed before play in the hall)")
        connections.close_all()
        if collect.wait(timeout=600) != 0:
            raise RuntimeError("collecting the static files failed")

        server = Server([sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", "{port}",
                         "--threads", str(options.threads), "--no-demo"],
                        folder / "server.log", ROOT)
        port = server.start()
        poll = options.poll or settings.PUBLIC_POLL_SECONDS
        print(f"server     `manage.py serve` (HALL=1) on 127.0.0.1:{port}: waitress, {options.threads} threads")
        print(f"load       {len(tokens)} tables send within {options.seconds:g} s ({options.resend:.0%} twice, at "
              f"most {options.phone_threads} at once), {options.viewers} viewers polling every {poll:g} s, "
              f"{options.assistants} assistants confirming")
        print(f"machine    `sum(range(10**6))` takes {calibration() * 1000:.0f} ms here")
        server.measure()
        cpu_client = time.process_time()
        assistants = [(f"assistant{n}", password) for n in range(1, options.assistants + 1)]
        run = run_load(port, SLUG, tokens, sizes, seconds=options.seconds, viewers=options.viewers, poll=poll,
                       assistants=assistants, resend=options.resend, phone_threads=options.phone_threads,
                       drain=options.drain)
        figures = {"cpu": server.cpu(), "cpu client": time.process_time() - cpu_client}
        figures["log"] = server.stop()
        return report(run, check(tournament, sizes, run["outcomes"], run["confirmed"]), figures)
    finally:
        tear_down(folder, collect, server)
