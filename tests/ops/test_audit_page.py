"""The audit log page: directors of the tournament see and filter it, nobody else does."""

import datetime
import re

import pytest
from django.urls import reverse

from tournament.models import AuditEntry
from tournament.services.audit import log_action
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged(tournament, director, assistant):
    update_tournament(tournament, by=director, venue="Town hall", reason="the club room is flooded")
    log_action("sheet.correction", by=director, tournament=tournament, obj="Table 3", before={"lus": 7},
               after={"lus": 9}, reason="misread slip")
    log_action("sheet.entry", by=assistant, tournament=tournament, obj="Table 4", after={"lus": 5})
    return tournament


def rows(response) -> list[tuple[str, str, str]]:
    return [(r.record.action, r.record.object_repr, r.record.user.username if r.record.user else "")
            for r in response.context["table"].paginated_rows]


def test_director_sees_every_entry_newest_first(logged, director, client):
    client.force_login(director)
    response = client.get(reverse("tournament:audit", args=[logged.slug]))
    assert response.status_code == 200
    assert [action for action, *_ in rows(response)] == [
        "sheet.entry", "sheet.correction", "tournament.update", "tournament.create"]
    page = response.content.decode()
    assert "the club room is flooded" in page and "Town hall" in page and "misread slip" in page


def test_detail_page_links_to_the_audit_log_for_directors_only(logged, director, assistant, client):
    url = reverse("tournament:audit", args=[logged.slug])
    client.force_login(director)
    assert url in client.get(reverse("tournament:detail", args=[logged.slug])).content.decode()
    client.force_login(assistant)
    assert url not in client.get(reverse("tournament:detail", args=[logged.slug])).content.decode()


@pytest.mark.parametrize(
    "query,expected",
    [
        ({"action": "sheet.correction"}, [("sheet.correction", "Table 3", "director")]),
        ({"user": "assistant"}, [("sheet.entry", "Table 4", "assistant")]),
        ({"q": "FLOODED"}, [("tournament.update", "Club evening", "director")]),
        ({"q": "table"}, [("sheet.entry", "Table 4", "assistant"), ("sheet.correction", "Table 3", "director")]),
        ({"q": "lus"}, [("sheet.entry", "Table 4", "assistant"), ("sheet.correction", "Table 3", "director")]),
        ({"action": "sheet.entry", "q": "Table 3"}, []),
        ({"action": "no.such.action"}, []),
    ],
)
def test_filters(logged, director, assistant, client, query, expected):
    if query.get("user"):
        query = {**query, "user": str(assistant.pk)}
    client.force_login(director)
    response = client.get(reverse("tournament:audit", args=[logged.slug]), query)
    assert rows(response) == expected


def test_filter_form_offers_the_actions_and_people_of_this_tournament(logged, director, make_director,
                                                                      make_tournament, client):
    make_tournament(make_director("other"), name="Elsewhere")
    client.force_login(director)
    form = client.get(reverse("tournament:audit", args=[logged.slug])).context["filter_form"]
    assert [label for _value, label in form.fields["user"].choices][1:] == ["assistant", "director"]
    assert [value for value, _label in form.fields["action"].choices][1:] == [
        "sheet.correction", "sheet.entry", "tournament.create", "tournament.update"]


def test_entries_of_other_tournaments_never_show(logged, director, make_tournament, client):
    make_tournament(director, name="Second evening")
    client.force_login(director)
    response = client.get(reverse("tournament:audit", args=[logged.slug]), {"q": "Second evening"})
    assert rows(response) == []


def test_pages_of_fifty(tournament, director, client):
    for n in range(60):
        log_action("team.add", by=director, tournament=tournament, obj=f"Team {n}")
    client.force_login(director)
    url = reverse("tournament:audit", args=[tournament.slug])
    assert len(rows(client.get(url, {"action": "team.add"}))) == 50
    second = client.get(url, {"action": "team.add", "page": 2})
    assert len(rows(second)) == 10


