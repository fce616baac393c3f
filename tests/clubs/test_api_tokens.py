"""A club's API tokens and the push endpoint (issue 26, "Laptop ↔ server"): hashed at rest, shown once, revocable,
scoped, audited; a token of club A never touches club B's tournaments; a bad file changes nothing."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.urls import reverse

from scoring.games import get_game
from tests.hostile.conftest import demo_options
from tests.ops.conftest import delete_tournament
from tournament.models import ApiToken, AuditEntry, Tournament, TournamentSnapshot
from tournament.services.api_tokens import make_token, revoke_token
from tournament.transfer import export_tournament

PUSH = "/api/v1/club/push"


def push(client, token: str | None, data: bytes, **headers):
    if token is not None:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client.post(PUSH, data=data, content_type="application/json", **headers)


def laptop_file(director) -> bytes:
    """A played evening's file from a laptop: the tournament is not on this server (deleted after its export)."""
    game = get_game("schafkopf")
    played = game.demo(director, **demo_options(game, results=True))
    data = export_tournament(played)
    delete_tournament(played)
    return data


def every_text_in_the_database() -> str:
    """All the values of the tables a token could be written to, as one text."""
    texts = []
    with connection.cursor() as cursor:
        for table in (ApiToken._meta.db_table, AuditEntry._meta.db_table):
            cursor.execute(f"SELECT * FROM {table}")  # noqa: S608 (the model's own table names)
            texts += [str(value) for row in cursor.fetchall() for value in row]
    return "\n".join(texts)


def test_only_the_hash_is_stored_and_the_token_works_until_revoked(clubs, client):
    a = clubs.a
    token, text = make_token(a.club, by=a.admin, name="Club laptop", scopes=["push", "read"])
    assert text.startswith("tmk_") and len(text) > 40
    assert token.token_hash == hashlib.sha256(text.encode()).hexdigest()
    assert text not in every_text_in_the_database()  # the database holds no token, the audit log neither
    assert AuditEntry.objects.of(a.club).filter(action="club.token_add", object_repr__contains=token.hint).exists()

    answer = client.get("/api/v1/club", HTTP_AUTHORIZATION=f"Bearer {text}")
    assert answer.status_code == 200
    assert answer.json()["club"] == a.club.name
    assert [t["slug"] for t in answer.json()["tournaments"]] == [a.tournament.slug]  # club A's only
    token.refresh_from_db()
    assert token.last_used_at is not None
    assert AuditEntry.objects.of(a.club).filter(action="club.token_use").count() == 1

    revoke_token(token, by=a.admin)
    refused = client.get("/api/v1/club", HTTP_AUTHORIZATION=f"Bearer {text}")
    assert refused.status_code == 401
    assert refused.json() == {"detail": "The API token is unknown or revoked."}
    assert AuditEntry.objects.of(a.club).filter(action="club.token_revoke", user=a.admin).exists()
    assert text not in every_text_in_the_database()


@pytest.mark.parametrize("header", [None, "Bearer tmk_unknown", "Basic abc", "Bearer "])
def test_no_token_or_an_unknown_one_is_401_with_a_json_message(clubs, client, header):
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    answer = client.post(PUSH, data=b"{}", content_type="application/json", **extra)
    assert answer.status_code == 401
    assert answer["Content-Type"].startswith("application/json")
    assert "token" in answer.json()["detail"]


def test_a_token_without_the_scope_is_403(clubs, client):
    a = clubs.a
    _reader, read_only = make_token(a.club, by=a.admin, name="Website", scopes=["read"])
    _pusher, push_only = make_token(a.club, by=a.admin, name="Laptop", scopes=["push"])
    answer = push(client, read_only, export_tournament(a.tournament))
    assert answer.status_code == 403 and "push" in answer.json()["detail"]
    assert client.get("/api/v1/club", HTTP_AUTHORIZATION=f"Bearer {push_only}").status_code == 403
    assert Tournament.objects.count() == 2  # nothing made


