"""Golden test: what the seated games and Voms show today, pinned before the seated layer is folded (issue 24).

For seeded demos of Schafkopf, a domino variant, Rummi, a patience and Voms (results entered through the services a
director uses) it records every document of the game's catalogue — table documents as their title, column titles and
formatted rows (the standings after each round are documents too), printed documents as the text of their rendered
pages — the audit keys the evening wrote, and every URL name of the site with its route. The snapshot is
`tests/golden/<name>.json`; a refactor must leave it unchanged. Only a documented decision may change it: regenerate
with `GOLDEN_UPDATE=1 pytest -n 0 tests/golden` and name every changed key in the commit message.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from documents.base import MultiSheetDocument, PrintDocument, TableDocument, format_value, tables_of, venue_locale
from scoring.games import get_game
from tests.conftest import new_director
from tournament.models import AuditEntry

HERE = Path(__file__).parent
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"

DEMOS = {
    "schafkopf": ("schafkopf", {"players": 18}),
    "domino": ("domino", {"players": 12}),
    "rummi": ("rummi", {"players": 12}),
    "patience": ("domino_patience", {"players": 9}),
    "voms": ("voms", {"teams": 8, "pools": 2}),
}

TAG = re.compile(r"<[^>]+>")
SPACE = re.compile(r"\s+")
ADDRESS = re.compile(r"0x[0-9a-f]+")
#: a time as Django writes it in English: "3:19 p.m.", "4 p.m." on the hour, "noon", "midnight"
CLOCK = re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?( [ap]\.m\.)?|\b\d{1,2} [ap]\.m\.|\bnoon\b|\bmidnight\b")
DAY = re.compile(r"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* \d{4}\b")
TOKEN = re.compile(r"/t/[A-Za-z0-9_-]{8,}")


def text_of(markup: str) -> str:
    """What a reader sees of rendered HTML: tags dropped, spaces folded, object addresses and link tokens masked."""
    without_svg = re.sub(r"<svg.*?</svg>", "[svg]", markup, flags=re.S)
    without_style = re.sub(r"<style.*?</style>", "", without_svg, flags=re.S)
    visible = html.unescape(TAG.sub(" ", without_style))
    return TOKEN.sub("/t/<token>", ADDRESS.sub("0x", SPACE.sub(" ", visible).strip()))


def today_masked(value: str, today: list[str]) -> str:
    for text in today:
        value = value.replace(text, "<today>")
    return TOKEN.sub("/t/<token>", value)


def snapshot_document(document, today: list[str]) -> dict:
    if isinstance(document, TableDocument | MultiSheetDocument):
        return {
            "title": str(document.title),
            "tables": [
                {
                    "title": str(table.title),
                    "subtitle": today_masked(str(table.subtitle), today),
                    "notes": [today_masked(str(note), today) for note in table.notes],
                    "columns": [str(column.title) for column in table.columns],
                    "rows": [[today_masked(format_value(value), today) for value in row] for row in table.row_values()],
                }
                for table in tables_of(document)
            ],
        }
    assert isinstance(document, PrintDocument), type(document)
    pages = [today_masked(text_of(render_to_string(document.template_name, page)), today)
             for page in document.page_contexts()]
    underlays = {}
    if document.underlay_template:
        underlays = {
            str(key): today_masked(text_of(render_to_string(document.underlay_template,
                                                            {**document.context, **context})), today)
            for key, context in document.underlays.items()
        }
    return {"title": str(document.title), "pages": pages, "underlays": underlays}


def url_routes() -> dict[str, str]:
    """Every named URL of the site (namespace:name) and its full route."""
    found: dict[str, str] = {}

    def walk(patterns, prefix: str, namespace: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                walk(entry.url_patterns, prefix + str(entry.pattern), inner)
            elif isinstance(entry, URLPattern) and entry.name:
                found.setdefault(f"{namespace}{entry.name}", prefix + str(entry.pattern))

    walk(get_resolver().url_patterns, "", "")
    return dict(sorted(found.items()))


SAMPLE = {"slug": "golden-slug", "int": 1, "str": "x", "path": "x", "uuid": "00000000-0000-0000-0000-000000000000"}


def reversed_url(name: str, route: str) -> str:
    """`name` reversed with a sample value for each of its route's parts (proves the name still reverses)."""
    kwargs = {}
    for converter, key in re.findall(r"<(?:(\w+):)?(\w+)>", route):
        kwargs[key] = SAMPLE["slug"] if key == "slug" else SAMPLE.get(converter or "str", "x")
    return reverse(name, kwargs=kwargs)


