"""Tournaments: the services, the director pages and who may see them."""

import datetime
import re

import pytest
from django.urls import reverse

from scoring.games import game_of
from tournament.models import AuditEntry, Tournament
from tournament.services.errors import DomainError
from tournament.services.tournaments import create_tournament, set_archived, update_tournament

pytestmark = pytest.mark.django_db


def test_create_makes_creator_director_and_logs(director):
    t = create_tournament(by=director, name="Spring Cup", game="schafkopf", date=datetime.date(2026, 4, 1))
    assert t.slug == "spring-cup"
    assert t.roles.get().user == director
    entry = AuditEntry.objects.get(tournament=t)
    assert entry.action == "tournament.create" and entry.user == director
    assert entry.after["name"] == "Spring Cup"


def test_slugs_stay_unique(director, make_tournament):
    assert make_tournament(director, name="Cup").slug == "cup"
    assert make_tournament(director, name="Cup").slug == "cup-2"


def test_danish_and_german_letters_are_kept_in_the_address(director, make_tournament):
    """slugify drops the letters without a plain form: "Prøveaften" had the address /p/prveaften/. They are written
    as the languages write them without the letter (æ ae, ø oe, ß ss); å, ä, ö, ü keep their plain letter."""
    assert make_tournament(director, name="Prøveaften i Næstved").slug == "proeveaften-i-naestved"
    assert make_tournament(director, name="Straßen-Cup Ålbæk").slug == "strassen-cup-albaek"
    assert make_tournament(director, name="Fröhliche Runde").slug == "frohliche-runde"


def test_reserved_addresses_are_never_slugs(director, make_tournament):
    assert make_tournament(director, name="New").slug == "new-2"
    assert make_tournament(director, name="Import").slug == "import-2"


def test_unknown_game_refused(director):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as err:
        create_tournament(by=director, name="X", game="chess", date=datetime.date(2026, 1, 1))
    assert "game" in err.value.message_dict
    assert not Tournament.objects.exists()


def test_user_without_permission_cannot_create(django_user_model):
    user = django_user_model.objects.create_user("player", password="x")
    with pytest.raises(DomainError):
        create_tournament(by=user, name="X", game="voms", date=datetime.date(2026, 1, 1))


def test_update_logs_before_and_after(tournament, director):
    update_tournament(tournament, by=director, venue="Town hall", reason="moved")
    entry = AuditEntry.objects.filter(action="tournament.update").get()
    assert entry.before["venue"] == "" and entry.after["venue"] == "Town hall" and entry.reason == "moved"


def test_game_fixed_once_running(tournament, director):
    update_tournament(tournament, by=director, status=Tournament.Status.RUNNING)
    with pytest.raises(DomainError):
        update_tournament(tournament, by=director, game="schafkopf")
    tournament.refresh_from_db()
    assert tournament.game == "voms"


def test_assistant_cannot_edit(tournament, assistant):
    with pytest.raises(DomainError):
        update_tournament(tournament, by=assistant, name="Mine now")
    tournament.refresh_from_db()
    assert tournament.name == "Club evening"


@pytest.mark.parametrize("game", ["voms", "schafkopf", "domino", "domino_patience", "rummi", "quadominos"])
def test_the_tournament_page_offers_an_assistant_only_pages_that_open(game, director, make_tournament,
                                                                      django_user_model, client):
    """The assistant's second laptop: no button on the tournament's page leads to "not found"."""
    from tournament.models import Role, TournamentRole

    t = make_tournament(director, name="Evening", game=game)
    helper = django_user_model.objects.create_user(username="helper", password="pw-Assistant-1")
    TournamentRole.objects.create(tournament=t, user=helper, role=Role.ASSISTANT)
    for user, least in ((helper, 3), (director, 9)):
        client.force_login(user)
        menu = client.get(reverse("tournament:detail", args=[t.slug])).context["game_menu"]
        assert len(menu) >= least
        for label, url in menu:
            assert client.get(url, follow=True).status_code == 200, (user.username, str(label), url)
        # and the game's own menu, on every game page
        overview = client.get(menu[0][1]).content.decode()
        nav = overview.split('-nav"', 1)[1].split("</nav>", 1)[0]
        for url in re.findall(r'href="([^"]+)"', nav):
            assert client.get(url, follow=True).status_code == 200, (user.username, url)
    assert len(menu) == len(game_of(t).menu(t))  # the director is offered every page


def test_archive_and_restore(tournament, director, client):
    client.force_login(director)
    url = reverse("tournament:archive", args=[tournament.slug])
    asked = client.post(url, {"archived": "1"})
    tournament.refresh_from_db()
    assert not tournament.archived  # a confirmation first, nothing archived yet
    assert asked.status_code == 200 and b'name="confirmed" value="1"' in asked.content
    client.post(url, {"archived": "1", "confirmed": "1"})
    tournament.refresh_from_db()
    assert tournament.archived

    def listed(query=""):
        table = client.get(reverse("tournament:list") + query).context["table"]
        return [row.record.name for row in table.rows]

    assert listed() == []
    assert listed("?archived=1") == [tournament.name]
    set_archived(tournament, False, by=director)
    assert listed() == [tournament.name]