def test_the_refusal_is_in_the_language_asked_for(clubs, client):
    answer = client.get("/api/v1/club", HTTP_AUTHORIZATION="Bearer tmk_nope", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 401
    assert answer.json()["detail"] == "Das API-Token ist unbekannt oder widerrufen."


def test_a_push_creates_then_updates_with_a_snapshot(clubs, client):
    a = clubs.a
    data = laptop_file(a.admin)
    _token, text = make_token(a.club, by=a.admin, name="Club laptop", scopes=["push"])
    first = push(client, text, data)
    assert first.status_code == 200, first.content
    made = Tournament.objects.get(uid=json.loads(data)["tournament"]["uid"])
    assert made.organisation == a.club
    assert first.json()["result"] == "created" and first.json()["slug"] == made.slug
    assert first.json()["url"].endswith(made.get_absolute_url())
    assert first.json()["counts"]["sheets"] > 0

    second = push(client, text, data)
    assert second.status_code == 200 and second.json()["result"] == "updated"
    assert Tournament.objects.filter(uid=made.uid).count() == 1 and Tournament.objects.count() == 3
    assert TournamentSnapshot.objects.filter(tournament_id=made.pk).count() == 1  # kept before the update
    uses = AuditEntry.objects.of(a.club).filter(action="club.token_use").order_by("pk")
    assert [entry.after["result"] for entry in uses] == ["created", "updated"]


def test_a_file_of_another_clubs_tournament_becomes_a_copy_of_the_tokens_club(clubs, client):
    a, b = clubs.a, clubs.b
    a.tournament.refresh_from_db()
    file_of_a = export_tournament(a.tournament)
    before = (a.tournament.name, a.tournament.organisation_id, a.tournament.uid, a.tournament.season_id)
    _token, text = make_token(b.club, by=b.admin, name="B's laptop", scopes=["push"])
    answer = push(client, text, file_of_a)
    assert answer.status_code == 200 and answer.json()["result"] == "created"
    copy = Tournament.objects.of(b.club).get(slug=answer.json()["slug"])  # the same short name as A's, in club B
    assert copy.organisation == b.club and copy.pk != a.tournament.pk and copy.uid != a.tournament.uid
    again = push(client, text, file_of_a)  # still never club A's: another copy of B's (A's uid is not B's)
    assert again.status_code == 200 and again.json()["result"] == "created"
    a.tournament.refresh_from_db()
    assert (a.tournament.name, a.tournament.organisation_id, a.tournament.uid, a.tournament.season_id) == before
    assert not TournamentSnapshot.objects.filter(tournament_id=a.tournament.pk).exists()  # never updated


def test_a_tournament_of_the_club_its_maker_does_not_direct_is_refused(clubs, client):
    a = clubs.a  # its evening is directed by a.director, not by the admin who makes the token
    _token, text = make_token(a.club, by=a.admin, name="Club laptop", scopes=["push"])
    answer = push(client, text, export_tournament(a.tournament))
    assert answer.status_code == 403 and "directed by others" in answer.json()["detail"]
    assert Tournament.objects.of(a.club).count() == 1


def test_a_bad_file_is_400_translated_and_changes_nothing(clubs, client):
    a = clubs.a
    _token, text = make_token(a.club, by=a.admin, name="Club laptop", scopes=["push"])
    counts = Tournament.objects.count()
    answer = push(client, text, b'{"format": "nothing of ours"}', HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert answer.json()["detail"] and "file" not in answer.json()["detail"].lower().split()  # German, not English
    assert push(client, text, b"not json").status_code == 400
    assert Tournament.objects.count() == counts


def test_a_file_over_the_limit_is_413_and_not_read(clubs, client, settings):
    a = clubs.a
    settings.TOURNAMENT_IMPORT_MAX_BYTES = 1024 * 1024
    _token, text = make_token(a.club, by=a.admin, name="Club laptop", scopes=["push"])
    answer = push(client, text, b" " * (1024 * 1024 + 1))
    assert answer.status_code == 413 and "1 MB" in answer.json()["detail"]


def test_a_token_of_a_maker_who_left_the_club_does_nothing(clubs, client):
    from tournament.services.clubs import remove_member

    a = clubs.a
    second_admin = a.admin
    _token, text = make_token(a.club, by=second_admin, name="Club laptop", scopes=["read"])
    from tests.clubs.conftest import new_member

    other_admin = new_member(a.club, "admin_a2", "admin")
    remove_member(second_admin.memberships.get(), by=other_admin)
    answer = client.get("/api/v1/club", HTTP_AUTHORIZATION=f"Bearer {text}")
    assert answer.status_code == 403 and "no longer directs" in answer.json()["detail"]


def test_only_the_clubs_admin_makes_and_revokes_tokens(clubs):
    from tournament.services.errors import DomainError

    a, b = clubs.a, clubs.b
    with pytest.raises(DomainError):
        make_token(a.club, by=a.director, name="Mine", scopes=["push"])
    with pytest.raises(DomainError):
        make_token(a.club, by=b.admin, name="Theirs", scopes=["push"])
    token, _text = make_token(a.club, by=a.admin, name="Club laptop", scopes=["push"])
    with pytest.raises(DomainError):
        revoke_token(token, by=b.admin)
    with pytest.raises(DomainError):
        make_token(a.club, by=a.admin, name="  ", scopes=["push"])
    with pytest.raises(DomainError):
        make_token(a.club, by=a.admin, name="Odd", scopes=["admin"])
    assert ApiToken.objects.count() == 1


def test_the_club_page_makes_a_token_shows_it_once_and_revokes_it(clubs, client):
    a = clubs.a
    client.force_login(a.admin)
    response = client.post(reverse("club"), {"action": "token", "name": "Club laptop", "scopes": ["push"]})
    page = response.content.decode()
    token = ApiToken.objects.get()
    shown = page.split('id="new-token" value="')[1].split('"')[0]
    assert hashlib.sha256(shown.encode()).hexdigest() == token.token_hash
    assert shown not in every_text_in_the_database()
    assert not any(shown in str(s.get_decoded()) for s in Session.objects.all())  # not kept for a redirect either
    assert 'data-copy="new-token"' in page
    assert shown not in client.get(reverse("club")).content.decode()  # once only
    assert f"{token.hint}…" in client.get(reverse("club")).content.decode()

    asked = client.post(reverse("club"), {"action": "revoke", "token": token.pk})
    assert "Revoke the API token “Club laptop”?" in asked.content.decode()
    token.refresh_from_db()
    assert token.active  # not before it is confirmed
    client.post(reverse("club"), {"action": "revoke", "token": token.pk, "confirmed": "1"})
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == a.admin

    bad = client.post(reverse("club"), {"action": "token", "name": "", "scopes": []})
    assert bad.status_code == 200 and ApiToken.objects.count() == 1
    client.force_login(clubs.b.admin)  # B's admin cannot revoke A's token: not found among B's
    assert client.post(reverse("club"), {"action": "revoke", "token": token.pk, "confirmed": "1"}).status_code == 404


def test_the_openapi_schema_shows_the_push_with_its_bearer_auth(client):
    schema = client.get("/api/v1/openapi.json").json()
    operation = schema["paths"]["/api/v1/club/push"]["post"]
    assert operation["security"] == [{"ClubToken": []}]
    assert schema["components"]["securitySchemes"]["ClubToken"] == {"type": "http", "scheme": "bearer"}
    assert set(operation["responses"]) >= {"200", "400", "401", "403", "413"}
    assert "application/json" in operation["requestBody"]["content"]
