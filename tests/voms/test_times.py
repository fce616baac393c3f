"""Round times in each language's own time format (Django's TIME_FORMAT): "7:30 p.m." in English, "19:30" in
German and Danish, the same on the public pages, the Voms printouts and the director's pages."""

import datetime
import html

import pytest
from django.urls import reverse

from documents.base import venue_locale
from scoring.games.voms.documents import schedule_document, slips_document
from tournament.models import Round
from tournament.services.publishing import set_publication
from tournament.services.tournaments import update_tournament

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401

pytestmark = pytest.mark.django_db

#: 18:30 UTC is 19:30 at the venue (Europe/Berlin, no summer time in November)
EVENING = datetime.datetime(2026, 11, 28, 18, 30, tzinfo=datetime.UTC)

SHOWN = {"en": "7:30 p.m.", "de": "19:30", "da": "19:30"}


@pytest.fixture
def timed(drawn, director):
    Round.objects.filter(stage__tournament=drawn).update(starts_at=EVENING)
    set_publication(drawn, by=director, kinds=("schedule",))
    return drawn


@pytest.mark.parametrize("language", sorted(SHOWN))
def test_the_public_schedule_and_find_my_seat_show_the_languages_time(client, timed, language):
    client.cookies["django_language"] = language
    schedule = html.unescape(client.get(reverse("public:schedule", args=[timed.slug])).content.decode())
    seat = html.unescape(client.get(reverse("public:seat", args=[timed.slug]), {"q": "P0 One"}).content.decode())
    for page in (schedule, seat):
        assert SHOWN[language] in page
        assert ("19:30" in page) == (language != "en")


@pytest.mark.parametrize("language", sorted(SHOWN))
def test_the_printouts_show_the_languages_time(director, timed, language):
    update_tournament(timed, by=director, language=language)
    timed.refresh_from_db()
    with venue_locale(timed):
        rows = [dict(zip([c.key for c in schedule_document(timed).columns], row, strict=True))
                for row in schedule_document(timed).row_values()]
        slips = [s for page in slips_document(timed, 1).pages for s in page.get("slips", [])]
    assert {row["time"] for row in rows} == {SHOWN[language]}
    assert {s["time"] for s in slips} == {SHOWN[language]}


@pytest.mark.parametrize("language", sorted(SHOWN))
def test_the_directors_schedule_and_printouts_page_show_the_languages_time(client, director, timed, language):
    client.force_login(director)
    client.cookies["django_language"] = language
    for name in ("schedule", "printouts"):
        page = html.unescape(client.get(reverse(f"tournament:voms:{name}", args=[timed.slug])).content.decode())
        assert SHOWN[language] in page, name
