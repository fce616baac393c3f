"""The notes of a table's phone page (sent, counted, no connection) in each language, for the games' tests."""

from __future__ import annotations

import html
import re

LANGUAGES = ("en", "de", "da")


def phone_notes(phone, url: str, note_id: str) -> dict[str, str]:
    """{language: the text of the page's note `note_id`} with the language switch's cookie set to each language
    (the cookie is removed afterwards); "" where the page has no such note."""
    notes = {}
    for language in LANGUAGES:
        phone.cookies["django_language"] = language
        page = phone.get(url).content.decode()
        found = re.search(rf'id="{note_id}"[^>]*>(.*?)</p>', page, re.S)
        notes[language] = html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else ""
    phone.cookies.pop("django_language", None)
    return notes


STATUS_LINE = re.compile(r'<(p|div)\b([^>]*\brole="(?:status|alert)"[^>]*)>(.*?)</\1>', re.S)


def said_after_sending(phone, url: str, data: dict, language: str) -> list[str]:
    """What the phone page says right after a send in `language`: the text of each status line it shows after
    the redirect (Django's messages and the page's own notes), hidden ones left out. A send's outcome is said
    once: one line."""
    phone.cookies["django_language"] = language
    response = phone.post(url, data, follow=True)
    phone.cookies.pop("django_language", None)
    assert response.redirect_chain, "the send was refused"
    page = response.content.decode()
    return [html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))).strip()
            for _tag, attributes, text in STATUS_LINE.findall(page) if " hidden" not in attributes]


def draft_key(page: str) -> str:
    """The key under which the phone page keeps what is typed (its entry-config's `storage`)."""
    import json

    config = re.search(r'<script id="entry-config" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(config.group(1))["storage"]


def holds_part_of(key: str, token: str, length: int = 5) -> bool:
    """Whether `key` holds any `length` characters of `token` in a row (a hex hint matches 5 by chance with a
    probability far below one in a million)."""
    return any(token[i:i + length] in key for i in range(len(token) - length + 1))
