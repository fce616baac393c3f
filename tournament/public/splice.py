"""Gzipped public answers without compressing the cached live region again for every request.

A public page is a small frame rendered per request (the clock's time left, the language form's CSRF token)
around a large live region rendered once per version (the standings of 2,000 players: 460 KiB of HTML,
27 KiB gzipped). Compressing the whole answer for every phone cost more CPU than the rest of the request.
So the region is kept compressed, as raw deflate data that ends on a byte boundary with an empty dictionary
(a full flush), and an answer is spliced: gzip header, the frame before the region compressed on its own,
the region's stored deflate data, the frame after it, the trailer. A gzip member may consist of any deflate
blocks in a row, so this is one ordinary gzip stream; its CRC-32 is combined from the parts' CRCs (the
region's contribution for any starting value is kept with it as 32 numbers, see `Region.crc_after`).

Browsers that do not accept gzip get the same bytes inflated.
"""

from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe

#: where the region goes in the rendered frame; templates escape "<" in every value, so no visitor's text
#: can produce it
MARK = "<!--public-live-region-->"
LEVEL = 6  # zlib's default, as Django's GZipMiddleware
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time, unknown OS
ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _deflate(data: bytes, *, last: bool) -> bytes:
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


@dataclass(frozen=True)
class Region:
    """A live region's HTML as raw deflate data, with what splicing it into a gzip stream needs."""

    deflated: bytes
    size: int
    #: CRC-32 of the HTML's UTF-8 bytes starting from 0
    crc: int
    #: shift[i]: how bit i of a starting CRC changes the CRC after `size` bytes (CRC-32 is linear in it)
    shift: tuple[int, ...]

    @classmethod
    def of(cls, html: str) -> Region:
        data = html.encode()
        zeros = bytes(len(data))
        base = zlib.crc32(zeros, 0)
        shift = tuple(zlib.crc32(zeros, 1 << bit) ^ base for bit in range(32))
        return cls(deflated=_deflate(data, last=False), size=len(data), crc=zlib.crc32(data), shift=shift)

    def crc_after(self, start: int) -> int:
        """zlib.crc32(html, start), without the HTML."""
        crc = self.crc
        for bit in range(32):
            if start >> bit & 1:
                crc ^= self.shift[bit]
        return crc

    def html(self) -> SafeString:
        # no final block (more follows when spliced): a decompressor object takes it as it is
        data = zlib.decompressobj(-zlib.MAX_WBITS).decompress(self.deflated)
        return mark_safe(data.decode())  # our own rendered templates


def spliced_gzip(before: bytes, region: Region, after: bytes) -> bytes:
    crc = zlib.crc32(after, region.crc_after(zlib.crc32(before)))
    size = (len(before) + region.size + len(after)) & 0xFFFFFFFF
    return b"".join((GZIP_HEADER, _deflate(before, last=False), region.deflated, _deflate(after, last=True),
                     struct.pack("<II", crc, size)))


def render_with_region(request, template_name: str, context: dict, region: Region) -> HttpResponse:
    """The template rendered with MARK where the region goes (`{{ live.html }}`), the region spliced in:
    gzipped when the browser accepts it (public answers hold no secret: see views.py on BREACH)."""
    frame = render_to_string(template_name, context, request)
    before, found, after = frame.partition(MARK)
    if not found:
        raise ValueError(f"{template_name} does not show the live region")
    response = HttpResponse()
    if ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        response.content = spliced_gzip(before.encode(), region, after.encode())
        response["Content-Encoding"] = "gzip"
    else:
        response.content = (before + region.html() + after).encode()
    patch_vary_headers(response, ("Accept-Encoding",))
    return response
