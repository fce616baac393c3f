"""The catalogues' typography: each language quotes one way (Danish »…«, German „…“), whatever the English has."""

import re
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


#: the informal plural (ihr, euch, euer; its imperatives): the German pages say Sie throughout, the phone page too
INFORMAL_GERMAN = re.compile(
    r"\b(euch|euer|eure[mnrs]?|Euer|Eure[mnrs]?|könnt ihr|seht ihr|tragt ihr|Was ihr)\b"
    r"|(^|[.:;!?] )(Bringt|Fragt|Tragt|Wartet ein|Wählt|Zieht|Gebt|Tippt|Sendet (die|den))\b"
    r"|, (bringt|sendet) (die|den)\b|oder bringt\b")


def test_the_german_catalogue_says_sie_not_ihr():
    catalogue = polib.pofile(str(LOCALE / "de" / "LC_MESSAGES" / "django.po"))
    informal = [
        text for entry in catalogue if not entry.obsolete
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if INFORMAL_GERMAN.search(text)
    ]
    assert informal == []
