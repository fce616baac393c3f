"""Shared pieces of the hostile-input tests: which POST endpoints exist, the forms that post to them,
hostile values, and a snapshot of the database to prove that a refused post changed nothing."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

# --- the POST endpoints ------------------------------------------------------------------------------

#: POST endpoints that are not the project's own forms, and why they are not fuzzed here.
NOT_FUZZED = {
    "admin": "Django's admin (superusers only; directors have no model permissions)",
    "logout": "Django's own logout: takes no input",
    "set_language": "Django's own view: an unknown language is ignored",
    "setup": "open only while no account exists, so never beside these forms; its hostile input (other "
             "computers, weak passwords, two at once) in tests/web/test_first_start.py",
    "hall:page": "the installation's hall switch (a superuser's): one choice, on or off, that restarts the "
                 "server; refused from other computers, anything but 'on' is off (tests/web/test_hall_page.py)",
    "tournament:schafkopf:prize_eligibility": "shown only beside a player who missed rounds (the demo has none); "
                                               "its bad input in tests/schafkopf/test_prize_eligibility.py",
    "tournament:tablegames:prize_eligibility": "the seated layer's prize tick, the same view as Schafkopf's, shown "
                                                "only beside a player who missed rounds (the demos have none); its "
                                                "bad input in tests/schafkopf/test_prize_eligibility.py",
    "tournament:backups": "superusers only, as the admin; bad files: tests/ops/test_backup_pages.py",
    "tournament:restore": "superusers only, as the admin; bad names: tests/ops/test_backup_pages.py",
}


def walk(patterns, namespace=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = namespace + (f"{p.namespace}:" if p.namespace else "")
            yield from walk(p.url_patterns, ns)
        elif isinstance(p, URLPattern) and p.name:
            yield namespace + p.name, p


def accepts_post(pattern) -> bool:
    cls = getattr(pattern.callback, "view_class", None)
    if cls is None:
        # function views: Django's set_language is the one that takes POST; `live` and the API are GET only
        return getattr(pattern.callback, "__name__", "") in ("set_language",)
    return "post" in cls.http_method_names and hasattr(cls, "post")


def post_endpoints() -> set[str]:
    """Every named URL whose view accepts POST, minus the ones listed in NOT_FUZZED."""
    names = set()
    for name, pattern in walk(get_resolver().url_patterns):
        if name.startswith("admin:") or name in NOT_FUZZED:
            continue
        if accepts_post(pattern):
            names.add(name)
    return names


# --- the forms on a page -----------------------------------------------------------------------------


@dataclass
class Form:
    action: str
    fields: dict[str, list[str]] = field(default_factory=dict)  # name -> values on the page (select: options)
    files: list[str] = field(default_factory=list)
    checkboxes: set[str] = field(default_factory=set)

    @property
    def url_name(self) -> str:
        return resolve(self.action.split("?")[0]).view_name


class FormParser(HTMLParser):
    def __init__(self, page_url: str):
        super().__init__()
        self.page_url = page_url
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self.current = Form(a.get("action") or self.page_url)
            self.forms.append(self.current)
        if self.current is None:
            return
        name = a.get("name")
        if tag == "input" and name and name != "csrfmiddlewaretoken":
            kind = (a.get("type") or "text").lower()
            if kind == "file":
                self.current.files.append(name)
            elif kind in ("checkbox", "radio"):
                self.current.checkboxes.add(name) if kind == "checkbox" else None
                self.current.fields.setdefault(name, []).append(a.get("value") or "on")
            elif kind not in ("submit", "button", "reset", "image") or name == "action":
                self.current.fields.setdefault(name, []).append(a.get("value") or "")
        elif tag == "button" and name:
            self.current.fields.setdefault(name, []).append(a.get("value") or "")
        elif tag == "select" and name:
            self.select = name
            self.current.fields.setdefault(name, [])
        elif tag == "option" and self.select:
            self.current.fields[self.select].append(a.get("value") or "")
        elif tag == "textarea" and name:
            self.textarea = name
            self.current.fields.setdefault(name, []).append("")

    def handle_data(self, data):
        if self.textarea and self.current is not None:
            self.current.fields[self.textarea][-1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def forms_on(html: str, page_url: str) -> list[Form]:
    parser = FormParser(page_url)
    parser.feed(html)
    found = []
    for form in parser.forms:
        try:
            form.url_name  # noqa: B018 - only forms that post to our own pages
        except Resolver404:
            continue
        found.append(form)
    return found


# --- refusals ------------------------------------------------------------------------------------------

#: how the templates mark what was refused: Django's error lists, our "errors" blocks, bad grid rows,
#: and error messages of the messages framework
#: what a page shows when it did not save: an error, or the question that asks to confirm first (confirm.html)
ERROR_MARKS = ('class="errorlist', 'class="errors', 'class="error"', " invalid\"", "sk-bad", "tg-bad",
               '<li class="error">', "nonfield", '<section class="confirm"')


def shows_error(html: str) -> bool:
    return any(mark in html for mark in ERROR_MARKS)


# --- database snapshot ---------------------------------------------------------------------------------

SNAPSHOT_APPS = ("tournament", "scoring", "auth")
#: rows a refused request writes on purpose: a failed log-in is counted (tournament/services/logins.py)
SNAPSHOT_SKIPS = ("tournament.LoginThrottle",)


def snapshot() -> dict[str, tuple[str, str]]:
    """Per model: number of rows and a checksum of every value of every row.

    The rows are read as the database stores them, no model conversions (five times quicker than `values_list`,
    and what is compared is the stored value itself). SQLite, in this process: one plain SELECT per table, hashed
    here. PostgreSQL, a server away: one query for all tables, each row's text hashed by the server (a round trip
    per table was 25 queries a snapshot, a sixth of a hostile walk's time)."""
    from django.db import connection

    quote = connection.ops.quote_name
    models = [model for model in apps.get_models()
              if model._meta.app_label in SNAPSHOT_APPS and model._meta.label not in SNAPSHOT_SKIPS]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            tables = ", ".join(
                f"(SELECT count(*) || ' ' || coalesce(md5(string_agg(r::text, E'\\n' ORDER BY "
                f"r.{quote(model._meta.pk.column)})), '') FROM {quote(model._meta.db_table)} AS r)"
                for model in models)
            cursor.execute(f"SELECT {tables}")
            return {model._meta.label: tuple(summary.split(" "))
                    for model, summary in zip(models, cursor.fetchone(), strict=True)}
        state = {}
        for model in models:
            cursor.execute(f"SELECT * FROM {quote(model._meta.db_table)} ORDER BY {quote(model._meta.pk.column)}")
            rows = [tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in cursor.fetchall()]
            state[model._meta.label] = (str(len(rows)), hashlib.sha256(repr(rows).encode()).hexdigest())
    return state


def changed(before: dict, after: dict) -> list[str]:
    return [label for label in before if before[label] != after.get(label)]
