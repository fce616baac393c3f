"""The first start of an installation: the director's account and the demo tournaments.

Two ways in, one result: `manage.py bootstrap` (a terminal: `make run`, a server) makes the account with a random
password and prints it; the one-time set-up page (`/setup/`, tournament/views/setup.py) lets the director choose
the password in the browser. Both make the same account (a superuser) and the same demo tournaments.
"""

from __future__ import annotations

import io

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction

from scoring.games import all_games


class AccountsExist(Exception):
    """The set-up was asked for when an account exists already (another tab, a double click)."""


def accounts_exist() -> bool:
    return get_user_model().objects.exists()


def _one_set_up_at_a_time() -> None:
    """Inside a transaction: another set-up waits here until this one has committed, then sees its account.

    SQLite's transactions take the write lock when they begin (settings: IMMEDIATE), which is this already;
    PostgreSQL's take no lock before the first write, so the user table is locked against other set-ups and
    inserts (SHARE ROW EXCLUSIVE conflicts with itself and with the ROW EXCLUSIVE of an insert)."""
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(get_user_model()._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")


def create_director(username: str, password: str):
    """The installation's director (a superuser), only while no account exists: two set-ups at once (a double
    click, two tabs) make one account, the other gets `AccountsExist`."""
    with transaction.atomic():
        _one_set_up_at_a_time()
        if not accounts_exist():
            return get_user_model().objects.create_superuser(username=username, email="", password=password)
    raise AccountsExist


def demo_games() -> list:
    """The games that have a demo tournament, in the order of the game list."""
    return [game for game in all_games() if game.offers("demo")]


def make_demo_tournaments(stdout=None) -> None:
    """One demo tournament of every game that has one, with realistic results (`manage.py demo <game>
    --results`), directed by the first superuser; each command's lines go to `stdout` (default: nowhere)."""
    for game in demo_games():
        call_command("demo", game.key, "--results", stdout=stdout if stdout is not None else io.StringIO())
