"""Totals only from a table's phone, where the director allows it (schafkopf.md, entry (b)): each player's
total and counts; the same rules as at the referee table (the totals add up to zero, the counts fit)."""

import dataclasses
import html

import pytest
from django.urls import reverse

from scoring.games.schafkopf.config import settings_of
from scoring.models import PendingSheet, ScoreSheet
from scoring.seated import services as seated_services
from tests.schafkopf.test_tablelink_views import table_url

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401

TOTALS = {1: ("12", "2", "1", "0", "0"), 2: ("-4", "0", "0", "0", "0"), 3: ("-6", "1", "0", "0", "0"),
          4: ("-2", "0", "0", "0", "0")}


def totals_post(totals=TOTALS, mode="totals"):
    data = {"mode": mode}
    for seat, values in totals.items():
        for name, value in zip(("total", "solo_played", "solo_won", "tout_played", "tout_won"), values, strict=True):
            data[f"{name}{seat}"] = value
    return data


@pytest.fixture
def allowed(drawn, director):
    seated_services.update_settings(drawn, dataclasses.replace(settings_of(drawn), phone_totals=True), by=director)
    return drawn


@pytest.fixture
def phone(client):
    client.cookies.pop("django_language", None)
    return client


def test_the_setting_is_on_the_settings_page_and_off_by_default(client, director, drawn):
    assert settings_of(drawn).phone_totals is False
    client.force_login(director)
    page = client.get(reverse("tournament:schafkopf:settings", args=[drawn.slug])).content.decode()
    assert 'name="phone_totals"' in page and "Tables may send totals only from their phones" in page


def test_without_the_setting_the_phone_takes_the_list_game_by_game_only(phone, drawn, links):
    _link, token = links[(1, 1)]
    page = phone.get(table_url(token) + "?mode=totals").content.decode()
    assert 'name="total1"' not in page and 'name="t1"' in page and "Totals only" not in page
    response = phone.post(table_url(token), totals_post())
    assert response.status_code == 400
    assert "takes the list game by game" in response.content.decode()
    assert not PendingSheet.objects.exists() and not ScoreSheet.objects.exists()


def test_the_phone_sends_totals_and_the_referee_table_confirms_them(phone, allowed, links, director, client):
    link, token = links[(1, 1)]
    page = phone.get(table_url(token)).content.decode()
    assert 'id="mode-totals"' in page and 'name="t1"' in page  # game by game unless the table chooses
    page = phone.get(table_url(token) + "?mode=totals").content.decode()
    assert 'name="total4"' in page and 'name="tout_won4"' in page and 'name="t1"' not in page
    response = phone.post(table_url(token) + "?mode=totals", totals_post())
    assert response.status_code == 302 and response["Location"].endswith("?mode=totals")
    pending = PendingSheet.objects.get()
    assert pending.mode == "totals" and pending.source_link_id == link.pk
    assert pending.entries[0] == {"seat": 1, "total": 12, "solo_played": 2, "solo_won": 1, "tout_played": 0,
                                  "tout_won": 0}
    page = phone.get(table_url(token)).content.decode()  # shown as sent, in the mode it was sent
    assert 'id="sent-note"' in page and 'value="12"' in page and 'name="t1"' not in page

    client.force_login(director)
    sheet_url = reverse("tournament:schafkopf:sheet", args=[allowed.slug, 1, 1])
    client.post(sheet_url, {"action": "confirm", "pending_version": str(pending.version)})
    sheet = ScoreSheet.objects.get()
    assert sheet.mode == "totals" and sheet.derived["totals"] == {"1": 12, "2": -4, "3": -6, "4": -2}


def test_totals_that_do_not_add_up_to_zero_are_refused_and_change_nothing(phone, allowed, links):
    _link, token = links[(1, 1)]
    wrong = {**TOTALS, 4: ("-1", "0", "0", "0", "0")}
    response = phone.post(table_url(token), totals_post(wrong))
    text = response.content.decode()
    assert response.status_code == 400 and "add up to 1 instead of 0" in text
    assert 'value="-1"' in text  # what the table typed stays in the form
    unreadable = {**TOTALS, 2: ("four", "0", "0", "0", "0")}
    response = phone.post(table_url(token), totals_post(unreadable))
    assert response.status_code == 400 and "cannot be read" in response.content.decode()
    assert not PendingSheet.objects.exists()


def test_counts_that_cannot_be_right_are_refused(phone, allowed, links):
    _link, token = links[(1, 1)]
    wrong = {**TOTALS, 1: ("12", "1", "2", "0", "0")}  # more solos won than played
    response = phone.post(table_url(token), totals_post(wrong))
    assert response.status_code == 400 and not PendingSheet.objects.exists()


def test_once_play_has_started_the_settings_page_says_what_can_still_change(client, director, drawn):
    from scoring.games.schafkopf.forms import SettingsForm
    from tournament.models import Round

    seated_services.start_round(Round.objects.get(stage__tournament=drawn, number=1), by=director)
    before = settings_of(drawn)
    client.force_login(director)
    settings_url = reverse("tournament:schafkopf:settings", args=[drawn.slug])
    page = html.unescape(client.get(settings_url).content.decode())  # the note is escaped text now ("tables&#x27;")
    assert ("The money (entry fee and prizes) and the entry from the tables' phones can still be changed."
            in page)
    form = client.get(settings_url).context["form"]
    assert {name for name, field in form.fields.items() if not field.disabled} == {
        "entry_fee", "prizes", "phone_totals"}
    data = {**SettingsForm.initial_from(before), "separate_clubs": "", "rounds": "5", "entry_fee": "7.50",
            "phone_totals": "on", "prizes": "50%"}
    data = {name: value for name, value in data.items() if value not in (None, False)}
    assert client.post(settings_url, data).status_code == 302
    drawn.refresh_from_db()
    after = settings_of(drawn)
    assert after.phone_totals is True and str(after.entry_fee) == "7.50" and len(after.prizes) == 1
    assert (after.rounds, after.separate_clubs, after.tariff) == (before.rounds, before.separate_clubs, before.tariff)
    client.cookies["django_language"] = "de"
    page = client.get(settings_url).content.decode()
    assert "Das Geld (Startgeld und Preise) und die Eingabe über die Handys der Tische können noch geändert" in page
