"""PDFs open in the browser (inline); "?download=1" saves them; Excel is always a download. Every game alike."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query,disposition", [("", "inline"), ("?download=1", "attachment")])
def test_schafkopf_pdf_inline_or_download(drawn, director, client, query, disposition):
    client.force_login(director)
    response = client.get(reverse("tournament:schafkopf:download", args=[drawn.slug, "seating-by-name", "pdf"])
                          + query)
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith(disposition)
    assert "seating-by-name.pdf" in response["Content-Disposition"]


def test_excel_is_always_a_download(drawn, director, client):
    client.force_login(director)
    response = client.get(reverse("tournament:schafkopf:download", args=[drawn.slug, "seating-by-name", "xlsx"]))
    assert response["Content-Disposition"].startswith("attachment")


def test_the_standings_page_offers_the_download(drawn, director, client):
    client.force_login(director)
    page = client.get(reverse("tournament:schafkopf:standings", args=[drawn.slug])).content.decode()
    assert "?download=1" in page
