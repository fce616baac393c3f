"""The laptop's "Club server" page and the tournament page's button (tournament/views/push.py): a director of the
club sets the server and the token (kept as given, shown masked, never in the audit log); nobody else opens it."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tournament.models import AuditEntry, ClubServer, Role, TournamentRole
from tournament.services.tournaments import create_tournament

pytestmark = pytest.mark.django_db

TOKEN = "tmk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"


def test_a_director_sets_the_server_and_the_token_is_shown_masked(client, director):
    client.force_login(director)
    page = reverse("club_server")
    assert client.get(page).status_code == 200
    response = client.post(page, {"url": "https://club.example.org", "token": TOKEN}, follow=True)
    kept = ClubServer.objects.get()
    assert (kept.url, kept.token) == ("https://club.example.org", TOKEN)  # the laptop must send it as given
    text = response.content.decode()
    assert "tmk_0123…" in text and TOKEN not in text
    client.post(page, {"url": "https://other.example.org", "token": ""})  # empty: the token stays
    kept.refresh_from_db()
    assert (kept.url, kept.token) == ("https://other.example.org", TOKEN)
    entries = AuditEntry.objects.filter(action="club.server_set")
    assert entries.count() == 2 and all(TOKEN not in str(e.before) + str(e.after) for e in entries)

    client.post(page, {"action": "forget"})
    assert not ClubServer.objects.exists()
    assert AuditEntry.objects.filter(action="club.server_remove").exists()


def test_an_address_copied_from_the_browser_s_bar_keeps_only_the_server_s(client, director):
    """A director copies the club page's address (…/c/<club>/manage/club/) from the browser: the push went to
    …/c/<club>/manage/club/api/v1/club/push and the server answered 404; a folder the server is served under stays."""
    from tournament.services.push import push_url

    client.force_login(director)
    page = reverse("club_server")
    for given, kept in (("https://club.example.org/c/sk-isartal/manage/club/", "https://club.example.org"),
                        ("https://club.example.org/turniere/manage/?sort=name", "https://club.example.org/turniere"),
                        ("http://192.168.1.20:8000/", "http://192.168.1.20:8000")):
        client.post(page, {"url": given, "token": TOKEN})
        assert ClubServer.objects.get().url == kept
    assert push_url("https://club.example.org/c/sk-isartal/p/x/") == "https://club.example.org/api/v1/club/push"


def test_a_bad_address_or_no_token_saves_nothing(client, director):
    client.force_login(director)
    page = reverse("club_server")
    assert client.post(page, {"url": "not an address", "token": TOKEN}).status_code == 200
    assert client.post(page, {"url": "https://club.example.org", "token": ""}).status_code == 200
    # a token with characters no token has (a copying mistake; it could not even be sent in a header), an address
    # that is no web address: refused with a message, nothing kept
    wrong = client.post(page, {"url": "https://club.example.org", "token": "tmk_abc\U000e72bd defghijkl"})
    assert wrong.status_code == 200 and "This is not an API token" in wrong.content.decode()
    wrong = client.post(page, {"url": "ftp://club.example.org", "token": TOKEN})
    assert wrong.status_code == 200 and "must begin with https://" in wrong.content.decode()
    assert not ClubServer.objects.exists()


def test_only_a_director_of_the_club_opens_it(client, django_user_model, director):
    helper = django_user_model.objects.create_user("helper", password="pw-Helper-1")
    client.force_login(helper)
    assert client.get(reverse("club_server")).status_code == 404
    assert client.post(reverse("club_server"), {"url": "https://x.example.org", "token": TOKEN}).status_code == 404
    assert not ClubServer.objects.exists()


def test_the_button_shows_once_a_server_is_set_and_only_a_director_pushes(client, django_user_model, director):
    tournament = create_tournament(by=director, name="Evening", game="schafkopf", date=datetime.date(2026, 3, 1))
    helper = django_user_model.objects.create_user("helper", password="pw-Helper-1")
    TournamentRole.objects.create(tournament=tournament, user=helper, role=Role.ASSISTANT)
    client.force_login(director)
    button = f'action="{reverse("tournament:push", args=[tournament.slug])}"'
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert button not in page and "Set up the club's server" in page
    answer = client.post(reverse("tournament:push", args=[tournament.slug]), follow=True)
    assert "No club server is set" in answer.content.decode()
    ClubServer.objects.create(organisation=tournament.organisation, url="https://club.example.org", token=TOKEN)
    assert button in client.get(tournament.get_absolute_url()).content.decode()

    client.force_login(helper)
    assert button not in client.get(tournament.get_absolute_url()).content.decode()
    assert client.post(reverse("tournament:push", args=[tournament.slug])).status_code in (403, 404)
    assert not AuditEntry.objects.filter(action="tournament.push").exists()


def test_the_push_message_links_the_servers_copy_and_only_a_web_address():
    import html

    from tournament.services.push import Pushed
    from tournament.views.push import pushed_message

    def said(url, result="created"):
        return str(pushed_message(Pushed(server="https://club.example.org", result=result, url=url, counts={},
                                         notes=())))

    copy = "https://club.example.org/c/sk/manage/friday/"
    assert html.unescape(said(copy)) == ("Sent to the club's server: it made the tournament there "
                          f'(<a href="{copy}">{copy}</a>).')
    assert f'<a href="{copy}">' in said(copy, "updated") and "updated its copy" in said(copy, "updated")
    assert "<a" not in said("javascript:alert(1)")  # what the server answered is no link unless a web address
    assert "<script>" not in said('https://x.example/"><script>alert(1)</script>')
