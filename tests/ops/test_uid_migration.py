"""Migration 0016: tournaments and seasons that exist before it get an identity each, distinct and unique."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournament", "0015_server_jobs")]
AFTER = [("tournament", "0016_tournament_uid")]


@pytest.mark.django_db(transaction=True)
def test_existing_tournaments_and_seasons_get_distinct_identities(django_user_model):
    user = django_user_model.objects.create_user("old-director", password="pw-Director-1")
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Tournament, Season = old.get_model("tournament", "Tournament"), old.get_model("tournament", "Season")
    for n in range(3):
        Tournament.objects.create(name=f"Evening {n}", slug=f"evening-{n}", game="schafkopf",
                                  date=datetime.date(2026, 1, n + 1), created_by_id=user.pk)
        Season.objects.create(name=f"Season {n}", slug=f"season-{n}", game="schafkopf", created_by_id=user.pk)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)

    new = executor.loader.project_state(AFTER).apps
    uids = {name: list(new.get_model("tournament", name).objects.values_list("uid", flat=True))
            for name in ("Tournament", "Season")}
    # the later migrations again: the next test of this worker finds the schema it was made for (the clubs' table)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    for found in uids.values():
        assert len(found) == 3 and None not in found and len(set(found)) == 3