def test_create_view_refuses_bad_input_and_saves_nothing(director, client):
    client.force_login(director)
    response = client.post(reverse("tournament:create"), {"name": "", "game": "chess", "date": "32.13.2026"})
    assert response.status_code == 200
    assert response.context["form"].errors.keys() >= {"name", "game", "date"}
    assert not Tournament.objects.exists()


def test_a_refused_new_tournament_puts_the_cursor_on_the_field_in_error(director, client):
    """The date was missing and the cursor went back to the name: a tired director typed the date into it."""
    import re

    client.force_login(director)
    page = client.post(reverse("tournament:create"), {"name": "Voms Open", "game": "voms", "date": "",
                                                      "language": "da", "status": "planned"}).content.decode()
    focused = re.findall(r'<(?:input|select|textarea)[^>]*\bautofocus\b[^>]*>', page)
    assert len(focused) == 1 and 'name="date"' in focused[0], focused
    assert not Tournament.objects.exists()


def test_a_new_tournament_starts_with_todays_date(director, client):
    from django.utils import timezone

    client.force_login(director)
    page = client.get(reverse("tournament:create")).content.decode()
    assert f'name="date" value="{timezone.localdate():%Y-%m-%d}"' in page


def test_create_view_creates(director, client):
    client.force_login(director)
    response = client.post(
        reverse("tournament:create"),
        {"name": "Voms Open", "game": "voms", "date": "2026-12-05", "venue": "Nuuk", "language": "da",
         "status": "planned"},
    )
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()
    assert (t.name, t.language, t.venue) == ("Voms Open", "da", "Nuuk")


def test_edit_view_changes(tournament, director, client):
    client.force_login(director)
    data = {"name": "Renamed", "game": "voms", "date": "2026-12-06", "venue": "", "language": "de",
            "status": "running"}
    assert client.post(reverse("tournament:edit", args=[tournament.slug]), data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.language, tournament.status) == ("Renamed", "de", "running")


@pytest.mark.parametrize("url_name,method", [("detail", "get"), ("edit", "get"), ("archive", "post")])
def test_who_may_open_director_pages(tournament, assistant, make_director, client, url_name, method):
    url = reverse(f"tournament:{url_name}", args=[tournament.slug])
    # anonymous: to the login page
    response = getattr(client, method)(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    # a director of another tournament: not found
    client.force_login(make_director("other"))
    assert getattr(client, method)(url).status_code == 404
    # the assistant: only the overview
    client.force_login(assistant)
    assert getattr(client, method)(url).status_code == (200 if url_name == "detail" else 404)
    tournament.refresh_from_db()
    assert not tournament.archived


def test_list_shows_only_own_tournaments(director, make_director, make_tournament, client):
    make_tournament(director, name="Mine")
    make_tournament(make_director("other"), name="Theirs")
    client.force_login(director)
    page = client.get(reverse("tournament:list")).content.decode()
    assert "Mine" in page and "Theirs" not in page


def test_the_list_writes_dates_as_the_language_writes_them(director, make_tournament, client):
    """Dates as the language writes them (directors-guide.md, "Dates and times"), in the list of tournaments too:
    05.12.2026 in Danish and German, 5 Dec 2026 in English - not 2026-12-05."""
    make_tournament(director, name="Mine")
    client.force_login(director)
    for language, shown in (("da", "05.12.2026"), ("de", "05.12.2026"), ("en", "5 Dec 2026")):
        client.cookies.load({"django_language": language})
        page = client.get(reverse("tournament:list")).content.decode()
        assert shown in page and "2026-12-05" not in page, language


def test_home_and_login_pages(client):
    assert client.get("/").status_code == 200
    assert client.get("/accounts/login/").status_code == 200


def test_language_switcher_changes_language(client):
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"}, follow=True)
    assert response.status_code == 200
    assert '<html lang="de">' in response.content.decode()


def test_creator_is_director_of_each_new_tournament_at_once(director, make_tournament):
    from tournament.permissions import is_director

    first = make_tournament(director, name="One")
    assert is_director(director, first)
    second = make_tournament(director, name="Two")
    assert is_director(director, second)
    update_tournament(second, by=director, venue="Hall")


@pytest.mark.parametrize(("language", "written"), [("de", "01.04.2026"), ("da", "01.04.2026"), ("en", "1 Apr 2026")])
def test_the_list_and_the_desks_earlier_tournaments_write_dates_as_the_language_does(
        director, make_tournament, client, language, written):
    """"My tournaments" and the desk's "earlier tournament" choice wrote 2026-04-01 in every language."""
    earlier = make_tournament(director, name="Spring Cup", game="schafkopf")
    earlier.date = datetime.date(2026, 4, 1)
    earlier.save()
    tonight = make_tournament(director, name="Autumn Cup", game="schafkopf")
    client.force_login(director)
    for page in (client.get(reverse("tournament:list"), HTTP_ACCEPT_LANGUAGE=language),
                 client.get(reverse("tournament:desk", args=[tonight.slug]), HTTP_ACCEPT_LANGUAGE=language)):
        text = page.content.decode()
        assert written in text and "2026-04-01" not in text
