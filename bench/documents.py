"""Benchmark of the document renderers: seconds and peak memory, printed, never asserted.

Run from the repository root: `.venv/bin/python bench/documents.py` (no database needed).
Each case runs in its own process, so each peak memory figure is that case's alone.

- pdf-pages: 500 score lists, one page each (30 rows x 8 columns), as `render_pdf_pages` does it:
  in batches of 25 pages laid out by worker processes (one per core), joined with pypdf.
- pdf-one: the same 500 pages in one process, one HTML laid out once (the renderer's way for
  printouts under 50 pages), kept to compare.
- pdf-copy (only when named: `bench/documents.py pdf-copy`): the same pages as a WeasyPrint
  document per page, joined with `Document.copy(pages).write_pdf()`, kept to compare.
- pdf-table: a 2,000-row TableDocument, cut into page-sized tables.
- xlsx: a 2,000-row TableDocument to Excel (write-only mode).
"""

import datetime
import os
import resource
import subprocess
import sys
import tempfile
import time
import types
from decimal import Decimal
from pathlib import Path

from procstat import MemorySampler

ROOT = Path(__file__).resolve().parent.parent
CASES = ("pdf-pages", "pdf-one", "pdf-table", "xlsx")
PAGES = 500
ROWS = 2000

SCORE_LIST = """{% load i18n %}<h1>Table {{ table }} · Round {{ round }}</h1>
<p class="subtitle">{{ players|join:" · " }}</p>
<table><thead><tr>{% for title in titles %}<th{% if not forloop.first %} class="right"{% endif %}>{{ title }}</th>
{% endfor %}</tr></thead><tbody>{% for row in rows %}<tr>{% for cell in row %}<td{% if not forloop.first %}
 class="right"{% endif %}>{{ cell }}</td>{% endfor %}</tr>{% endfor %}</tbody></table>
"""


def setup_django(template_dir: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    # The bench's page template lives in a temporary folder, not among the project's templates.
    settings.TEMPLATES[0]["DIRS"] = [*settings.TEMPLATES[0]["DIRS"], template_dir]
    import django

    django.setup()


def fake_tournament():
    return types.SimpleNamespace(
        name="Nordic Schafkopf Open", date=datetime.date(2026, 1, 17), venue="Kulturhaus Flensburg", language="de",
        time_zone="Europe/Berlin",
    )


def score_list_pages() -> list[dict]:
    titles = ["Game", "Anna", "Bernd", "Carla", "Dieter", "Game type", "Tariff", "Total"]
    rows = [
        [n, 20 * (n % 3), -10 * (n % 2), 30, -40, "Solo" if n % 5 == 0 else "Rufspiel", Decimal("2.5"), 100 + n]
        for n in range(1, 31)
    ]
    players = ["Anna Berger", "Bernd Christiansen", "Carla Dahl", "Dieter Ebbesen"]
    return [{"table": n, "round": 1 + n % 3, "players": players, "titles": titles, "rows": rows} for n in range(PAGES)]


def table_document():
    from documents import Column, TableDocument

    columns = [
        Column("rank", "Rank", "int"),
        Column("name", "Player"),
        Column("club", "Club"),
        Column("points", "Points", "decimal"),
        Column("games", "Games", "int"),
        Column("date", "Registered", "date"),
    ]
    rows = [
        (n, f"Player {n}", "=Club" if n % 7 == 0 else "Club", Decimal(n) / 2, n % 40, datetime.date(2026, 1, 1))
        for n in range(1, ROWS + 1)
    ]
    return TableDocument("Final ranking", columns, rows, notes=["* decided by lot"], filename_stem="ranking")


def run_pdf_pages(tournament) -> tuple[bytes, str]:
    from documents.pdf import render_pdf_pages

    return render_pdf_pages("score_list.html", score_list_pages(), tournament=tournament, title="Score lists"), "pages"


def run_pdf_one(tournament) -> tuple[bytes, str]:
    from documents import pdf

    pdf.worker_count = lambda: 1  # the one-process path
    return run_pdf_pages(tournament)


def run_pdf_copy(tournament) -> tuple[bytes, str]:
    from django.template.loader import render_to_string
    from django.utils import translation
    from weasyprint import HTML

    from documents.pdf import render_frame, static_dir
    from documents.pdf_writer import LocalFileFetcher

    root = static_dir()
    with translation.override(tournament.language):
        documents = [
            HTML(
                string=render_frame(
                    [render_to_string("score_list.html", page)], tournament=tournament, title="", landscape=False
                ),
                base_url=root.as_uri() + "/",
                url_fetcher=LocalFileFetcher(root),
            ).render()
            for page in score_list_pages()
        ]
    pages = [page for document in documents for page in document.pages]
    return documents[0].copy(pages).write_pdf(), "pages"


def run_pdf_table(tournament) -> tuple[bytes, str]:
    from documents.pdf import render_pdf

    return render_pdf(table_document(), tournament=tournament), "pages"


def run_xlsx(tournament) -> tuple[bytes, str]:
    from documents.xlsx import render_xlsx

    return render_xlsx(table_document(), tournament=tournament), "rows"


def run_case(case: str) -> None:
    with tempfile.TemporaryDirectory() as template_dir:
        (Path(template_dir) / "score_list.html").write_text(SCORE_LIST)
        setup_django(template_dir)
        runner = {"pdf-pages": run_pdf_pages, "pdf-one": run_pdf_one, "pdf-copy": run_pdf_copy,
                  "pdf-table": run_pdf_table, "xlsx": run_xlsx}
        sampler = MemorySampler()  # this process and its workers together
        sampler.start()
        start = time.perf_counter()
        data, unit = runner[case](fake_tournament())
        seconds = time.perf_counter() - start
        sampler.stop()
        cpu = sampler.cpu_seconds()
    peak_mib = max(sampler.peak / 2**20, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    count = count_pdf_pages(data) if unit == "pages" else ROWS
    print(
        f"{case:10} {count:5} {unit:5} {seconds:7.1f} s wall {cpu:7.1f} s CPU"
        f"  peak {peak_mib:6.0f} MiB  {len(data) / 1024:6.0f} KiB"
    )


def count_pdf_pages(data: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader

    return len(PdfReader(BytesIO(data)).pages)


def main() -> None:
    if sys.argv[1:2] == ["--case"]:
        run_case(sys.argv[2])  # the child process of one case
        return
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for case in sys.argv[1:] or CASES:
        subprocess.run([sys.executable, __file__, "--case", case], check=True)


if __name__ == "__main__":
    main()
