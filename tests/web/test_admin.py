"""The admin reads tournament data and changes none of it; roles are given through the roles service."""

import pytest
from django.contrib import admin
from django.test import RequestFactory

from tournament.models import AuditEntry, Role, Tournament, TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("root", password="pw-Root-Long-1")


def test_no_tournament_or_scoring_data_can_be_added_changed_or_deleted_in_the_admin(superuser):
    request = RequestFactory().get("/admin/")
    request.user = superuser
    checked = []
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in ("tournament", "scoring") or model is TournamentRole:
            continue
        checked.append(model._meta.label)
        assert not model_admin.has_add_permission(request), model
        assert not model_admin.has_change_permission(request), model
        assert not model_admin.has_delete_permission(request), model
        for inline in model_admin.get_inline_instances(request):
            assert not inline.has_add_permission(request, None), inline
            assert not inline.has_change_permission(request), inline
            assert not inline.has_delete_permission(request), inline
    assert "tournament.Tournament" in checked


def test_adding_a_tournament_in_the_admin_is_refused_not_a_server_error(client, superuser):
    client.force_login(superuser)
    assert client.get("/admin/tournament/tournament/add/").status_code == 403
    response = client.post("/admin/tournament/tournament/add/", {"name": "Side door", "slug": "side-door",
                                                                "game": "voms", "date": "2026-12-05"})
    assert response.status_code == 403
    assert not Tournament.objects.filter(slug="side-door").exists()


def test_a_tournament_is_shown_but_cannot_be_changed_in_the_admin(client, superuser, tournament):
    client.force_login(superuser)
    page = f"/admin/tournament/tournament/{tournament.pk}/change/"
    response = client.get(page)
    assert response.status_code == 200 and tournament.name in response.content.decode()
    assert 'name="name"' not in response.content.decode()
    audit = AuditEntry.objects.count()
    posted = client.post(page, {"name": "Renamed", "slug": tournament.slug, "game": "schafkopf",
                                "date": "2026-12-05", "settings": '{"pools": "many"}'})
    assert posted.status_code == 403
    tournament.refresh_from_db()
    assert (tournament.name, tournament.game) == ("Club evening", "voms")
    assert AuditEntry.objects.count() == audit
    assert client.post(f"/admin/tournament/tournament/{tournament.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def role_form(tournament, user, role):
    return {"tournament": tournament.pk, "user": user.pk, "role": role}


def test_a_director_gives_and_takes_an_assistant_role_in_the_admin_and_the_log_says_so(
        client, director, tournament, django_user_model):
    helper = django_user_model.objects.create_user("helper", password="pw-Helper-Long-1")
    client.force_login(director)
    response = client.post("/admin/tournament/tournamentrole/add/", role_form(tournament, helper, Role.ASSISTANT))
    assert response.status_code == 302, response.content.decode()
    held = TournamentRole.objects.get(tournament=tournament, user=helper)
    assert held.role == Role.ASSISTANT
    entry = AuditEntry.objects.get(tournament=tournament, action="role.set")
    assert entry.user == director and entry.after == {"user": "helper", "role": "assistant"}

    response = client.post(f"/admin/tournament/tournamentrole/{held.pk}/change/", {"role": Role.DIRECTOR})
    assert response.status_code == 302
    held.refresh_from_db()
    assert held.role == Role.DIRECTOR
    assert AuditEntry.objects.filter(action="role.set", before={"user": "helper", "role": "assistant"}).exists()

    response = client.post(f"/admin/tournament/tournamentrole/{held.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not TournamentRole.objects.filter(pk=held.pk).exists()
    assert AuditEntry.objects.filter(tournament=tournament, action="role.remove").count() == 1


def test_a_director_cannot_give_roles_in_another_directors_tournament(
        client, director, make_director, make_tournament):
    stranger = make_director("stranger")
    theirs = make_tournament(stranger, name="Not yours")
    client.force_login(director)
    response = client.post("/admin/tournament/tournamentrole/add/", role_form(theirs, director, Role.DIRECTOR))
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not TournamentRole.objects.filter(tournament=theirs, user=director).exists()
    assert client.get("/admin/tournament/tournamentrole/").content.decode().count("Not yours") == 0


def test_the_last_director_of_a_tournament_cannot_be_removed_or_demoted(client, director, tournament):
    held = TournamentRole.objects.get(tournament=tournament, user=director)
    client.force_login(director)
    assert client.post(f"/admin/tournament/tournamentrole/{held.pk}/delete/", {"post": "yes"}).status_code == 403
    response = client.post(f"/admin/tournament/tournamentrole/{held.pk}/change/", {"role": Role.ASSISTANT})
    assert response.status_code == 200 and "at least one director" in response.content.decode()
    held.refresh_from_db()
    assert held.role == Role.DIRECTOR
    assert not AuditEntry.objects.filter(action__startswith="role.").exists()
