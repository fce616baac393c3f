"""Voms pages: who may open them, and the slip entry form's messages."""

import pytest
from django.urls import reverse

from scoring.models import ScoreSheet
from tournament.models import Match

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401

pytestmark = pytest.mark.django_db

PAGES = ["overview", "settings", "teams", "draw", "schedule", "enter", "standings", "knockout"]
DIRECTOR_ONLY = {"settings", "teams", "draw", "knockout"}


@pytest.mark.parametrize("name", PAGES)
def test_page_access_by_role(client, drawn, assistant_voms, make_director, name):
    url = reverse(f"tournament:voms:{name}", args=[drawn.slug])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(make_director("stranger"))
    assert client.get(url).status_code == 404
    client.force_login(assistant_voms)
    assert client.get(url).status_code == (404 if name in DIRECTOR_ONLY else 200)
    client.force_login(drawn.created_by)
    assert client.get(url).status_code == 200


def post_slip(client, t, follow=False, **data):
    return client.post(reverse("tournament:voms:enter", args=[t.slug]), {"round": 1, **data}, follow=follow)


def test_slip_entry_saves_and_reports(client, drawn, assistant_voms):
    client.force_login(assistant_voms)
    response = post_slip(client, drawn, table=1, lus_a="9", lus_b="4", follow=True)
    assert ScoreSheet.objects.count() == 1
    assert "9 : 4" in response.content.decode()


@pytest.mark.parametrize(
    "data,message",
    [
        ({"table": 9, "lus_a": "9", "lus_b": "1"}, "There is no game at table 9"),
        ({"table": 1, "lus_a": "9", "lus_b": "9"}, "winner"),
        ({"table": 1, "lus_a": "nine", "lus_b": "1"}, "whole number"),
        ({"table": 1, "lus_a": "x", "lus_b": "x"}, "Only one team"),
        ({"table": 1, "lus_a": "4", "lus_b": "3"}, "9"),
        ({"table": 1, "lus_a": "9", "lus_b": "1", "winner": "c"}, "Type A or B"),
    ],
)
def test_slip_entry_refusals(client, drawn, director, data, message):
    client.force_login(director)
    response = post_slip(client, drawn, **data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not ScoreSheet.objects.exists()


def test_slip_refusal_is_translated(client, drawn, director):
    client.force_login(director)
    client.cookies.load({"django_language": "de"})
    response = post_slip(client, drawn, table=1, lus_a="x", lus_b="x")
    assert "Nur ein Team" in response.content.decode()


def test_forfeit_by_x(client, drawn, director):
    client.force_login(director)
    post_slip(client, drawn, table=2, lus_a="x", lus_b="")
    sheet = ScoreSheet.objects.get()
    assert sheet.entries == [{"absent": "a"}]
    assert sheet.derived["games"][0]["lus_b"] == 9


def test_second_entry_of_same_table_refused(client, drawn, director):
    client.force_login(director)
    post_slip(client, drawn, table=1, lus_a="9", lus_b="2")
    response = post_slip(client, drawn, table=1, lus_a="9", lus_b="3")
    assert "entered already" in response.content.decode()
    assert ScoreSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 2}]


def test_correction_page(client, drawn, director):
    client.force_login(director)
    post_slip(client, drawn, table=1, lus_a="9", lus_b="2")
    match = Match.objects.get(sheet__isnull=False)
    url = reverse("tournament:voms:correct", args=[drawn.slug, match.pk])
    response = client.post(url, {"lus_a": "9", "lus_b": "3", "version": 1, "reason": ""})
    assert "This field is required" in response.content.decode()
    client.post(url, {"lus_a": "9", "lus_b": "3", "version": 1, "reason": "misread"})
    sheet = ScoreSheet.objects.get()
    assert sheet.entries == [{"lus_a": 9, "lus_b": 3}] and sheet.corrected
    stale = client.post(url, {"lus_a": "9", "lus_b": "4", "version": 1, "reason": "again"})
    assert "Someone else saved" in stale.content.decode()
    assert ScoreSheet.objects.get().entries == [{"lus_a": 9, "lus_b": 3}]


def test_standings_page_shows_every_tiebreak_column(client, drawn, director):
    client.force_login(director)
    post_slip(client, drawn, table=1, lus_a="9", lus_b="0")
    page = client.get(reverse("tournament:voms:standings", args=[drawn.slug])).content.decode()
    for header in ("Pts", "W", "Lus +", "Lus −", "+/-", "H2H", "Decided by"):
        assert f">{header}<" in page
    assert "2.5" in page


def test_points_in_the_saved_message_and_the_overview_are_written_as_the_language_writes_them(
        client, drawn, director):
    """A kam is worth 2.5 points: a Danish (or German) screen writes 2,5, in the message after saving a slip as on
    the standings, and in the overview's summary of the settings."""
    client.force_login(director)
    client.cookies.load({"django_language": "da"})
    saved = post_slip(client, drawn, table=1, lus_a="9", lus_b="0", follow=True).content.decode()
    assert "point 2,5 : 0" in saved and "2.5" not in saved
    overview = client.get(reverse("tournament:voms:overview", args=[drawn.slug])).content.decode()
    assert "mod en kam 2,5" in overview and "2.5" not in overview
    client.cookies.load({"django_language": "en"})
    assert "against a kam 2.5" in client.get(reverse("tournament:voms:overview", args=[drawn.slug])).content.decode()


def test_a_correction_goes_back_to_the_entry_page_of_its_round(client, drawn, director):
    """The referee table corrects a slip from the entry page's list and goes on typing slips: saving the correction
    lands on the entry page of the slip's round (with the slip marked corrected), not on the standings."""
    client.force_login(director)
    post_slip(client, drawn, table=1, lus_a="9", lus_b="5")
    match = Match.objects.get(sheet__isnull=False)
    url = reverse("tournament:voms:correct", args=[drawn.slug, match.pk])
    response = client.post(url, {"lus_a": "9", "lus_b": "3", "version": 1, "reason": "typed 5 for 3"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament:voms:enter", args=[drawn.slug]) + "?round=1"
    page = client.get(response["Location"]).content.decode()
    assert "Slip corrected." in page and "9 : 3" in page and 'id="id_table"' in page
