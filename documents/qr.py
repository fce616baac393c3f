"""QR codes (public pages, table links), made locally by segno (pure Python, no network, no Pillow).

`qr_svg` is inline SVG: it scales with CSS, is crisp on a projector, and is what the printouts carry too
(documents/pdf.py; their URL fetcher refuses data: URIs, so a PNG data URI would not do there).
"""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe

#: error correction "M" survives a crease or a smudge on a printed list and keeps the code small;
#: segno raises it further when that costs no extra size
ERROR_LEVEL = "m"


def qr_svg(url: str, *, title: str = "") -> SafeString:
    """An inline <svg> of the QR code for `url`, sized by CSS (it has a viewBox, no width or height)."""
    code = segno.make(url, error=ERROR_LEVEL)
    svg = code.svg_inline(scale=1, border=4, omitsize=True, svgclass="qr", lineclass=None, dark="#000", light="#fff",
                          title=title or None)
    # segno writes the markup and escapes the only text in it, the title (tests/public/test_qr.py checks)
    return mark_safe(svg)

