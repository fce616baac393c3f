"""The audit log page: directors of the tournament see and filter it, nobody else does."""

import pytest
from django.urls import reverse

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
