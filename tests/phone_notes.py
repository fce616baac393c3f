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
