"""A `{# … #}` comment ends on its own line in Django: one spread over two lines is printed on the page."""

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tournament.services.publishing import set_publication

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def test_no_template_has_a_comment_over_several_lines():
    found = [f"{path.relative_to(TEMPLATES)}:{number}"
             for path in sorted(TEMPLATES.rglob("*.html"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if line.count("{#") > line.count("#}")]
    assert found == []


@pytest.mark.django_db
def test_a_public_page_shows_no_template_comment(client, voms, director):
    set_publication(voms, by=director, kinds=("schedule",))
    page = client.get(reverse("public:schedule", args=[voms.slug])).content.decode()
    assert "Round 1" in page and "{#" not in page and "#}" not in page
