"""tests/rules holds the games' rules without a database (scoring/rules has no Django). The PostgreSQL run of
`.ci/run` leaves this folder out: a test here reads and writes no database, so it would only run a second time
for nothing. A test that asks for one (the `django_db` mark, or the db, transactional_db or live_server fixture)
belongs elsewhere: tests/rules/test_no_database.py fails naming it."""

from pathlib import Path

HERE = Path(__file__).parent
DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences",
                     "django_db_serialized_rollback"}


def database_tests(items, folder: Path = HERE) -> list[str]:
    """The ids of the tests under `folder` that use a database."""
    return [item.nodeid for item in items
            if folder in Path(item.path).parents
            and (item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))]

