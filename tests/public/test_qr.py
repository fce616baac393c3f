"""QR codes: made locally, and they decode (with zxing-cpp) to the public page's address."""

import base64
import io

import pytest
import segno
import zxingcpp
from PIL import Image

from documents.qr import ERROR_LEVEL, qr_svg
from tournament.addresses import public_url


def decode_png(data_uri: str) -> list[str]:
    assert data_uri.startswith("data:image/png;base64,")
    image = Image.open(io.BytesIO(base64.b64decode(data_uri.split(",", 1)[1])))
    return [result.text for result in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize("url", ["http://192.168.1.20:8000/p/voms-cup/", "https://turnier.example.org/p/schafkopf-2026/seat/"])
def test_the_code_decodes_to_the_url(url):
    # qr_svg's code, drawn as a PNG by segno (the SVG itself is decoded from a rendered PDF page in
    # tests/documents/test_documents.py)
    assert decode_png(segno.make(url, error=ERROR_LEVEL).png_data_uri(scale=8, border=4)) == [url]


def test_svg_qr_is_inline_scalable_and_escapes_its_title():
    svg = qr_svg("http://x/p/a/", title="<b>cup</b>")
    assert svg.startswith("<svg") and "viewBox" in svg and "width=" not in svg.split(">", 1)[0]
    assert "<b>" not in svg and "&lt;b&gt;" in svg


@pytest.mark.django_db
def test_printouts_point_at_public_base_url(voms, settings):
    settings.PUBLIC_BASE_URL = "http://10.0.0.5:8000/"
    assert public_url(voms, "seat") == "http://10.0.0.5:8000/p/voms-cup/seat/"
    assert public_url(voms, "schedule") == "http://10.0.0.5:8000/p/voms-cup/schedule/"


@pytest.mark.django_db
def test_without_public_base_url_pages_use_the_request_and_printouts_the_host_name(voms, settings, rf, monkeypatch):
    settings.PUBLIC_BASE_URL = ""
    request = rf.get("/", HTTP_HOST="127.0.0.1:8000")
    assert public_url(voms, "index", request) == "http://127.0.0.1:8000/p/voms-cup/"
    monkeypatch.setattr("socket.gethostname", lambda: "referee-laptop")
    assert public_url(voms) == "http://referee-laptop:8000/p/voms-cup/"
