"""SQLite connections kept between requests (tournament/sqlite_connections.py): kept while their file is the
database's, closed at the next request once the file was replaced (a restore of a damaged database)."""

import shutil
import sqlite3
import weakref

from django.conf import settings
from django.core.signals import request_started
from django.db import connections
from django.db.backends.signals import connection_created
from django.db.backends.sqlite3.base import DatabaseWrapper

from tournament.sqlite_connections import drop_if_replaced, remember_file


def a_database(path, value: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("create table t (v text)")
        db.execute("insert into t values (?)", [value])
    db.close()


def read(wrapper) -> str:
    with wrapper.cursor() as cursor:
        cursor.execute("select v from t")
        return cursor.fetchone()[0]


def test_a_kept_connection_is_dropped_once_its_file_was_replaced(tmp_path, monkeypatch, django_db_blocker):
    django_db_blocker.unblock()  # a database of the test's own, outside the test database
    path = tmp_path / "db.sqlite3"
    a_database(path, "old")
    wrapper = DatabaseWrapper({**connections["default"].settings_dict, "NAME": str(path), "OPTIONS": {}},
                              alias="kept")
    monkeypatch.setattr(connections, "all", lambda initialized_only=False: [wrapper])
    try:
        assert read(wrapper) == "old"
        drop_if_replaced()
        assert wrapper.connection is not None  # the same file: kept for the next request
        kept = wrapper.connection

        a_database(tmp_path / "new.sqlite3", "new")
        path.unlink()
        shutil.copyfile(tmp_path / "new.sqlite3", path)  # replaced as a file
        assert read(wrapper) == "old"  # the kept connection still reads the deleted file
        drop_if_replaced()
        assert wrapper.connection is None
        assert read(wrapper) == "new" and wrapper.connection is not kept
    finally:
        wrapper.close()
        django_db_blocker.restore()


def test_the_hall_keeps_its_connections_and_checks_their_file_at_each_request():
    if connections["default"].vendor == "sqlite":
        assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 600
    assert drop_if_replaced in receivers(request_started)
    assert remember_file in receivers(connection_created)


def receivers(signal) -> list:
    found = [entry[1] for entry in signal.receivers]
    return [receiver() if isinstance(receiver, weakref.ReferenceType) else receiver for receiver in found]
