"""The tournament's status and the provisional/final progress follow what is recorded."""

import pytest

from scoring.games.schafkopf import services
from scoring.progress import ResultProgress, result_progress
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tournament.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def test_status_moves_planned_running_finished(schafkopf, director, add_players, a_list):
    add_players(schafkopf, 16)
    schafkopf.refresh_from_db()
    assert schafkopf.status == Tournament.Status.PLANNED
    seated_services.draw_seating(schafkopf, by=director, seed=7)
    schafkopf.refresh_from_db()
    assert schafkopf.status == Tournament.Status.RUNNING
    tables = [t for ts in seated_tables(schafkopf).values() for t in ts]
    progress = result_progress(schafkopf)
    assert (progress.entered, progress.expected, progress.complete) == (0, len(tables), False)
    for index, table in enumerate(tables):
        services.enter_sheet(table.seats[0].table, by=director, mode="games",
                             entries=a_list(30, table.size, seed=index))
        schafkopf.refresh_from_db()
        last = index == len(tables) - 1
        assert schafkopf.status == (Tournament.Status.FINISHED if last else Tournament.Status.RUNNING)
        assert result_progress(schafkopf).entered == index + 1
    assert AuditEntry.objects.filter(tournament=schafkopf, action="tournament.status").count() == 2


def test_progress_after_round_counts_that_round_only(drawn, director, a_list):
    table = seated_tables(drawn)[1][0]
    services.enter_sheet(table.seats[0].table, by=director, mode="games", entries=a_list(30, table.size))
    assert result_progress(drawn, after_round=1).expected == len(seated_tables(drawn)[1])
    assert result_progress(drawn, after_round=1).entered == 1


def test_heading_words():
    progress = ResultProgress(entered=8, expected=18, unit="lists")
    assert progress.heading() == "Provisional — after 8 of 18 score lists"
    assert ResultProgress(entered=3, expected=7, unit="slips").heading() == "Provisional — after 3 of 7 slips"
    assert ResultProgress(entered=18, expected=18, unit="lists").heading() == "Final ranking"
    assert ResultProgress(entered=0, expected=0).complete is False
