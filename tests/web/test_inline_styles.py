"""Screen pages carry no inline style: the Content-Security-Policy (style-src 'self') refuses it, so a `style=`
attribute silently does nothing (a double entry's differing value was meant to be outlined that way and was not).
Printouts are exempt: WeasyPrint reads them, no browser."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
PRINTOUTS = ("documents", "print")
INLINE = re.compile(r"<style\b|\sstyle=")


def test_no_screen_template_has_an_inline_style():
    offenders = [
        str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html")
        if not set(PRINTOUTS) & set(path.relative_to(TEMPLATES).parts) and INLINE.search(path.read_text())
    ]
    assert offenders == []