def test_who_may_open_the_audit_log(logged, assistant, make_director, client):
    url = reverse("tournament:audit", args=[logged.slug])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(make_director("other"))
    assert client.get(url).status_code == 404
    client.force_login(assistant)
    assert client.get(url).status_code == 404


# --- readable for a director: words, local time, field: value lines ------------------------------------------

def page_of(client, tournament, language="en", **query) -> str:
    response = client.get(reverse("tournament:audit", args=[tournament.slug]), query,
                          HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def lines(html: str, column: str) -> set[str]:
    """The "field: value" lines of the first cell of a column, as a set: PostgreSQL's jsonb keeps no key order."""
    cell = re.search(rf'<td class="{column}"[^>]*><ul class="changes">(.*?)</ul>', html, re.S).group(1)
    return {" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in re.findall(r"<li[^>]*>(.*?)</li>", cell, re.S)}


def cells(html: str, column: str) -> list[str]:
    """The text of the table's cells of one column (their class is the column's name), tags removed."""
    found = re.findall(rf'<td class="{column}"[^>]*>(.*?)</td>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in found]


@pytest.mark.parametrize("language,words,all_actions", [
    ("en", ["Result entered", "Result corrected", "Tournament details changed", "Tournament created"],
     "All actions"),
    ("de", ["Ergebnis eingetragen", "Ergebnis korrigiert", "Turnierangaben geändert", "Turnier angelegt"],
     "Alle Aktionen"),
    ("da", ["Resultat indtastet", "Resultat rettet", "Turneringens oplysninger ændret", "Turnering oprettet"],
     "Alle handlinger"),
])
def test_actions_show_in_words_of_the_language(logged, director, client, language, words, all_actions):
    client.force_login(director)
    html = page_of(client, logged, language)
    assert cells(html, "action") == words
    assert "sheet.correction" not in cells(html, "action")
    form = client.get(reverse("tournament:audit", args=[logged.slug]), HTTP_ACCEPT_LANGUAGE=language
                      ).context["filter_form"]
    choices = dict(form.fields["action"].choices)
    assert choices[""] == all_actions
    # the filter's values stay the keys; its choices show the same words as the table, in their order
    assert {key: str(label) for key, label in choices.items() if key} == {
        "sheet.entry": words[0], "sheet.correction": words[1], "tournament.update": words[2],
        "tournament.create": words[3]}
    labels = [str(label) for key, label in form.fields["action"].choices if key]
    assert labels == sorted(labels, key=str.casefold)


def test_a_key_without_a_label_shows_as_itself(tournament, director, client):
    log_action("imported.from.elsewhere", by=director, tournament=tournament, obj="Table 1", after={"x": 1})
    client.force_login(director)
    html = page_of(client, tournament, "de")
    assert "imported.from.elsewhere" in cells(html, "action")
    choices = client.get(reverse("tournament:audit", args=[tournament.slug])).context["filter_form"] \
        .fields["action"].choices
    assert ("imported.from.elsewhere", "imported.from.elsewhere") in choices
    response = client.get(reverse("tournament:audit", args=[tournament.slug]),
                          {"action": "imported.from.elsewhere", "sort": "action"})
    assert [r for r, *_ in rows(response)] == ["imported.from.elsewhere"]


def test_search_finds_the_words_too(logged, director, client):
    client.force_login(director)
    response = client.get(reverse("tournament:audit", args=[logged.slug]), {"q": "korrigiert"},
                          HTTP_ACCEPT_LANGUAGE="de")
    assert rows(response) == [("sheet.correction", "Table 3", "director")]
    response = client.get(reverse("tournament:audit", args=[logged.slug]), {"q": "corrected"})
    assert rows(response) == [("sheet.correction", "Table 3", "director")]


def test_sorting_by_action_sorts_by_the_words(logged, director, client):
    client.force_login(director)
    url = reverse("tournament:audit", args=[logged.slug])
    # Result corrected < Result entered < Tournament created < Tournament details changed
    assert [a for a, *_ in rows(client.get(url, {"sort": "action"}))] == [
        "sheet.correction", "sheet.entry", "tournament.create", "tournament.update"]
    assert [a for a, *_ in rows(client.get(url, {"sort": "-action"}))] == [
        "tournament.update", "tournament.create", "sheet.entry", "sheet.correction"]


@pytest.mark.parametrize("language,shown", [
    ("en", "5 Dec 2026 6:30 p.m."),
    ("de", "05.12.2026 18:30"),
    ("da", "05.12.2026 18:30"),
])
def test_time_in_the_venues_zone_and_the_languages_short_format(director, make_tournament, client, language,
                                                                 shown):
    """23:30 UTC is 18:30 in New York, the venue; the installation's zone (Berlin) would say 00:30 the next day."""
    t = make_tournament(director, name="Abroad", time_zone="America/New_York")
    AuditEntry.objects.filter(tournament=t).update(
        when=datetime.datetime(2026, 12, 5, 23, 30, tzinfo=datetime.UTC))
    client.force_login(director)
    assert cells(page_of(client, t, language), "when") == [shown]


def test_each_tournaments_audit_page_runs_in_its_own_venues_zone(director, make_tournament, client):
    """VenueTimeZoneMiddleware acts on /manage/<slug>/audit/: the same instant, two venues, two local times."""
    instant = datetime.datetime(2026, 12, 5, 23, 30, tzinfo=datetime.UTC)
    abroad = make_tournament(director, name="Abroad", time_zone="America/New_York")
    home = make_tournament(director, name="Home", time_zone="Europe/Copenhagen")
    AuditEntry.objects.filter(tournament__in=[abroad, home]).update(when=instant)
    client.force_login(director)
    assert cells(page_of(client, abroad, "de"), "when") == ["05.12.2026 18:30"]
    assert cells(page_of(client, home, "de"), "when") == ["06.12.2026 00:30"]
    assert cells(page_of(client, abroad, "de"), "when") == ["05.12.2026 18:30"]  # nothing left over


def test_before_and_after_read_as_field_value_lines(tournament, director, client):
    long_note = " ".join(["The table wrote the scores of round two into the column of round three."] * 3)
    log_action("participant.update", by=director, tournament=tournament, obj="7 Anna Huber",
               before={"first_name": "Ana", "club": "TSV", "paid": False, "players": ["Ann", "Bo"]},
               after={"first_name": "Anna", "club": "TSV", "paid": True, "players": ["Ann", "Bo", "Cy"],
                      "note": long_note, "entry_fee": None})
    client.force_login(director)
    html = page_of(client, tournament)
    row = html[html.index('<span title="participant.update">'):]
    assert lines(row, "before") == {"First name: Ana", "Club: TSV", "Paid: no", "Players: Ann, Bo"}
    assert lines(row, "after") == {"First name: Anna", "Club: TSV", "Paid: yes", "Players: Ann, Bo, Cy",
                                   f"Note: The table wrote the scores of round two into the column of… {long_note}",
                                   "Entry fee: –"}
    assert '<li class="same"><span class="field">Club:</span> TSV</li>' in row  # unchanged: greyed
    # the long note is shortened, its whole text one click or keypress away
    assert re.search(r'<details class="long"><summary>The table wrote[^<]{10,60}…</summary>'
                     + re.escape(long_note) + "</details>", row)
    assert "{&quot;" not in html and '{"' not in row  # no JSON left
    html_de = page_of(client, tournament, "de")
    assert "Vorname:</span> Ana" in html_de and "Bezahlt:</span> nein" in html_de


def test_many_unchanged_fields_fold_away(logged, director, client):
    client.force_login(director)
    html = page_of(client, logged)
    row = html[html.index('<span title="tournament.update">'):html.index('<span title="tournament.create">')]
    assert lines(row, "before") == {"Venue: –"}
    assert re.search(r'<details class="unchanged"><summary>\d+ unchanged</summary>', row)
    assert lines(row, "after") == {"Venue: Town hall"}


def test_hostile_values_stay_escaped(tournament, director, client):
    hostile = '<script>alert(1)</script>"onmouseover=alert(1)'
    log_action(hostile, by=director, tournament=tournament, obj=hostile, reason=hostile,
               before={hostile: hostile, "players": [hostile, "<b>x</b>"]},
               after={"name": hostile * 5, "nested": {hostile: [hostile]}})
    client.force_login(director)
    html = page_of(client, tournament)
    assert "<script>alert" not in html and "<b>x</b>" not in html and '"onmouseover' not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover=alert(1)" in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html
    # the search over before/after still finds what is in them
    response = client.get(reverse("tournament:audit", args=[tournament.slug]), {"q": "onmouseover"})
    assert len(rows(response)) == 1


@pytest.mark.parametrize("language,day,moment", [
    ("en", "5 Dec 2026", "5 Dec 2026 6:30 p.m."),
    ("de", "05.12.2026", "05.12.2026 18:30"),
])
def test_dates_and_times_in_values_read_as_dates(director, make_tournament, client, language, day, moment):
    t = make_tournament(director, name="Abroad", time_zone="America/New_York")
    log_action("clock.start", by=director, tournament=t, obj="Round 1",
               before={"started_at": None}, after={"started_at": "2026-12-05T23:30:00Z", "date": "2026-12-05"})
    client.force_login(director)
    html = page_of(client, t, language)
    row = html[html.index('<span title="clock.start">'):]
    assert f"</span> {moment}</li>" in row.split("</tr>")[0]
    assert f"</span> {day}</li>" in row.split("</tr>")[0]


def test_folded_fields_show_whole_and_nothing_is_folded_twice(tournament, director, client):
    """A <details> inside the closed fold could not be reached by Tab: unchanged long values show whole there."""
    long_value = "x" * 100
    same = {"a": long_value, "b": long_value, "c": long_value}
    log_action("schafkopf.settings", by=director, tournament=tournament, obj="Settings",
               before={**same, "rounds": 2}, after={**same, "rounds": 3, "note": long_value})
    client.force_login(director)
    html = page_of(client, tournament)
    row = html[html.index('<span title="schafkopf.settings">'):].split("</tr>")[0]
    folds = re.findall(r'<details class="unchanged">(.*?)</details>', row, re.S)
    assert len(folds) == 2 and all(f"</span> {long_value}</li>" in fold for fold in folds)
    assert "<details" not in "".join(folds)
    assert lines(row, "after") == {"Rounds: 3", f"Note: {'x' * 60}… {long_value}"}
    assert row.count('<details class="long">') == 1  # the changed long value, outside the fold


def test_known_choices_read_in_words_and_odd_dates_stay_as_they_are(tournament, director, client):
    log_action("participant.excluded", by=director, tournament=tournament, obj="7 Anna Huber",
               before={"status": "active", "reason": ""}, after={"status": "excluded", "reason": "rude"})
    log_action("participant.update", by=director, tournament=tournament, obj="2026-13-45",
               before={"last_name": "2026-13-45", "club": "2026-02-30T25:99"}, after={"last_name": "Huber"})
    client.force_login(director)
    html = page_of(client, tournament, "de")
    row = html[html.index('<span title="participant.excluded">'):].split("</tr>")[0]
    assert lines(row, "before") == {"Status: Aktiv", "Begründung: –"}
    assert lines(row, "after") == {"Status: Ausgeschlossen", "Begründung: rude"}
    row = html[html.index('<span title="participant.update">'):].split("</tr>")[0]
    assert lines(row, "before") == {"Nachname: 2026-13-45", "Verein: 2026-02-30T25:99"}
    row = html[html.index('<span title="tournament.create">'):].split("</tr>")[0]
    assert "Spiel: Voms" in lines(row, "after") and "Status: Geplant" in lines(row, "after")
