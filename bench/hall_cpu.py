"""Benchmark of the hall laptop's requests while the tables send their lists: CPU and queries per request of each
kind, in one process (Django's test client, no server, no network): figures printed, never asserted.

Run from the repository root: `.venv/bin/python bench/hall_cpu.py [--tables 100]`. In a throw-away SQLite database
(a throw-away folder) it builds the "tables" load scenario's tournament (bench/load_tables.py: 4 × `--tables`
players, round 1 entered, standings published, a link per table of round 2, an assistant), then, table after
table, makes the requests of the evening in the order they come in the hall:

- the table's phone opens its link, sends its list (the page's own form), and sees the page again;
- the assistant at the referee table opens the table's list and presses Confirm;
- a phone polls the public standings' live region with the fingerprint it has (204 when nothing changed).

CPU time is the process's; on a shared machine it is the steadier figure than wall time. Run the same command on
two versions side by side (at the same time) to compare them under the same load. The public regions are rendered
in the request (PUBLIC_RENDER_SECONDS 0), which is the most a hall pays per change.
"""

import argparse
import cProfile
import os
import pstats
import random
import re
import sys
import tempfile
import time
import traceback
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.hotpaths import HEADER, Calls, setup_django  # noqa: E402

PASSWORD = "bench-hall-password-1"
#: what a browser posts a form as (the test client's default, multipart, costs more to parse)
FORM = "application/x-www-form-urlencoded"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--profile", metavar="KIND", default="",
                        help="profile every request of this kind (e.g. 'phone send') and print where its CPU goes")
    parser.add_argument("--sql", metavar="KIND", default="",
                        help="print the statements of the last request of this kind and the line of ours making each")
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    os.environ.setdefault("PUBLIC_RENDER_SECONDS", "0")
    os.environ["STATIC_ROOT"] = str(folder / "static")  # the hashed static files, collected as `serve` does
    setup_django(folder)
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from bench.load_tables import ROUND, SLUG, build_tournament, confirm_form, phone_post_data
    from scoring.games.schafkopf.demo import random_list

    call_command("collectstatic", interactive=False, verbosity=0)
    setup_test_environment()  # the test client's hosts; DEBUG stays as the settings have it
    settings.ALLOWED_HOSTS = ["*"]
    _tournament, tokens, sizes, _figures = build_tournament(options.tables, 1, PASSWORD)
    rng = random.Random(3)
    phone, desk, viewer = Client(), Client(), Client()
    assert desk.login(username="assistant1", password=PASSWORD)
    calls = {name: Calls(name) for name in ("phone page", "phone send", "phone after", "list page", "confirm",
                                            "poll (changed)", "poll (204)")}
    if options.profile:
        profile = cProfile.Profile(time.process_time)
        calls[options.profile] = Profiled(calls[options.profile], profile)
    if options.sql:
        calls[options.sql] = Statements(calls[options.sql])
    live = reverse("public:live", kwargs={"slug": SLUG, "page": "standings"})
    since = ""
    for number, token in sorted(tokens.items()):
        games, size = sizes[number]
        page = calls["phone page"](phone.get, f"/t/{token}/").content.decode()
        calls["phone send"](phone.post, f"/t/{token}/", urlencode(phone_post_data(page, random_list(rng, games, size))),
                            content_type=FORM)
        calls["phone after"](phone.get, f"/t/{token}/")
        path = f"/manage/{SLUG}/schafkopf/rounds/{ROUND}/tables/{number}/"
        fields = confirm_form(calls["list page"](desk.get, path).content.decode())
        answer = calls["confirm"](desk.post, path, urlencode(fields), content_type=FORM)
        assert answer.status_code == 302, answer.status_code
        polled = calls["poll (changed)"](viewer.get, live, {"since": since})
        found = re.search(r'since=([0-9a-f]+)', polled.content.decode())
        since = found.group(1) if found else since
        assert calls["poll (204)"](viewer.get, live, {"since": since}).status_code == 204
    print(f"hall requests, {options.tables} tables (Schafkopf, 4 players a table, 30 games a list), in one process")
    print(HEADER)
    for call in calls.values():
        print(call.line())
    every = [cpu for call in calls.values() for cpu in call.cpu]
    print(f"CPU per request, all kinds: {sum(every) / len(every):.1f} ms mean")
    if options.sql:
        print(f"\nthe statements of the last '{options.sql}'")
        for number, (line, sql) in enumerate(calls[options.sql].last, 1):
            print(f"{number:3} {line}\n      {sql[:300]}")
    if options.profile:
        print(f"\nwhere the CPU of '{options.profile}' goes (the profiler's own cost included)")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(60)
        pstats.Stats(profile).sort_stats("tottime").print_stats(40)
        profile.dump_stats(folder / "profile.pstats")
        print(f"the whole profile: {folder / 'profile.pstats'} (python -m pstats)")


class Profiled:
    """A Calls whose every call runs under the profiler."""

    def __init__(self, calls, profile: cProfile.Profile):
        self.calls, self.profile = calls, profile

    def __call__(self, function, *args, **kwargs):
        return self.calls(self.profile.runcall, function, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.calls, name)


class Statements:
    """A Calls that keeps the statements of its last call, each with the line of the project's code that made it."""

    def __init__(self, calls):
        self.calls, self.last = calls, []

    def __call__(self, function, *args, **kwargs):
        from django.db import connection

        statements = []

        def record(execute, sql, params, many, context):
            ours = [frame for frame in traceback.extract_stack()
                    if "/site-packages/" not in frame.filename and "/bench/" not in frame.filename
                    and not frame.filename.endswith("prepared.py")
                    and frame.filename.startswith(str(ROOT))]
            line = f"{Path(ours[-1].filename).relative_to(ROOT)}:{ours[-1].lineno} {ours[-1].name}" if ours else "?"
            statements.append((line, sql))
            return execute(sql, params, many, context)

        with connection.execute_wrapper(record):
            answer = self.calls(function, *args, **kwargs)
        self.last = statements
        return answer

    def __getattr__(self, name):
        return getattr(self.calls, name)


if __name__ == "__main__":
    main()
