"""The catalogues' typography: each language quotes one way (Danish »…«, German „…“), whatever the English has."""

from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"
FOREIGN_QUOTES = {"da": "„“”", "de": "»«”"}


@pytest.mark.parametrize("language", sorted(FOREIGN_QUOTES))
def test_a_catalogue_quotes_in_its_own_language(language):
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    foreign = [
        text for entry in catalogue if not entry.obsolete
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if any(mark in text for mark in FOREIGN_QUOTES[language])
    ]
    assert foreign == []
