"""The site's icon: every page links it, and /favicon.ico (what a browser asks where no page names an icon: the
admin, a PDF) answers with it, from whitenoise, without a database query."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from tournament.services.publishing import KINDS, set_publication

pytestmark = pytest.mark.django_db

ICON = Path(settings.BASE_DIR, "static", "root", "favicon.ico")


def icon_link(page: str) -> str:
    found = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert found, "the page links no icon"
    return found.group(1)


def test_favicon_ico_is_the_icon_without_a_database_query(client, director, django_assert_num_queries):
    icon = ICON.read_bytes()
    assert icon[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    for who in (None, director):  # a phone, and a director signed in (a session cookie)
        if who is not None:
            client.force_login(who)
        with django_assert_num_queries(0):
            response = client.get("/favicon.ico")
        assert response.status_code == 200
        assert b"".join(response.streaming_content) == icon


def test_every_kind_of_page_links_the_icon_in_static(client, director, make_tournament):
    assert Path(finders.find("root/favicon.ico")).read_bytes() == ICON.read_bytes()
    tournament = make_tournament(director, name="Icon evening", game="schafkopf")
    set_publication(tournament, by=director, kinds=KINDS)
    pages = {"login": reverse("login"), "public": reverse("public:index", args=[tournament.slug]),
             "beamer": reverse("public:beamer", args=[tournament.slug]),
             "table link refused": reverse("table:entry", args=["x" * 43])}
    for name, url in pages.items():
        assert icon_link(client.get(url).content.decode()) == static("root/favicon.ico"), name
    client.force_login(director)
    detail = client.get(reverse("tournament:detail", args=[tournament.slug])).content.decode()
    assert icon_link(detail) == static("root/favicon.ico")
