"""`manage.py demo schafkopf`: a complete tournament, reproducible from its seed; `bootstrap` creates it."""

import pytest
from django.core.management import call_command

from scoring.games.schafkopf.standings import standings
from scoring.models import ScoreSheet
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_demo_with_results_is_complete_and_reproducible(director):
    director.is_superuser = True
    director.save()
    call_command("demo", "schafkopf", "--players", "22", "--results", "--seed", "5")
    call_command("demo", "schafkopf", "--players", "22", "--results", "--seed", "5")
    first, second = Tournament.objects.filter(game="schafkopf").order_by("pk")
    for tournament in (first, second):
        assert tournament.participants.count() == 22
        result = standings(tournament)
        assert result.complete and result.lists_total == 2 * 5  # 22 players: three 4-tables, two 5-tables
        assert result.prizes is not None and result.rows[0].prize is not None
    assert [s.entries for s in ScoreSheet.objects.filter(tournament=first).order_by("table__round__number",
                                                                                     "table__number")] == [
        s.entries for s in ScoreSheet.objects.filter(tournament=second).order_by("table__round__number",
                                                                                  "table__number")]


def test_bootstrap_creates_the_schafkopf_demo(capsys):
    call_command("bootstrap")
    demo = Tournament.objects.get(game="schafkopf")
    assert demo.participants.count() == 64
    assert demo.draws.filter(kind="seating").exists()
