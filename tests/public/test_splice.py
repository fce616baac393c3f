"""Gzipped public answers spliced from a per-request frame and the region kept compressed (splice.py): one valid
gzip stream (gzip checks its CRC and length), the same page as without gzip, and the region compressed once."""

import gzip
import re
import zlib

import pytest
from django.urls import reverse

from tournament.public import splice
from tournament.public.splice import MARK, Region, spliced_gzip


@pytest.mark.parametrize("start", [0, 1, 0x80000000, 0xFFFFFFFF, 0x1234ABCD])
def test_the_regions_crc_continues_any_starting_crc(start):
    html = "<tr><td>Søren Møller</td><td class=num>12</td></tr>" * 300
    assert Region.of(html).crc_after(start) == zlib.crc32(html.encode(), start)


@pytest.mark.parametrize("before,after", [("", ""), ("<html><body>", "</body></html>"), ("ä" * 70_000, "€")],
                         ids=["empty", "frame", "long"])
def test_a_spliced_answer_is_one_valid_gzip_stream(before, after):
    region = Region.of("<table>" + "<tr><td>Anna Huber</td></tr>" * 5000 + "</table>")
    data = spliced_gzip(before.encode(), region, after.encode())
    assert gzip.decompress(data).decode() == before + region.html() + after  # checks the CRC and the length
    assert region.html().startswith("<table><tr>")


def drop_tokens(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


@pytest.mark.django_db
def test_the_gzipped_page_is_the_plain_page_and_the_region_is_compressed_once(client, schafkopf, publish,
                                                                              monkeypatch):
    publish(schafkopf, "standings")
    regions, compress = [], Region.of
    monkeypatch.setattr(splice.Region, "of", lambda html: regions.append(html) or compress(html))
    url = reverse("public:standings", args=[schafkopf.slug])
    plain = client.get(url).content.decode()
    zipped = [client.get(url, HTTP_ACCEPT_ENCODING="gzip") for _ in range(3)]
    assert all(z["Content-Encoding"] == "gzip" for z in zipped)
    assert {drop_tokens(gzip.decompress(z.content).decode()) for z in zipped} == {drop_tokens(plain)}
    assert MARK not in plain and plain.count('class="live-body"') == 1 and "Anna16 Huber16" in plain
    assert len(regions) == 1  # rendered and compressed for the first answer, then spliced from the cache
