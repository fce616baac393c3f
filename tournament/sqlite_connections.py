"""SQLite connections kept between requests (settings.py: `CONN_MAX_AGE`), and dropped when their file was replaced.

Opening an SQLite connection costs more than most requests' queries: the file is opened, the schema read, the
pragmas run and Django's functions registered. In the hall every request opened one (an eighth of the server's
CPU while 200 tables sent their lists), so each server thread now keeps its own, as Django does on a server's
PostgreSQL.

A kept connection holds the file it opened. Restoring a backup writes into the same file through SQLite (every
connection sees the new content); only a database too damaged for that is replaced as a file
(`tournament.backup.restore_sqlite`), and another thread's kept connection would go on reading and writing the
old, deleted one. So at each request's start a thread's connection is closed when the database's file is no longer
the one it opened (its inode), and the request opens the new one.
"""

from __future__ import annotations

import os

from django.db import connections


def remember_file(sender, connection, **kwargs) -> None:
    """On `connection_created`: which file an SQLite connection opened."""
    if connection.vendor == "sqlite":
        connection.opened_file = _file_id(connection.settings_dict["NAME"])


def drop_if_replaced(**kwargs) -> None:
    """On `request_started`: close this thread's SQLite connections whose database file was replaced."""
    for connection in connections.all(initialized_only=True):
        if connection.vendor != "sqlite" or connection.connection is None:
            continue
        if getattr(connection, "opened_file", None) != _file_id(connection.settings_dict["NAME"]):
            connection.close()


def _file_id(name) -> tuple[int, int] | None:
    try:
        found = os.stat(name)
    except (OSError, TypeError, ValueError):  # an in-memory database, or no file (yet)
        return None
    return found.st_dev, found.st_ino
