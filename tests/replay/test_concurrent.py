"""Simultaneous saves of one sheet, in threads against the services (real concurrency on PostgreSQL).

Twelve people save the first version of one sheet at the same moment, each from a form loaded
before any was saved (version 0). Whatever the order the database lets them in, each must end like
a save after the others: saved, or shown both versions (the sheet saved meanwhile, or under double
entry the first entry), or told it is saved already; never "Say why the sheet is corrected" or
"entered already", and never a second version.

On SQLite the test database of the suite lives in memory, where threads meet table locks instead of
the busy timeout of a real file; its IMMEDIATE transactions run one after the other anyway, which
`test_services.py` covers one save after the other. So these run on PostgreSQL only
(`PGPORT_CI=54341 bash .ci/with-postgres.sh .venv/bin/pytest tests/replay`).
"""

import threading

import pytest
from django.db import connection

from scoring.models import PendingSheet, ScoreSheet, SheetRevision
from scoring.results.double_entry import EntriesDiffer
from scoring.results.recording import StaleVersion
from tests.doubleentry.conftest import _helper
from tournament.services.errors import DomainError
from tournament.services.replay import AlreadySaved, Sent, new_key

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor == 'sqlite'", reason="real concurrency needs PostgreSQL (see docstring)"),
]

PEOPLE = 12


def at_once(calls) -> list[str]:
    """Run the calls in threads released together; each outcome's name (or the refusal's message)."""
    start = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        try:
            start.wait()
            result = call()
            outcomes[index] = "counted" if result.counted else "first entry"
        except (StaleVersion, EntriesDiffer, AlreadySaved) as answer:
            outcomes[index] = type(answer).__name__
        except DomainError as error:
            outcomes[index] = f"refused: {error.message}"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def people(game, django_user_model):
    return [_helper(django_user_model, game.tournament, f"helper{n}") for n in range(PEOPLE)]


@pytest.mark.parametrize("double_entry", [False, True])
def test_twelve_first_saves_at_once(game, django_user_model, double_entry):
    game.tournament.double_entry = double_entry
    game.tournament.save()
    helpers = people(game, django_user_model)
    outcomes = at_once([lambda who=who, n=n: game.enter(who, variant=n % 2, expected_version=0)
                        for n, who in enumerate(helpers)])
    refused = [outcome for outcome in outcomes if outcome.startswith("refused")]
    assert not refused, outcomes
    allowed = {"counted", "first entry", "StaleVersion", "EntriesDiffer", "AlreadySaved"}
    assert set(outcomes) <= allowed, outcomes
    if double_entry:
        assert outcomes.count("first entry") == 1, outcomes
        assert outcomes.count("counted") <= 1 and ScoreSheet.objects.count() + PendingSheet.objects.count() == 1
    else:
        assert outcomes.count("counted") == 1 and "EntriesDiffer" not in outcomes, outcomes
        assert ScoreSheet.objects.get().version == 1
    assert SheetRevision.objects.count() == ScoreSheet.objects.count()


def test_one_form_sent_several_times_at_once_is_saved_once(double, first):
    """A first entry (double entry) sent four times at once: without its key each would replace it again."""
    form = Sent(key=new_key(), digest="d" * 64)
    outcomes = at_once([lambda: double.enter(first, expected_version=0, sent=form) for _n in range(4)])
    assert sorted(outcomes) == ["AlreadySaved"] * 3 + ["first entry"], outcomes
    assert PendingSheet.objects.get().version == 1
