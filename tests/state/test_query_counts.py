"""What a standings page and an import cost in queries: a fixed number, whatever the size of the field.

Counted on the page after a change (the page's cache empty: what the first request after a result costs), for
every family of games, at two sizes: the count must not grow with the players, and must not grow back above
what it was. The director here is not a superuser: their role and permission cost 2 queries more than a
superuser's (docs/performance.md: Voms 14 with such a director in bench/voms.py, Schafkopf 8 with a superuser).
On 27 November, before the fix, the pool games were read twice per request and the tournament three times
(Voms 25 here, Schafkopf 13). No timing is asserted: the benchmarks in bench/ measure time.
"""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.games.schafkopf.demo import create_demo as schafkopf_demo
from scoring.games.schafkopf.demo import player_list
from scoring.games.tablegames.demo import create_demo as table_demo
from scoring.games.tablegames.family import game_by_key
from scoring.games.voms.demo import demo as voms_demo
from tournament.models import Person
from tournament.public.cache import public_cache
from tournament.services.participants import import_participants

pytestmark = pytest.mark.django_db


def standings_queries(client, director, tournament, url_name: str) -> int:
    client.force_login(director)
    url = reverse(url_name, args=[tournament.slug])
    client.get(url)  # the session's first request renews it: not what is counted
    public_cache().clear()  # as after a new result
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_voms_standings_page_queries(client, director):
    small = voms_demo(director, seed=1, results=True, teams=8, pools=2)
    large = voms_demo(director, seed=2, results=True, teams=24, pools=4)
    counts = [standings_queries(client, director, t, "tournament:voms:standings") for t in (small, large)]
    assert counts[0] == counts[1] <= 14, counts


def test_voms_standings_page_queries_before_the_knockout(client, director):
    pools_only = voms_demo(director, seed=3, results=False, teams=8, pools=2)
    assert standings_queries(client, director, pools_only, "tournament:voms:standings") <= 14


def test_schafkopf_standings_page_queries(client, director):
    small = schafkopf_demo(director, seed=1, results=True, players=16)
    large = schafkopf_demo(director, seed=2, results=True, players=48)
    counts = [standings_queries(client, director, t, "tournament:schafkopf:standings") for t in (small, large)]
    assert counts[0] == counts[1] <= 10, counts


@pytest.mark.parametrize("key", ["rummi", "domino_patience"])
def test_table_game_and_patience_standings_page_queries(client, director, key):
    game = game_by_key(key)
    small = table_demo(game, director, seed=1, results=True, players=8)
    large = table_demo(game, director, seed=2, results=True, players=24)
    counts = [standings_queries(client, director, t, "tournament:tablegames:standings") for t in (small, large)]
    assert counts[0] == counts[1] <= 9, counts


def test_an_import_costs_the_same_queries_for_40_players_as_for_200(director, make_tournament):
    """An import reads the register once and creates the players in batches (it was three queries a player and a
    scan of the whole register for each)."""
    costs = []
    for players in (40, 200):
        tournament = make_tournament(director, name=f"Import {players}", game="schafkopf")
        with CaptureQueriesContext(connection) as queries:
            # random names may repeat: the director has confirmed the list as it is
            report = import_participants(tournament, "players.csv", player_list(random.Random(players), players),
                                         by=director, confirm_duplicates=True)
        assert report.ok and len(report.created) == players
        costs.append(len(queries))
    assert costs[1] <= costs[0] + 10, costs  # bulk inserts come in batches of a few hundred rows
    assert costs[1] < 40, costs


def test_an_import_links_the_register_as_one_registration_after_another_would(director, make_tournament):
    """A name twice in the list: the register's entry once, then a new one; a name whose entry plays already gets
    a new one; matching is by name and club as the desk compares them (case and spacing do not count)."""
    earlier = make_tournament(director, name="Earlier", game="schafkopf")
    import_participants(earlier, "a.csv", b"first_name,last_name,club\nAnna,Huber,Dachau\nSepp,Maier,\n", by=director)
    anna = Person.objects.get(last_name="Huber")
    tournament = make_tournament(director, name="Tonight", game="schafkopf")
    data = (b"first_name,last_name,club\nanna, HUBER ,Dachau\nAnna,Huber,Dachau\nSepp,Maier,Other club\n"
            b"Sepp,maier,\n")
    report = import_participants(tournament, "b.csv", data, by=director, confirm_duplicates=True)
    assert report.ok
    people = [p.person for p in tournament.participants.order_by("number")]
    assert people[0] == anna and people[1] != anna and people[1].name == "Anna Huber"
    assert people[2].club == "Other club" and people[2] != people[3]
    assert people[3] == Person.objects.get(last_name="Maier", club="")
    assert Person.objects.filter(last_name__iexact="Huber").count() == 2


def test_a_list_is_scored_once_when_entered(director):
    """The rules' check before saving and the save itself derived the same list twice (score_list per list)."""
    from unittest import mock

    from scoring.games.schafkopf import services
    from scoring.games.schafkopf.demo import random_list, seated_tables

    tournament = schafkopf_demo(director, seed=4, results=False, players=16)
    table = seated_tables(tournament)[1][0]
    entries = random_list(random.Random(4), services.settings_of(tournament).games_at(table.size), table.size)
    with mock.patch.object(services, "score_list", wraps=services.score_list) as scored:
        sheet = services.enter_sheet(table.seats[0].table, by=director, mode="games", entries=entries)
    assert scored.call_count == 1
    assert sheet.derived["totals"] == services.make_derive(services.settings_of(tournament), table.size)(
        entries, "games")["totals"]


def test_the_top_bar_asks_who_keeps_the_register_in_one_query(client, director, django_user_model):
    """Seasons and the Player register are offered to whoever may create tournaments (the permission of their own
    or through the directors' group), not to an assistant; one query for it instead of Django's two."""
    from django.contrib.auth.models import Permission

    from tournament.permissions import can_create_tournaments, keeps_register

    assistant = django_user_model.objects.create_user(username="helper", password="pw-Helper-1")
    own = django_user_model.objects.create_user(username="own", password="pw-Own-1")
    own.user_permissions.add(Permission.objects.get(codename="add_tournament", content_type__app_label="tournament"))
    gone = django_user_model.objects.create_user(username="gone", password="pw-Gone-1", is_active=False)
    gone.groups.set(director.groups.all())
    for user in (director, assistant, own, gone):
        user = django_user_model.objects.get(pk=user.pk)
        assert keeps_register(user) == can_create_tournaments(django_user_model.objects.get(pk=user.pk)), user
    assert [keeps_register(django_user_model.objects.get(pk=u.pk)) for u in (director, assistant, own)] == [
        True, False, True]
    fresh = django_user_model.objects.get(pk=director.pk)
    with CaptureQueriesContext(connection) as queries:
        assert keeps_register(fresh) and keeps_register(fresh)
    assert len(queries) == 1
    client.force_login(assistant)
    assert "Player register" not in client.get(reverse("tournament:list")).content.decode()
    client.force_login(director)
    assert "Player register" in client.get(reverse("tournament:list")).content.decode()