class SeededSecrets:
    """Stands in for `secrets` where the seating service draws its seeds (the lot's among them): the same each run."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)

    def randbelow(self, limit: int) -> int:
        return self.random.randrange(limit)


def evening(name: str, monkeypatch) -> dict:
    monkeypatch.setattr("tournament.services.seating.secrets", SeededSecrets(11))
    key, options = DEMOS[name]
    game = get_game(key)
    director = new_director()
    tournament = game.demo(director, seed=7, results=True, **options)
    today = sorted({format_value(timezone.localdate()), str(timezone.localdate()),
                    timezone.localdate().strftime("%d.%m.%Y"), timezone.localdate().strftime("%d/%m/%Y"),
                    format_value(tournament.date) if getattr(tournament, "date", None) else str(timezone.localdate())},
                   key=len, reverse=True)
    documents = {}
    with venue_locale(tournament):
        for document_name, make in sorted(game.documents(tournament).items()):
            documents[document_name] = snapshot_document(make(), today)
    pages = director_pages(tournament, director) if key != "voms" else {}
    audit = Counter(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    return {"documents": documents, "pages": pages, "audit": dict(sorted(audit.items()))}


#: the seated games' director pages (URL name, arguments after the slug) whose visible text is pinned
SEATED_PAGES = (
    ("overview", ()), ("settings", ()), ("seating", ()), ("round", (1,)), ("sheet", (1, 1)), ("history", (1, 1)),
    ("standings", ()), ("standings_after", (1,)), ("printouts", ()), ("board", ()),
)
#: today's URL namespace of each seated family's pages
NAMESPACES = ("tournament:schafkopf", "tournament:tablegames")


def director_pages(tournament, director) -> dict[str, str]:
    """The visible text of each seated director page of the tournament (hidden inputs and scripts are not text)."""
    client = Client()
    client.force_login(director)
    namespace = next(space for space in NAMESPACES if tournament_pages_of(space, tournament))
    found = {}
    for name, args in SEATED_PAGES:
        try:
            address = reverse(f"{namespace}:{name}", args=[tournament.slug, *args])
        except NoReverseMatch:  # not every family has every page (the table games keep no list history)
            continue
        response = client.get(address, HTTP_ACCEPT_LANGUAGE="en", follow=True)
        assert response.status_code == 200, (name, response.status_code)
        if response.redirect_chain:  # a patience's round page opens its one results list
            found[f"{name} redirects to"] = response.redirect_chain[-1][0].removeprefix(address)
        markup = re.sub(r"<script.*?</script>", "", response.content.decode(), flags=re.S)
        # when a sheet was saved ("27 Nov 2026 3:19 p.m.") is the clock's, not the code's
        found[name] = DAY.sub("<date>", CLOCK.sub("<time>", text_of(markup)))
    return found


def tournament_pages_of(namespace: str, tournament) -> bool:
    menu = [url for _label, url in get_game(tournament.game).menu(tournament)]
    return any(url == reverse(f"{namespace}:overview", args=[tournament.slug]) for url in menu)


def compare(name: str, data: dict) -> None:
    path = HERE / f"{name}.json"
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"{path.name} did not exist and was written; commit it")
        return
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert data.keys() == expected.keys()
    for key in expected:
        if isinstance(expected[key], dict):
            assert sorted(data[key]) == sorted(expected[key]), f"{name}: the {key} named differ"
            for part in expected[key]:
                assert data[key][part] == expected[key][part], f"{name}: {key} {part!r} differs from {path.name}"
        else:
            assert data[key] == expected[key], f"{name}: {key} differs"


# reset_sequences: what the evening records may name database ids (an address like "tables/1/"), so the ids must be
# the same in every run (PostgreSQL's sequences do not roll back with a test's transaction). The lot among tied
# players no longer depends on them: it is drawn on participant (team) numbers, which a tournament file carries.
@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("name", sorted(DEMOS))
def test_evening_is_unchanged(name, monkeypatch):
    compare(name, evening(name, monkeypatch))


def test_every_url_name_still_reverses_to_its_route():
    routes = url_routes()
    # the admin's routes are regular expressions (no sample to fill in): their route text is pinned instead
    compare("urls", {"routes": {name: route if name.startswith("admin:") else reversed_url(name, route)
                                for name, route in routes.items()}})
